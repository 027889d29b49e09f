import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

/** Clinic only: a temporary partner and an email with a registration link. */
export const inviteLab = (email: string) => http.write<PartnerDetail>('partner/inviteLab', { email });
