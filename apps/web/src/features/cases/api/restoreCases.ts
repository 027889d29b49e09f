import { http } from '../../../lib/http';

export const restoreCases = (caseCodes: string[]) => http.write<null>('case/restore', { caseCodes });
