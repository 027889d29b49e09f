import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const cancelPartner = (body: { partnerCode: string; reason?: string }) =>
  http.write<PartnerDetail>('partner/cancel', body);
