import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zEmail, zPhone, zRequiredText, zText } from './fields.js';
import { TOOTH_NUMBERING_SYSTEMS } from '../enums.js';

/**
 * An area id: a country's ISO code ('US'), a subdivision's ISO 3166-2 code ('US-CA', 'GB-KEN', 'FR-75C') or a
 * city's, its state's code followed by a number ('US-CA-0123').
 */
export const zAreaId = z
  .string()
  .trim()
  .max(16)
  .regex(/^[A-Z]{2}(-[A-Z0-9]{1,4}){0,2}$/, { message: 'areaId' });

/** `area/listAreaByParentId`: no parent lists the countries of the caller's regional site. */
export const AreaQuery = z.object({ parentId: z.union([z.literal(''), zAreaId]).optional() });
export const Area = z.object({ id: z.string(), name: z.string(), level: z.number(), hasChildren: z.boolean() });
export type Area = z.infer<typeof Area>;
export const AreaList = z.object({ list: z.array(Area) });

/** Upload targets of the organization's images (spec §3): its logo and its business licence. */
export const COMPANY_IMAGE_TARGETS = ['organization', 'license'] as const;
export type CompanyImageTarget = (typeof COMPANY_IMAGE_TARGETS)[number];
/** Images are checked by their first bytes; SVG is refused (it can carry script). */
export const COMPANY_IMAGE_FORMATS = ['png', 'jpg', 'gif', 'webp'] as const;
export const COMPANY_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const CompanyImageQuery = z.object({ target: z.enum(COMPANY_IMAGE_TARGETS) });

export const CompanyInfo = z.object({
  organizationCode: z.string(),
  name: z.string(),
  abbreviation: z.string().nullable(),
  type: z.number(),
  region: z.string(),
  status: z.number(),
  hasLogo: z.boolean(),
  hasLicenseImage: z.boolean(),
  licenseCode: z.string().nullable(),
  representativeName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  countryId: z.string().nullable(),
  country: z.string().nullable(),
  stateId: z.string().nullable(),
  state: z.string().nullable(),
  cityId: z.string().nullable(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  postalCode: z.string().nullable(),
  address: z.string().nullable(),
  /** Days a closed organization is kept (restorable) before it is purged. */
  retentionDays: z.number(),
  /** The tooth numbering new users get; null: the one read where the organization works. */
  defaultToothNumbering: z.enum(TOOTH_NUMBERING_SYSTEMS).nullable(),
  /** A clinic's: days after an order's completion its laboratory may still download the patient's scans. */
  scanRetentionDays: z.number(),
});
export type CompanyInfo = z.infer<typeof CompanyInfo>;

const optionalText = (max: number) => zText(max).optional();

/**
 * `company/editCompany`. The address is picked from the areas: a state must lie in the country and a city in the
 * state. Where the areas hold no cities (most of Europe) the city is typed (`city`); a picked `cityId` wins.
 */
export const EditCompanyBody = z.object({
  name: zRequiredText(FIELD_MAX.organizationName),
  abbreviation: optionalText(FIELD_MAX.abbreviation),
  licenseCode: optionalText(FIELD_MAX.code),
  representativeName: optionalText(FIELD_MAX.name),
  phone: z.union([z.literal(''), zPhone]).optional(),
  email: z.union([z.literal(''), zEmail]).optional(),
  countryId: zAreaId,
  stateId: z.union([z.literal(''), zAreaId]).optional(),
  cityId: z.union([z.literal(''), zAreaId]).optional(),
  city: optionalText(FIELD_MAX.name),
  district: optionalText(FIELD_MAX.name),
  postalCode: zText(20)
    .regex(/^[A-Za-z0-9 -]*$/, { message: 'postalCode' })
    .optional(),
  address: optionalText(FIELD_MAX.address),
  /** The tooth numbering new users get; '' follows where the organization works; absent leaves it as it is. */
  defaultToothNumbering: z.union([z.literal(''), z.enum(TOOTH_NUMBERING_SYSTEMS)]).optional(),
});
export type EditCompanyBody = z.infer<typeof EditCompanyBody>;

/** Days a laboratory keeps the scans of a completed order (the clinic sets them): the default and the bounds. */
export const SCAN_RETENTION_DAYS = { default: 90, min: 7, max: 3650 } as const;
/** `company/editScanRetention`: the clinic's retention of its scans at its laboratories. */
export const EditScanRetentionBody = z.object({
  scanRetentionDays: z.number().int().min(SCAN_RETENTION_DAYS.min).max(SCAN_RETENTION_DAYS.max),
});
export type EditScanRetentionBody = z.infer<typeof EditScanRetentionBody>;

/** `company/close_account`: the organization's name typed again, as a confirmation. */
export const CloseAccountBody = z.object({ confirmName: zRequiredText(FIELD_MAX.organizationName) });
export const ClosedAccount = z.object({ closedAt: z.string(), purgeAfter: z.string() });
/** The data of ORGANIZATION_HAS_OPEN_ORDERS: the orders that keep the organization from closing. */
export const OpenOrder = z.object({ orderCode: z.string(), status: z.string(), partner: z.string() });
export type OpenOrder = z.infer<typeof OpenOrder>;

export const RestoreOrganizationBody = z.object({ organizationCode: zRequiredText(FIELD_MAX.code) });
/** `company/detail`: any organization's information, for the super administrator. */
export const OrganizationDetailQuery = z.object({ organizationCode: zRequiredText(FIELD_MAX.code) });
/** `company/detailImage`: any organization's logo or licence image, for the super administrator. */
export const OrganizationImageQuery = CompanyImageQuery.extend({ organizationCode: zRequiredText(FIELD_MAX.code) });
