import { http } from '../../../lib/http';

/** The clinic binds a scanner with its activation code. */
export const activateDevice = (body: { serialNumber: string; activationCode: string }) =>
  http.post<unknown>('equipment/activate', body);
