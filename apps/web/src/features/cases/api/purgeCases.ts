import { http } from '../../../lib/http';

/** Permanent: frees the storage. */
export const purgeCases = (caseCodes: string[]) => http.write<null>('case/purge', { caseCodes });
