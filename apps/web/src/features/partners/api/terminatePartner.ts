import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const terminatePartner = (body: { partnerCode: string; reason?: string }) =>
  http.write<PartnerDetail>('partner/terminate', body);
