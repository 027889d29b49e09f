import {
  canPartner,
  ERRORS,
  OrgType,
  PARTNER_COLOR_GROUPS,
  PartnerStatus,
  type PartnerAction,
} from '@portal/contracts';
import type { Partner } from '../api/types';

export type PartnerStatusValue = (typeof PartnerStatus)[keyof typeof PartnerStatus];
export type ColorGroup = keyof typeof PARTNER_COLOR_GROUPS;
/** What a row of the list can offer; `reapply` is the apply transition on an ended partnership. */
export type RowAction = 'accept' | 'reject' | 'cancel' | 'terminate' | 'reapply';

const STATUS_VALUES = Object.values(PartnerStatus) as number[];

export function isPartnerStatus(n: number): n is PartnerStatusValue {
  return STATUS_VALUES.includes(n);
}

/** The §4 colour group of a status; an unknown status has none. */
export function colorGroupOf(status: number): ColorGroup | null {
  for (const [group, list] of Object.entries(PARTNER_COLOR_GROUPS) as [ColorGroup, readonly number[]][]) {
    if (list.includes(status)) return group;
  }
  return null;
}

/** antd Tag colour per colour group. */
export const COLOR_GROUP_TAG: Record<ColorGroup, string> = {
  temp: 'purple',
  applying: 'processing',
  accepted: 'success',
  canceledAndRejected: 'default',
};

export function tagColorOf(status: number): string {
  const g = colorGroupOf(status);
  return g ? COLOR_GROUP_TAG[g] : 'default';
}

/** Which side of the partnership the signed-in organization is, for the transition table. */
export const sideOf = (p: Pick<Partner, 'initiatedByMe'>): 'initiator' | 'responder' =>
  p.initiatedByMe ? 'initiator' : 'responder';

const ROW_ACTIONS: readonly (Exclude<RowAction, 'reapply'> & PartnerAction)[] = [
  'accept',
  'reject',
  'cancel',
  'terminate',
];

/** The actions the transition table allows on a row, in display order. */
export function rowActions(p: Pick<Partner, 'status' | 'initiatedByMe' | 'organization'>): RowAction[] {
  if (!isPartnerStatus(p.status)) return [];
  const side = sideOf(p);
  const out: RowAction[] = ROW_ACTIONS.filter((a) => canPartner(a, p.status as PartnerStatusValue, side));
  // Applying again needs a concrete organization (a canceled email invitation has none) and an existing partnership.
  if (p.organization.code && canPartner('apply', p.status, side)) out.push('reapply');
  return out;
}

/** Partner management is for clinic and laboratory administrators only (§6); the server decides the admin part. */
export function canManagePartners(orgType: number | undefined | null): boolean {
  return orgType === OrgType.Clinic || orgType === OrgType.Lab;
}

export const isNoAccessError = (err: unknown): boolean =>
  (err as { code?: unknown } | null)?.code === ERRORS.PARTNER_NO_ACCESS.code;

/** Outcome of the invitation confirmation by error code. */
export type InvitationFailure = 'expired' | 'invalid' | 'noAccess' | 'other';
export function invitationFailure(err: unknown): InvitationFailure {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === ERRORS.INVITATION_EXPIRED.code) return 'expired';
  if (code === ERRORS.INVALID_LINK.code || code === ERRORS.NOT_FOUND.code) return 'invalid';
  if (code === ERRORS.PARTNER_NO_ACCESS.code) return 'noAccess';
  return 'other';
}
