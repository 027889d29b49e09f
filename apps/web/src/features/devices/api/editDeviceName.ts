import { http } from '../../../lib/http';

export const editDeviceName = (body: { serialNumber: string; name: string }) =>
  http.write<null>('equipment/editName', body);
