import { http } from '../../../lib/http';

export const deleteDentist = (id: number) => http.write<null>('dentist/delete', { id });
