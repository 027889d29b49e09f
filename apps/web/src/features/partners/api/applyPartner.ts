import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const applyPartner = (body: { organizationCode: string; reason?: string }) =>
  http.post<PartnerDetail>('partner/apply', body);
