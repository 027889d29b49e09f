import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zIntIn, zRequiredText } from './fields.js';

/**
 * Erasing a patient's data on request (docs/product-decisions.md, "Erasing a patient's data"): the clinic's
 * administrator names the patient's cases; their files, reports, shares, exported bundles and order attachments
 * go, the laboratory keeps its orders without the patient's name, and a certificate says what went.
 */
export const ERASURE_LIMITS = {
  /** Cases in one request (one patient's, over the years). */
  cases: 100,
  reasonChars: 500,
} as const;

const zCaseCode = zRequiredText(FIELD_MAX.code);

export const ErasureBody = z.object({
  caseCodes: z.array(zCaseCode).min(1).max(ERASURE_LIMITS.cases),
  /** Why (the patient's request, its date or reference): kept on the certificate, so no patient name belongs here. */
  reason: zRequiredText(ERASURE_LIMITS.reasonChars),
});
export type ErasureBody = z.infer<typeof ErasureBody>;

/** What went of one case. */
export const ErasedCase = z.object({
  caseCode: z.string(),
  /** Model and photo files, with their viewer versions. */
  files: z.number(),
  bytes: z.number(),
  reports: z.number(),
  /** Share links of the case, its reports and its orders. */
  shares: z.number(),
  /** Files attached to the case's orders (messages, photos). */
  attachments: z.number(),
  /** Orders kept by the laboratory without the patient's data. */
  orderCodes: z.array(z.string()),
});

export const ErasureCertificate = z.object({
  erasureCode: z.string(),
  erasedAt: z.string(),
  /** Who asked (their name when read; null when the account is gone). */
  userCode: z.string().nullable(),
  userName: z.string().nullable(),
  reason: z.string(),
  cases: z.array(ErasedCase),
  /** Exported bundles that held any of the cases: deleted whole. */
  exportCodes: z.array(z.string()),
  /**
   * Who was asked to delete their copies: the organization's webhook endpoints that receive `case.erased`, and the
   * apps that read the cases through the API (by the access log).
   */
  webhookEndpoints: z.number(),
  appCodes: z.array(z.string()),
  /** Stored bytes still waiting to be removed from the file store (retried by the upkeep until none is left). */
  pendingBlobs: z.number(),
});
export type ErasureCertificate = z.infer<typeof ErasureCertificate>;

export const ErasureListQuery = z.object({
  pageNum: zIntIn(1, 10_000).default(1),
  pageSize: zIntIn(1, 100).default(20),
});
export const ErasureList = z.object({ total: z.number(), list: z.array(ErasureCertificate) });
export const ErasureGetBody = z.object({ erasureCode: zRequiredText(FIELD_MAX.code) });

/** A legal hold keeps a case from erasure (and from the recycle bin's purge) while the law requires keeping it. */
export const LegalHoldBody = z.object({
  caseCode: zCaseCode,
  reason: zRequiredText(ERASURE_LIMITS.reasonChars),
});
export const LegalHoldReleaseBody = z.object({ caseCode: zCaseCode });
/** A case's hold as a change left it (live or in the recycle bin). */
export const CaseLegalHold = z.object({
  caseCode: z.string(),
  legalHold: z.object({ reason: z.string(), heldAt: z.string() }).nullable(),
});
