import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { isCalendarDate } from '../dates.js';

/** Form-encoded bodies carry every value as text; these helpers accept both text and JSON values. */
export const zBool = z.preprocess((v) => {
  if (v === 'true' || v === '1' || v === 'on') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  return v;
}, z.boolean());

const numericText = (v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v);

/**
 * An integer from `min` to `max` (numeric text too, as form-encoded bodies carry it). The bounds sit on the schema
 * the text is read into, so the API document shows them (a bound added after a pipe would not be documented).
 */
export const zIntIn = (min: number, max: number) => z.preprocess(numericText, z.number().int().min(min).max(max));

/** One of a few integers ('2' or 2). */
export const zIntOf = <const T extends readonly [number, ...number[]]>(...values: T) =>
  z.preprocess(numericText, z.union(values.map((v) => z.literal(v)) as unknown as [z.ZodLiteral<T[number]>]));

/**
 * A finite number from `min` to `max` (JSON carries no Infinity or NaN, and the schema refuses them from any other
 * source). The bounds sit on the schema itself, so the API document shows them.
 */
export const zNumberIn = (min: number, max: number) => z.number().min(min).max(max);

/** An integer within what every layer holds exactly (JavaScript's safe integers, PostgreSQL's bigint). */
export const zInt = zIntIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);

/**
 * A calendar day 'YYYY-MM-DD' that exists (2026-02-30 and 0000-00-00 are refused, naming the field). The formats
 * are declared for the API document, where a refinement alone would leave a plain string.
 */
export const zDate = z.string().trim().refine(isCalendarDate, { message: 'date' }).meta({ format: 'date' });

/** An ISO date and time with its offset, in the years of CALENDAR_YEARS. */
export const zDateTime = z
  .string()
  .trim()
  .max(40)
  .pipe(z.iso.datetime({ offset: true }))
  .refine((v) => isCalendarDate(v.slice(0, 10)), { message: 'date' })
  .meta({ format: 'date-time' });

export const zText = (max: number) => z.string().trim().max(max);
export const zRequiredText = (max: number) => z.string().trim().min(1).max(max);

export const zEmail = z.string().trim().max(FIELD_MAX.email).pipe(z.email()).meta({ format: 'email' });
export const zAccount = z
  .string()
  .trim()
  .min(3)
  .max(FIELD_MAX.account)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'accountFormat' });
export const zPhone = z
  .string()
  .trim()
  .max(FIELD_MAX.phone)
  .regex(/^\+?[0-9 ()-]{5,}$/, { message: 'phoneFormat' });
/** Passwords are checked against the rule by the service, so the message names the failing checks. */
export const zPassword = z.string().min(1).max(64);
export const zToken = z.string().trim().min(1).max(FIELD_MAX.token);

export const zPage = {
  pageNum: zIntIn(1, Number.MAX_SAFE_INTEGER).default(1),
  pageSize: zIntIn(1, 100).default(20),
};

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), msg: z.string(), data });
}
export const EmptyEnvelope = z.object({ code: z.number(), msg: z.string(), data: z.null() });
