import { z } from 'zod';
import { CASE_NAME_MAX, FIELD_MAX } from '../constants.js';
import {
  CASE_STATUSES,
  FILE_FORMATS,
  FILE_KINDS,
  JAWS,
  MODEL_UNITS,
  SORT_ORDERS,
  TREATMENTS,
  UPLOAD_TAGS,
  VIEWER_STATUSES,
} from '../enums.js';
import { zDate, zDateTime, zIntIn, zPage, zRequiredText, zText } from './fields.js';

const zCodes = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(zRequiredText(FIELD_MAX.code)).min(1).max(500),
);
const zTreatments = z.preprocess(
  (v) => (typeof v === 'string' ? (v ? v.split(',').map((s) => s.trim()) : []) : v),
  z.array(z.enum(TREATMENTS)).max(TREATMENTS.length),
);

export const CaseFields = {
  name: zRequiredText(CASE_NAME_MAX),
  patientName: zRequiredText(FIELD_MAX.name),
  patientId: zText(FIELD_MAX.code).optional(),
  birthDate: zDate.optional().or(z.literal('')),
  scanDate: zDateTime.optional().or(z.literal('')),
  dentistId: zIntIn(1, Number.MAX_SAFE_INTEGER).optional().or(z.literal('')),
  treatments: zTreatments.default([]),
  memo: zText(2000).optional(),
};
export const CreateCaseBody = z.object(CaseFields);
export type CreateCaseBody = z.infer<typeof CreateCaseBody>;
export const UpdateCaseBody = z.object({ caseCode: zRequiredText(FIELD_MAX.code), ...CaseFields });
export const CaseCodeBody = z.object({ caseCode: zRequiredText(FIELD_MAX.code) });
export const CaseCodesBody = z.object({ caseCodes: zCodes });

export const CASE_SORT_FIELDS = ['scanDate', 'createdAt', 'patientName', 'name'] as const;
export const CaseListQuery = z.object({
  ...zPage,
  sortField: z.enum(CASE_SORT_FIELDS).default('scanDate'),
  sortOrder: z.enum(SORT_ORDERS).default('desc'),
  dateFrom: zDate.optional(),
  dateTo: zDate.optional(),
  status: z.enum(CASE_STATUSES).optional(),
  treatment: z.enum(TREATMENTS).optional(),
  dentistId: zIntIn(1, Number.MAX_SAFE_INTEGER).optional(),
  keyword: zText(FIELD_MAX.name).optional(),
});
export type CaseListQuery = z.infer<typeof CaseListQuery>;

export const CaseFile = z.object({
  fileCode: z.string(),
  name: z.string(),
  format: z.enum(FILE_FORMATS),
  kind: z.enum(FILE_KINDS),
  jaw: z.enum(JAWS).nullable(),
  size: z.number(),
  uploadTag: z.enum(UPLOAD_TAGS),
  viewerStatus: z.enum(VIEWER_STATUSES),
  /** Models: the unit the file was found in once prepared (the viewer version is in millimetres); else null. */
  unit: z.enum(MODEL_UNITS).nullable(),
  createdAt: z.string(),
});
export type CaseFile = z.infer<typeof CaseFile>;

export const CaseSummary = z.object({
  caseCode: z.string(),
  name: z.string(),
  patientName: z.string(),
  patientId: z.string().nullable(),
  birthDate: z.string().nullable(),
  /** Whole years from the birth date. */
  age: z.number().nullable(),
  scanDate: z.string().nullable(),
  dentist: z.object({ id: z.number(), name: z.string() }).nullable(),
  treatments: z.array(z.enum(TREATMENTS)),
  status: z.enum(CASE_STATUSES),
  fileCount: z.number(),
  size: z.number(),
  deviceSerial: z.string().nullable(),
  createdAt: z.string(),
  deletedAt: z.string().nullable(),
  /** Under a legal hold: neither erased nor deleted for good (its reason is on the case's page). */
  held: z.boolean(),
});
export type CaseSummary = z.infer<typeof CaseSummary>;
export const CaseDetail = CaseSummary.extend({
  memo: z.string().nullable(),
  /** Set while the law requires keeping the case: it cannot be erased or purged (docs/product-decisions.md). */
  legalHold: z.object({ reason: z.string(), heldAt: z.string() }).nullable(),
  files: z.array(CaseFile),
});
export type CaseDetail = z.infer<typeof CaseDetail>;
export const CaseListResult = z.object({ total: z.number(), list: z.array(CaseSummary) });

export const FileCodeBody = z.object({ fileCode: zRequiredText(FIELD_MAX.code) });
/** A short-lived grant to download a file directly (signed URL). */
export const DownloadGrant = z.object({
  url: z.string(),
  /** The compact viewer version of a model; answers 2007 while it is being prepared. */
  viewerUrl: z.string().nullable(),
  expiresAt: z.string(),
});

export const Dentist = z.object({ id: z.number(), name: z.string(), caseCount: z.number() });
export const DentistListResult = z.object({ list: z.array(Dentist) });
// The name's emptiness is the service's to answer, with the message of §5.
export const SaveDentistBody = z.object({
  id: zIntIn(1, Number.MAX_SAFE_INTEGER).optional(),
  name: zText(FIELD_MAX.name),
});
export type SaveDentistBody = z.infer<typeof SaveDentistBody>;
export const DeleteDentistBody = z.object({ id: zIntIn(1, Number.MAX_SAFE_INTEGER) });

export const StorageUsage = z.object({
  usedBytes: z.number(),
  quotaBytes: z.number(),
  recycleBinBytes: z.number(),
  byKind: z.array(z.object({ kind: z.enum(FILE_KINDS), bytes: z.number(), count: z.number() })),
  largestCases: z.array(
    z.object({ caseCode: z.string(), name: z.string(), patientName: z.string(), size: z.number() }),
  ),
  largestFiles: z.array(z.object({ fileCode: z.string(), caseCode: z.string(), name: z.string(), size: z.number() })),
});

export const ExportBody = z.object({
  caseCodes: zCodes,
  types: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z.array(z.enum(FILE_FORMATS)).min(1),
  ),
});
export const ExportInfo = z.object({
  exportCode: z.string(),
  status: z.number(),
  /** 0 to 100 while packing. */
  progress: z.number(),
  size: z.number().nullable(),
  /** A signed, expiring link to the zip once packed. */
  downloadUrl: z.string().nullable(),
  createdAt: z.string(),
});
export const ExportCodeBody = z.object({ exportCode: zRequiredText(FIELD_MAX.code) });
export const RecycleBinQuery = z.object({ ...zPage });

export const DEVICE_STATUSES = [
  'Activated',
  'DataTransferring',
  'DataTransferred',
  'InActiveted',
  'Disabled',
  'Canceled',
] as const;
export const Device = z.object({
  serialNumber: z.string(),
  model: z.string(),
  name: z.string().nullable(),
  status: z.enum(DEVICE_STATUSES),
  localSave: z.boolean(),
  cloudSave: z.boolean(),
  limitType: z.number(),
  warrantyDate: z.string().nullable(),
  batteryHealth: z.number().nullable(),
  lastSeenAt: z.string().nullable(),
  clinicName: z.string().nullable(),
  dealerName: z.string().nullable(),
});
/** A warranty "ends soon" when its date is today or within this many days (the dashboard's figure, the list's filter). */
export const DEVICE_WARRANTY_ENDING_DAYS = 90;
/** Battery health below this percentage is worn (the dashboard's figure, the list's filter). */
export const DEVICE_LOW_BATTERY_PERCENT = 80;
/**
 * The scanner list, searched and filtered as the dealer's and OEM's dashboard figures count (each figure opens the
 * list with its filter). "This month" starts on the first of the month in the caller's timezone.
 */
export const DeviceListQuery = z.object({
  ...zPage,
  keyword: zText(FIELD_MAX.code).optional(),
  status: z.enum(DEVICE_STATUSES).optional(),
  limitType: zIntIn(1, 3).optional(),
  warrantyEnding: z.boolean().optional(),
  lowBattery: z.boolean().optional(),
  activatedThisMonth: z.boolean().optional(),
  addedThisMonth: z.boolean().optional(),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuery>;
export const DeviceListResult = z.object({ total: z.number(), list: z.array(Device) });
/** Limit type 1: the laboratories a device's clinic designates; limit type 2: those its OEM certifies. */
export const LabRef = z.object({ code: z.string(), name: z.string() });
export const LabRefList = z.object({ list: z.array(LabRef) });
export const DeviceSerialBody = z.object({ serialNumber: zRequiredText(FIELD_MAX.code) });
export const SaveDesignatedLabsBody = z.object({
  serialNumber: zRequiredText(FIELD_MAX.code),
  labCodes: z.array(zRequiredText(FIELD_MAX.code)).max(100),
});
export const SaveCertifiedLabsBody = z.object({ labCodes: z.array(zRequiredText(FIELD_MAX.code)).max(1000) });
export const EditDeviceNameBody = z.object({
  serialNumber: zRequiredText(FIELD_MAX.code),
  name: zRequiredText(FIELD_MAX.name),
});
export const ActivateDeviceBody = z.object({
  serialNumber: zRequiredText(FIELD_MAX.code),
  activationCode: zRequiredText(FIELD_MAX.code),
});
export const CatalogImportResult = z.object({
  imported: z.number(),
  errors: z.array(z.object({ row: z.number(), reason: z.string() })),
});

type DeviceStatus = (typeof DEVICE_STATUSES)[number];
/**
 * Scanner statuses (§4) and the moves between them: imported scanners wait inactivated; a clinic's
 * activation binds them; transfers cycle while they upload; an OEM or super administrator may
 * disable and re-enable them; cancelling retires a scanner for good.
 */
export const DEVICE_TRANSITIONS: Record<DeviceStatus, readonly DeviceStatus[]> = {
  InActiveted: ['Activated', 'Disabled', 'Canceled'],
  Activated: ['DataTransferring', 'Disabled', 'Canceled'],
  DataTransferring: ['DataTransferred', 'Activated', 'Disabled', 'Canceled'],
  DataTransferred: ['DataTransferring', 'Activated', 'Disabled', 'Canceled'],
  Disabled: ['Activated', 'Canceled'],
  Canceled: [],
};
export function canMoveDevice(from: DeviceStatus, to: DeviceStatus): boolean {
  return DEVICE_TRANSITIONS[from].includes(to);
}

export const DeviceActivateBody = z.object({
  serialNumber: zRequiredText(FIELD_MAX.code),
  activationCode: zRequiredText(FIELD_MAX.code),
});
export const DeviceToken = z.object({ deviceToken: z.string(), clinicName: z.string() });
export const HeartbeatBody = z.object({ batteryHealth: zIntIn(0, 100).optional() });
export const AssignDealerBody = z.object({ serialNumbers: zCodes, dealerCode: zRequiredText(FIELD_MAX.code) });
