import { http } from '../../../lib/http';
import type { PartnerDetail } from './types';

/** Silent: expired (2034), invalid (2021) and no-access (2031) answers are shown by the page itself. */
export const confirmInvitation = (token: string) =>
  http.write<PartnerDetail>('partner/confirmInvitation', { token }, { silent: true });
