import { http } from '../../../lib/http';

/** The clinic binds a scanner with its activation code. */
export const activateDevice = (body: { serialNumber: string; activationCode: string }) =>
  http.write<unknown>('equipment/activate', body);
