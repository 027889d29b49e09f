import { http } from '../../../lib/http';

/** Moves the cases to the recycle bin. */
export const deleteCases = (caseCodes: string[]) => http.write<null>('case/delete', { caseCodes });
