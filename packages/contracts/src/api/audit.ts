import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zDate, zIntIn, zText } from './fields.js';

/**
 * The patient-data access log (docs/product-decisions.md, "Patient-data access log"): what was read. `case.list` and
 * `order.list` are logged for apps only (a member's list is a screen of their own organization; an app's list is a
 * copy leaving the portal).
 */
export const ACCESS_ACTIONS = [
  'case.view',
  'case.list',
  'order.view',
  'order.list',
  'file.open',
  'export.create',
  'report.view',
  'report.pdf',
  'share.create',
  'share.page',
  'share.pdf',
  'share.file',
] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** Who read: a member in the portal, an app acting for a member, or a share link's visitor. */
export const ACCESS_VIA = ['member', 'app', 'share'] as const;
export type AccessVia = (typeof ACCESS_VIA)[number];

/** At most this many entries go into one CSV export (newest first); narrower filters give the rest. */
export const ACCESS_LOG_EXPORT_MAX_ROWS = 50_000;

const AccessLogFilter = {
  /** Days in the reader's timezone, both included. */
  dateFrom: zDate.optional(),
  dateTo: zDate.optional(),
  action: z.enum(ACCESS_ACTIONS).optional(),
  via: z.enum(ACCESS_VIA).optional(),
  /** One member's accesses (their user code). */
  userCode: zText(FIELD_MAX.code).optional(),
  /** One case's (its code): the case itself, its files, orders, reports and shares. */
  caseCode: zText(FIELD_MAX.code).optional(),
  /** One app's (its client ID). */
  appCode: zText(FIELD_MAX.code).optional(),
};

export const AccessLogQuery = z.object({
  ...AccessLogFilter,
  pageNum: zIntIn(1, 10_000).default(1),
  pageSize: zIntIn(1, 100).default(20),
});
export const AccessLogExportBody = z.object(AccessLogFilter);

/** One access. Names are looked up when read; entries themselves hold ids, so an erased patient leaves no name here. */
export const AccessLogEntry = z.object({
  id: z.string(),
  at: z.string(),
  action: z.enum(ACCESS_ACTIONS),
  via: z.enum(ACCESS_VIA),
  /** The member (null for a share's visitor; their name null when the account is gone). */
  userCode: z.string().nullable(),
  userName: z.string().nullable(),
  account: z.string().nullable(),
  /** The member's organization when it is not the reader's (a laboratory reading a clinic's order). */
  organizationName: z.string().nullable(),
  appCode: z.string().nullable(),
  appName: z.string().nullable(),
  /** What was read, by code (null when gone). */
  caseCode: z.string().nullable(),
  orderCode: z.string().nullable(),
  fileCode: z.string().nullable(),
  reportCode: z.string().nullable(),
  /** A member's address; a share visitor's salted address hash. */
  address: z.string().nullable(),
  /** Browser and system family, for a share's visitor. */
  userAgent: z.string().nullable(),
});
export const AccessLog = z.object({ total: z.number(), list: z.array(AccessLogEntry) });
