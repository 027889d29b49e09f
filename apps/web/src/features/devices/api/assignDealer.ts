import { http } from '../../../lib/http';

/** An OEM hands its scanners to the dealer (by organization code) that sells them. */
export const assignDealer = (body: { serialNumbers: string[]; dealerCode: string }) =>
  http.write<{ count: number }>('equipment/assignDealer', body);
