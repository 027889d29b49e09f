import { http } from '../../../lib/http';

export const editDeviceName = (body: { serialNumber: string; name: string }) =>
  http.post<null>('equipment/editName', body);
