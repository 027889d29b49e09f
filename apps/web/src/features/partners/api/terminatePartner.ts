import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const terminatePartner = (body: { partnerCode: string; reason?: string }) =>
  http.post<PartnerDetail>('partner/terminate', body);
