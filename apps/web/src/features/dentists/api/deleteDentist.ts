import { http } from '../../../lib/http';

export const deleteDentist = (id: number) => http.post<null>('dentist/delete', { id });
