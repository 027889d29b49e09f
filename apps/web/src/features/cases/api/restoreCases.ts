import { http } from '../../../lib/http';

export const restoreCases = (caseCodes: string[]) => http.post<null>('case/restore', { caseCodes });
