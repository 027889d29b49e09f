import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';

/** Form-encoded bodies carry every value as text; these helpers accept both text and JSON values. */
export const zBool = z.preprocess((v) => {
  if (v === 'true' || v === '1' || v === 'on') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  return v;
}, z.boolean());

export const zInt = z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int());

export const zText = (max: number) => z.string().trim().max(max);
export const zRequiredText = (max: number) => z.string().trim().min(1).max(max);

export const zEmail = z.string().trim().max(FIELD_MAX.email).pipe(z.email());
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
  pageNum: zInt.pipe(z.number().min(1)).default(1),
  pageSize: zInt.pipe(z.number().min(1).max(100)).default(20),
};

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), msg: z.string(), data });
}
export const EmptyEnvelope = z.object({ code: z.number(), msg: z.string(), data: z.null() });
