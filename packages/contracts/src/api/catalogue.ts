import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { TREATMENTS } from '../enums.js';
import { isTimeZone, TURNAROUND_MAX_DAYS, WEEKDAYS } from '../workingDays.js';
import { zDate, zIntIn, zRequiredText, zText } from './fields.js';
import { PRESCRIPTION_FIELDS } from './orders.js';

/** Currencies a price may be given in (ISO 4217). */
export const CURRENCIES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'DKK',
  'SEK',
  'NOK',
  'PLN',
  'CZK',
  'HUF',
  'TRY',
  'JPY',
  'CNY',
  'TWD',
  'CAD',
  'AUD',
] as const;
export const PRODUCT_NAME_MAX = 80;
export const PRODUCT_MATERIAL_MAX = 60;
export const PRODUCT_MATERIALS_MAX = 20;
export const PRICE_MAX = 1_000_000;
export const CLOSED_DATES_MAX = 400;
export const CatalogueManage = 'order:edit';

/** A laboratory's product: what a clinic orders, from which materials, and how many working days it takes. */
export const LabProduct = z.object({
  productCode: z.string(),
  name: z.string(),
  workType: z.enum(TREATMENTS),
  materials: z.array(z.string()),
  turnaroundDays: z.number().int(),
  price: z.number().nullable(),
  currency: z.enum(CURRENCIES).nullable(),
  /** Prescription fields an order of this product must fill, beyond the laboratory's rules for its work type. */
  requiredFields: z.array(z.enum(PRESCRIPTION_FIELDS)),
});
export type LabProduct = z.infer<typeof LabProduct>;

/** A price in at most two decimals (numeric text too). */
const zPrice = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v),
  z
    .number()
    .min(0)
    .max(PRICE_MAX)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { message: 'price' }),
);

/** Creates a product (no productCode) or replaces one of the laboratory's own. */
export const SaveProductBody = z
  .object({
    productCode: zText(FIELD_MAX.code).optional(),
    name: zRequiredText(PRODUCT_NAME_MAX),
    workType: z.enum(TREATMENTS),
    materials: z.array(zRequiredText(PRODUCT_MATERIAL_MAX)).max(PRODUCT_MATERIALS_MAX).default([]),
    turnaroundDays: zIntIn(0, TURNAROUND_MAX_DAYS),
    price: zPrice.nullable().optional(),
    currency: z.enum(CURRENCIES).nullable().optional(),
    requiredFields: z.array(z.enum(PRESCRIPTION_FIELDS)).max(PRESCRIPTION_FIELDS.length).default([]),
  })
  .refine((b) => b.price === undefined || b.price === null || Boolean(b.currency), {
    path: ['currency'],
    message: 'currency',
  });
export type SaveProductBody = z.infer<typeof SaveProductBody>;
export const ProductCodeBody = z.object({ productCode: zRequiredText(FIELD_MAX.code) });
/** A laboratory lists its own products; a clinic names the partnership to list its laboratory's. */
export const ProductListQuery = z.object({ partnerCode: zText(FIELD_MAX.code).optional() });
export const ProductListResult = z.object({ labName: z.string(), list: z.array(LabProduct) });

// A note may come back as the calendar gave it (null): a calendar read and saved unchanged is accepted.
export const ClosedDate = z.object({ date: zDate, note: zText(80).nullish() });
/** A laboratory's working weekdays (ISO: 1 Monday … 7 Sunday), closed dates and the timezone its days are in. */
export const LabCalendar = z.object({
  workingWeekdays: z.array(zIntIn(1, 7)).min(1).max(WEEKDAYS.length),
  closedDates: z.array(ClosedDate).max(CLOSED_DATES_MAX),
  timeZone: z.string().trim().refine(isTimeZone, { message: 'timeZone' }),
});
export type LabCalendar = z.infer<typeof LabCalendar>;
export const LabCalendarResult = z.object({
  workingWeekdays: z.array(z.number().int()),
  closedDates: z.array(z.object({ date: z.string(), note: z.string().nullable() })),
  timeZone: z.string(),
  /** False until the laboratory saves a calendar of its own (the defaults apply). */
  saved: z.boolean(),
});

/** When an order of a product sent now would be due: the product's turnaround in the laboratory's working days. */
export const DeliveryEstimateQuery = z.object({
  partnerCode: zRequiredText(FIELD_MAX.code),
  productCode: zRequiredText(FIELD_MAX.code),
});
export const DeliveryEstimate = z.object({
  /** The day the order arrives, in the laboratory's timezone. */
  receivedOn: z.string(),
  turnaroundDays: z.number().int(),
  estimatedDeliveryDate: z.string(),
});
