import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const rejectPartner = (body: { partnerCode: string; reason?: string }) =>
  http.post<PartnerDetail>('partner/reject', body);
