import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const rejectPartner = (body: { partnerCode: string; reason?: string }) =>
  http.write<PartnerDetail>('partner/reject', body);
