import { http } from '../../../lib/http';

/** Permanent: frees the storage. */
export const purgeCases = (caseCodes: string[]) => http.post<null>('case/purge', { caseCodes });
