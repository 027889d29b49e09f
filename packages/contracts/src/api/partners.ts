import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { PartnerStatus } from '../enums.js';
import { zEmail, zPage, zRequiredText, zText } from './fields.js';

type Status = (typeof PartnerStatus)[keyof typeof PartnerStatus];
export type PartnerAction = 'invite' | 'apply' | 'accept' | 'reject' | 'cancel' | 'terminate' | 'confirm';

/**
 * The partnership state machine (§4 statuses). `from: null` means no partnership yet. `by` says who may act:
 * the side that started the application (initiator), the other side (responder), or either.
 */
export const PARTNER_TRANSITIONS: Record<
  PartnerAction,
  { from: ReadonlyArray<Status | null>; to: Status; by: 'initiator' | 'responder' | 'either' }
> = {
  invite: { from: [null], to: PartnerStatus.Temporary, by: 'either' },
  apply: {
    from: [null, PartnerStatus.Rejected, PartnerStatus.Canceled, PartnerStatus.Terminated],
    to: PartnerStatus.Applying,
    by: 'either',
  },
  accept: { from: [PartnerStatus.Applying], to: PartnerStatus.Accepted, by: 'responder' },
  reject: { from: [PartnerStatus.Applying], to: PartnerStatus.Rejected, by: 'responder' },
  cancel: { from: [PartnerStatus.Applying, PartnerStatus.Temporary], to: PartnerStatus.Canceled, by: 'initiator' },
  terminate: { from: [PartnerStatus.Accepted], to: PartnerStatus.Terminated, by: 'either' },
  confirm: { from: [PartnerStatus.Temporary], to: PartnerStatus.Accepted, by: 'responder' },
};

export function canPartner(action: PartnerAction, from: Status | null, side: 'initiator' | 'responder'): boolean {
  const t = PARTNER_TRANSITIONS[action];
  return t.from.includes(from) && (t.by === 'either' || t.by === side);
}

/** Colour groups of §4 for the status tags. */
export const PARTNER_COLOR_GROUPS = {
  temp: [PartnerStatus.Temporary],
  applying: [PartnerStatus.Applying],
  accepted: [PartnerStatus.Accepted],
  canceledAndRejected: [PartnerStatus.Rejected, PartnerStatus.Canceled, PartnerStatus.Terminated],
} as const;

export const InvitationCodeBody = z.object({ invitationCode: zRequiredText(FIELD_MAX.code) });
export const InvitationTarget = z.object({
  organizationCode: z.string(),
  name: z.string(),
  type: z.number(),
  city: z.string().nullable(),
  country: z.string().nullable(),
});
export const ApplyBody = z.object({
  organizationCode: zRequiredText(FIELD_MAX.code),
  reason: zText(FIELD_MAX.reason).optional(),
});
export const PartnerActionBody = z.object({
  partnerCode: zRequiredText(FIELD_MAX.code),
  reason: zText(FIELD_MAX.reason).optional(),
});
export const PartnerListQuery = z.object({
  ...zPage,
  tab: z.enum(['mine', 'toConfirm', 'history']).default('mine'),
  keyword: zText(FIELD_MAX.name).optional(),
});
export type PartnerListQuery = z.infer<typeof PartnerListQuery>;
export const PartnerSearchQuery = z.object({ keyword: zRequiredText(FIELD_MAX.name) });
export const InviteLabBody = z.object({ email: zEmail, message: zText(FIELD_MAX.reason).optional() });
export const InvitationTokenBody = z.object({ token: zRequiredText(FIELD_MAX.token) });

export const Partner = z.object({
  partnerCode: z.string(),
  status: z.number(),
  /** The other organization, as this side sees it. */
  organization: z.object({
    code: z.string().nullable(),
    name: z.string(),
    type: z.number(),
    city: z.string().nullable(),
    country: z.string().nullable(),
  }),
  initiatedByMe: z.boolean(),
  invitedEmail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const PartnerEvent = z.object({
  from: z.number().nullable(),
  to: z.number(),
  action: z.string(),
  reason: z.string().nullable(),
  actorName: z.string(),
  actorOrganization: z.string(),
  at: z.string(),
});
export const PartnerDetail = Partner.extend({ events: z.array(PartnerEvent) });
export const PartnerListResult = z.object({ total: z.number(), list: z.array(Partner) });
