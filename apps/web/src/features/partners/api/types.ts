import type { z } from 'zod';
import type { InvitationTarget, Partner, PartnerDetail, PartnerEvent } from '@portal/contracts';

export type Partner = z.infer<typeof Partner>;
export type PartnerDetail = z.infer<typeof PartnerDetail>;
export type PartnerEvent = z.infer<typeof PartnerEvent>;
/** An organization found by invitation code or by name. */
export type PartnerTarget = z.infer<typeof InvitationTarget>;
export type PartnerTab = 'mine' | 'toConfirm' | 'history';
export const PARTNER_TABS: readonly PartnerTab[] = ['mine', 'toConfirm', 'history'];
export interface PartnerQuery {
  tab: PartnerTab;
  pageNum: number;
  pageSize: number;
  keyword?: string;
}
export interface Page<T> {
  total: number;
  list: T[];
}
