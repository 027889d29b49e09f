import { http } from '../../../lib/http';
import type { PartnerTarget } from './types';

export const checkInvitationCode = (invitationCode: string) =>
  http.post<PartnerTarget>('user/partner/checkInvitationCode', { invitationCode });
