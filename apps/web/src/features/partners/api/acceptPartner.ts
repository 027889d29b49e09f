import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

export const acceptPartner = (body: { partnerCode: string; reason?: string }) =>
  http.write<PartnerDetail>('partner/accept', body);
