import { z } from 'zod';
import { LANGUAGES, type Language } from '../enums.js';
import { zDate, zIntIn, zPage, zRequiredText, zText } from './fields.js';

/** The update log (spec §7 Software), the improvement programme's usage events, and the system check. */

export const UPDATE_LOG_LIMITS = { version: 32, title: 200, markdown: 20_000 } as const;

/** One language's text of an entry, as the super administrator writes it. */
export const UpdateLogTextBody = z.object({
  title: zRequiredText(UPDATE_LOG_LIMITS.title),
  markdown: zRequiredText(UPDATE_LOG_LIMITS.markdown),
});
export const UpdateLogText = UpdateLogTextBody.extend({ language: z.enum(LANGUAGES) });
export type UpdateLogText = z.infer<typeof UpdateLogText>;

const otherLanguages = Object.fromEntries(
  LANGUAGES.filter((l) => l !== 'en').map((l) => [l, UpdateLogTextBody.optional()]),
) as Record<Exclude<Language, 'en'>, z.ZodOptional<typeof UpdateLogTextBody>>;
/** The texts by language: English is required (readers whose language has none read it), the others optional. */
export const UpdateLogTexts = z.strictObject({ en: UpdateLogTextBody, ...otherLanguages });
export type UpdateLogTexts = z.infer<typeof UpdateLogTexts>;

export const SaveUpdateLogBody = z.object({
  /** Absent: a new entry. */
  id: zIntIn(1, Number.MAX_SAFE_INTEGER).optional(),
  version: zRequiredText(UPDATE_LOG_LIMITS.version),
  releaseDate: zDate,
  texts: UpdateLogTexts,
});
export type SaveUpdateLogBody = z.infer<typeof SaveUpdateLogBody>;

export const UpdateLogIdBody = z.object({ id: zIntIn(1, Number.MAX_SAFE_INTEGER) });
export const UpdateLogIdsBody = z.object({ ids: z.array(zIntIn(1, Number.MAX_SAFE_INTEGER)).min(1).max(100) });
export const UpdateLogListQuery = z.object({ ...zPage });

/** An entry as a reader sees it: in their language, or English when it has no text in theirs. */
export const UpdateLogEntry = z.object({
  id: z.number(),
  version: z.string(),
  releaseDate: z.string(),
  /** The language the text is in (the reader's, or 'en'). */
  language: z.enum(LANGUAGES),
  title: z.string(),
  /** Rendered from Markdown and sanitized on the server. */
  html: z.string(),
});
export type UpdateLogEntry = z.infer<typeof UpdateLogEntry>;

export const UpdateLogSummary = UpdateLogEntry.omit({ html: true });
export const UpdateLogPage = z.object({ total: z.number(), list: z.array(UpdateLogSummary) });
export type UpdateLogPage = z.infer<typeof UpdateLogPage>;

/** An entry with every language's Markdown, for editing. */
export const UpdateLogDetail = z.object({
  id: z.number(),
  version: z.string(),
  releaseDate: z.string(),
  updatedAt: z.string(),
  texts: z.array(UpdateLogText.extend({ html: z.string() })),
});
export type UpdateLogDetail = z.infer<typeof UpdateLogDetail>;

export const UpdateLogAdminPage = z.object({
  total: z.number(),
  list: z.array(UpdateLogSummary.extend({ languages: z.array(z.enum(LANGUAGES)) })),
});
export type UpdateLogAdminPage = z.infer<typeof UpdateLogAdminPage>;

/** The "what's new" mark: the newest entry, and whether the signed-in user has opened it. */
export const UpdateLogMark = z.object({ latestId: z.number().nullable(), unseen: z.boolean() });
export type UpdateLogMark = z.infer<typeof UpdateLogMark>;

// ---- Improvement programme ----

/** Screen and action names are the web app's own keys (menu components, page paths, call paths). */
const zUsageName = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/:-]*$/, { message: 'format' });
export const USAGE_BATCH_MAX = 50;
/** Longer loads are counted as this long, so one stuck tab cannot swamp a week's average. */
export const USAGE_LOAD_MS_MAX = 120_000;

/** A screen opened (with its load time) or an action used on a screen (`action` names it, required then). */
export const UsageEvent = z.object({
  kind: z.enum(['screen', 'action']),
  screen: zUsageName,
  action: zUsageName.optional(),
  loadMs: zIntIn(0, 3_600_000).optional(),
});
export type UsageEvent = z.infer<typeof UsageEvent>;
export const UsageEventsBody = z.object({ events: z.array(UsageEvent).min(1).max(USAGE_BATCH_MAX) });
export type UsageEventsBody = z.infer<typeof UsageEventsBody>;
export const UsageAccepted = z.object({ accepted: z.number() });

export const UsageWeeklyQuery = z.object({
  /** How many weeks back, the current one included. */
  weeks: zIntIn(1, 52).default(8),
  screen: zText(80).optional(),
});
export const UsageWeeklyRow = z.object({
  /** The Monday (UTC) the week starts on. */
  weekStart: z.string(),
  screen: z.string(),
  screenOpens: z.number(),
  actions: z.number(),
  /** Average load time of the screen in milliseconds, null when no load time was reported. */
  averageLoadMs: z.number().nullable(),
});
export type UsageWeeklyRow = z.infer<typeof UsageWeeklyRow>;
export const UsageWeekly = z.object({ list: z.array(UsageWeeklyRow) });
export type UsageWeekly = z.infer<typeof UsageWeekly>;

export const ImprovementPlanState = z.object({ improvementPlan: z.boolean() });

// ---- System check ----

/** The speed test moves between 64 KiB and 8 MiB each way. */
export const SPEED_TEST_MIN_BYTES = 64 * 1024;
export const SPEED_TEST_MAX_BYTES = 8 * 1024 * 1024;
export const SpeedDownloadQuery = z.object({ bytes: zIntIn(SPEED_TEST_MIN_BYTES, SPEED_TEST_MAX_BYTES) });
export const SpeedUploadResult = z.object({ bytes: z.number(), serverMs: z.number() });
