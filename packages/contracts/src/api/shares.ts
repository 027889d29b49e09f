import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { LANGUAGES, ORDER_STATUSES, TREATMENTS } from '../enums.js';

import { CaseFile } from './cases.js';
import { ReportImageRef, ReportView } from './reports.js';
import { zBool, zEmail, zIntIn, zIntOf, zRequiredText, zText } from './fields.js';

/**
 * Share links: a case, an order or a published report opened by anyone holding the link, behind an optional
 * password, until it expires or is revoked.
 */
export const SHARE_RESOURCE_TYPES = ['case', 'order', 'report'] as const;
export type ShareResourceType = (typeof SHARE_RESOURCE_TYPES)[number];
/** The public page of each kind of share (spec §2); the server answers them with the share page's own document. */
export const SHARE_PAGES: Record<ShareResourceType, string> = {
  case: '/case-show',
  order: '/order-show',
  report: '/share/report',
};
/** How long a link lasts, in days; null never expires. */
export const SHARE_EXPIRY_DAYS = [1, 7, 30] as const;
export const SHARE_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];
/** How a share was opened: its page, the report's PDF, a file's download. */
export const SHARE_ACCESS_KINDS = ['page', 'pdf', 'file'] as const;
export type ShareAccessKind = (typeof SHARE_ACCESS_KINDS)[number];
/** A share password: any text a person can type and pass on (it guards a link, it is not an account password). */
export const SHARE_PASSWORD = { min: 4, max: 64 } as const;
/** Public share codes: 128 random bits, base64url (22 characters). */
export const SHARE_CODE_LENGTH = 22;

const zShareCode = zRequiredText(FIELD_MAX.code);
const ShareTarget = {
  resourceType: z.enum(SHARE_RESOURCE_TYPES),
  resourceCode: zRequiredText(FIELD_MAX.code),
};

export const CreateShareBody = z.object({
  ...ShareTarget,
  /** Empty or absent: no password. */
  password: z.string().max(SHARE_PASSWORD.max).optional(),
  /** 1, 7 or 30 days; null never expires. */
  expiresInDays: zIntOf(...SHARE_EXPIRY_DAYS)
    .nullable()
    .default(7),
  showPatientName: zBool.default(false),
});
export type CreateShareBody = z.infer<typeof CreateShareBody>;
export const ShareTargetBody = z.object(ShareTarget);
export const ShareCodeBody = z.object({ shareCode: zShareCode });
export const ShareAccessLogQuery = z.object({
  shareCode: zShareCode,
  pageNum: zIntIn(1, 10_000).default(1),
  pageSize: zIntIn(1, 100).default(20),
});
export const ShareMailBody = z.object({
  shareCode: zShareCode,
  email: zEmail,
  /** The recipient's name for the greeting (a neutral greeting without it). */
  name: zText(FIELD_MAX.name).optional(),
  /** The recipient's language. */
  language: z.enum(LANGUAGES),
});

export const ShareItem = z.object({
  shareCode: z.string(),
  resourceType: z.enum(SHARE_RESOURCE_TYPES),
  resourceCode: z.string(),
  /** The public page's address. */
  url: z.string(),
  hasPassword: z.boolean(),
  showPatientName: z.boolean(),
  status: z.enum(SHARE_STATUSES),
  /** Null: never expires. */
  expiresAt: z.string().nullable(),
  /** Whole days left (rounded up) while active and expiring; null otherwise. */
  remainingDays: z.number().nullable(),
  views: z.number(),
  lastViewedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  /** The caller may revoke it: they made it or administer its organization. */
  canRevoke: z.boolean(),
});
export type ShareItem = z.infer<typeof ShareItem>;
export const ShareList = z.object({ list: z.array(ShareItem) });
export const ShareAccessEntry = z.object({
  at: z.string(),
  kind: z.enum(SHARE_ACCESS_KINDS),
  /** Browser family and operating system family only, e.g. "Chrome · Android". */
  userAgent: z.string(),
  /** A truncated, salted hash of the visitor's address: equal values are the same address, nothing more. */
  addressHash: z.string(),
});
export const ShareAccessLog = z.object({ total: z.number(), list: z.array(ShareAccessEntry) });

// Public calls.
export const OpenShareBody = z.object({
  code: zShareCode,
  /** The share sign a passed password gave this browser. */
  sign: z.string().max(FIELD_MAX.token).optional(),
});
export const UnlockShareBody = z.object({
  code: zShareCode,
  password: z.string().min(1).max(SHARE_PASSWORD.max),
});
export const ShareSign = z.object({ sign: z.string() });

/** A file as a visitor gets it: share-scoped links that stop working when the share ends. */
export const SharedFile = CaseFile.pick({
  fileCode: true,
  name: true,
  format: true,
  kind: true,
  jaw: true,
  size: true,
  viewerStatus: true,
  unit: true,
}).extend({
  /** Opens or downloads the original (add `&download=1` to download). */
  url: z.string(),
  /** The compact viewer version of a model; null when there is none. */
  viewerUrl: z.string().nullable(),
  expiresAt: z.string(),
});
export type SharedFile = z.infer<typeof SharedFile>;
export const SharedCase = z.object({
  name: z.string(),
  /** Null unless the sharer chose to show it. */
  patientName: z.string().nullable(),
  scanDate: z.string().nullable(),
  treatments: z.array(z.enum(TREATMENTS)),
});
export const SharedOrder = z.object({
  orderCode: z.string(),
  status: z.enum(ORDER_STATUSES),
  caseName: z.string(),
  patientName: z.string().nullable(),
  workTypes: z.array(z.enum(TREATMENTS)),
  clinicName: z.string(),
  labName: z.string(),
  requestedDeliveryDate: z.string().nullable(),
  createdAt: z.string(),
});
/**
 * A shared report: its latest published version as the patient sees it. The picture and PDF links are signed for
 * the share and stop working when it ends.
 */
export const SharedReport = ReportView.omit({ images: true, patientName: true }).extend({
  /** Null unless the sharer chose to show it. */
  patientName: z.string().nullable(),
  images: z.array(ReportImageRef.extend({ caption: z.string(), url: z.string() })),
  pdfUrl: z.string(),
});
export type SharedReport = z.infer<typeof SharedReport>;
export const ShareView = z.object({
  resourceType: z.enum(SHARE_RESOURCE_TYPES),
  organizationName: z.string(),
  /** A password is needed: nothing else is given until it is passed. */
  locked: z.boolean(),
  expiresAt: z.string().nullable(),
  remainingDays: z.number().nullable(),
  /** Changes whenever the share changes; a remembered share sign is for one version. */
  version: z.number(),
  case: SharedCase.nullable(),
  order: SharedOrder.nullable(),
  report: SharedReport.nullable(),
  files: z.array(SharedFile),
});
export type ShareView = z.infer<typeof ShareView>;
/** The data of a 2020 (2009 for a report) answer: the sharer's organization when the share exists. */
export const ShareEndedData = z.object({ organizationName: z.string().nullable() });
