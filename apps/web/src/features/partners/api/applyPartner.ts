import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const applyPartner = (body: { organizationCode: string; reason?: string }) =>
  http.write<PartnerDetail>('partner/apply', body);
