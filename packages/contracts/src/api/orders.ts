import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { ORDER_STATUSES, SORT_ORDERS, TOOTH_NUMBERING_SYSTEMS, TREATMENTS, type CaseStatus } from '../enums.js';
import { zBool, zDate, zIntIn, zPage, zRequiredText, zText } from './fields.js';
import { CaseFile } from './cases.js';
import { REMAKE_REASONS } from './scorecards.js';
import { STUMP_SHADES, TOOTH_SHADES, TOOTH_STAGES, TOOTH_UNITS } from './teeth.js';

export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_ACTIONS = ['accept', 'startProcessing', 'ready', 'ship', 'reject', 'cancel', 'complete'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** The permission (a button of the Orders menu) each action needs; roles give them one by one. */
export const ORDER_ACTION_PERMISSION: Record<OrderAction, string> = {
  accept: 'order:accept',
  startProcessing: 'order:produce',
  ready: 'order:produce',
  ship: 'order:ship',
  reject: 'order:reject',
  cancel: 'order:cancel',
  complete: 'order:complete',
};
export const OrderPermission = { Create: 'order:create', Export: 'order:export', Settings: 'order:edit' } as const;

/**
 * The order state machine (§4). The laboratory accepts, starts processing (the order stays accepted,
 * marked as in production), marks it ready and ships it; it may reject a pending order. The clinic
 * cancels while the laboratory has not accepted, and completes a shipped order.
 */
export const ORDER_TRANSITIONS: Record<
  OrderAction,
  { from: readonly OrderStatus[]; to: OrderStatus; by: 'clinic' | 'lab' }
> = {
  accept: { from: ['pending'], to: 'accepted', by: 'lab' },
  startProcessing: { from: ['accepted'], to: 'accepted', by: 'lab' },
  ready: { from: ['accepted'], to: 'ready', by: 'lab' },
  ship: { from: ['ready'], to: 'shipped', by: 'lab' },
  reject: { from: ['pending'], to: 'rejected', by: 'lab' },
  cancel: { from: ['pending'], to: 'canceled', by: 'clinic' },
  complete: { from: ['shipped'], to: 'completed', by: 'clinic' },
};
export function canOrder(action: OrderAction, from: OrderStatus, side: 'clinic' | 'lab', processing: boolean): boolean {
  const t = ORDER_TRANSITIONS[action];
  if (t.by !== side || !t.from.includes(from)) return false;
  if (action === 'startProcessing') return !processing;
  return true;
}
/** The case follows its order: a case's status for each status of the order it follows (the orders service picks which). */
export const CASE_STATUS_BY_ORDER: Record<OrderStatus, CaseStatus> = {
  pending: 'sent',
  accepted: 'accepted',
  ready: 'ready',
  shipped: 'shipped',
  completed: 'completed',
  canceled: 'notSent',
  rejected: 'rejected',
};
/**
 * Which of its orders a case follows: the highest rank, then the newest. Running orders first (the work at a
 * laboratory now), then settled ones (completed, rejected), then canceled ones (withdrawn before a laboratory took
 * them). Migration 0018 ranks the same way.
 */
export const CASE_FOLLOWS_RANK: Record<OrderStatus, number> = {
  pending: 2,
  accepted: 2,
  ready: 2,
  shipped: 2,
  completed: 1,
  rejected: 1,
  canceled: 0,
};

export const CROWN_METHODS = ['stockAbutment', 'customAbutment', 'screwRetained'] as const;

export const ToothItem = z.object({
  /** FDI number (11–48); the page shows it in the user's numbering system. */
  number: zIntIn(11, 48).refine((n) => n % 10 >= 1 && n % 10 <= 8, { message: 'tooth' }),
  /** A shade of the VITA guides when prescribed now; orders made before may hold free text, shown as it is. */
  shade: zText(20).optional(),
  /** The prepared tooth's colour (ND1–ND9). */
  stumpShade: zText(20).optional(),
  crownCategory: zText(40).optional(),
  crownType: zText(40).optional(),
  material: zText(60).optional(),
  method: z.enum(CROWN_METHODS).optional(),
  /** Single tooth (the default), or an abutment or pontic of the bridge numbered `bridgeGroup`. */
  unit: z.enum(TOOTH_UNITS).optional(),
  bridgeGroup: zIntIn(1, 16).optional(),
  /** The tooth is missing (a pontic or an implant takes its place, or it is marked for the laboratory's model). */
  missing: zBool.optional(),
  implant: zBool.optional(),
  inlayCore: zBool.optional(),
  edentulous: zBool.optional(),
  preOpScan: zBool.optional(),
  /** Set by the laboratory while it produces the order (order/toothStage); never part of a prescription. */
  stage: z.enum(TOOTH_STAGES).optional(),
});
export type ToothItem = z.infer<typeof ToothItem>;
/** A tooth item as a clinic prescribes it now: shades from the guides. */
export const PrescribedToothItem = ToothItem.omit({ stage: true }).extend({
  shade: z.enum(TOOTH_SHADES).optional(),
  stumpShade: z.enum(STUMP_SHADES).optional(),
});
/**
 * The teeth of a new order, each item checked alone; the bridges as a whole (prescriptionIssues) are the service's
 * check, as the document cannot describe them.
 */
export const PrescribedTeeth = z.array(PrescribedToothItem).max(32);

/** The laboratory's progress on some teeth of an order in production. */
export const ToothStageBody = z.object({
  orderCode: zRequiredText(FIELD_MAX.code),
  /** FDI numbers of the order's teeth (a bridge's units usually move together). */
  teeth: z.array(zIntIn(11, 48)).min(1).max(32),
  stage: z.enum(TOOTH_STAGES),
});

export const CreateOrderBody = z.object({
  caseCodes: z.array(zRequiredText(FIELD_MAX.code)).min(1).max(100),
  partnerCode: zRequiredText(FIELD_MAX.code),
  orderType: zRequiredText(40),
  workTypes: z.array(z.enum(TREATMENTS)).min(1).max(TREATMENTS.length),
  teeth: PrescribedTeeth.default([]),
  requestedDeliveryDate: zDate.optional(),
  memo: zText(2000).optional(),
  sharePatientName: zBool.default(true),
  /** A product of the laboratory's catalogue: its turnaround sets the estimated delivery date, its materials bound the teeth's. */
  productCode: zText(FIELD_MAX.code).optional(),
});
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

export const OrderActionBody = z.object({
  orderCodes: z.array(zRequiredText(FIELD_MAX.code)).min(1).max(1000),
  action: z.enum(ORDER_ACTIONS),
  reason: zText(FIELD_MAX.reason).optional(),
  trackingNumber: zText(80).optional(),
  shipDate: zDate.optional(),
  estimatedDeliveryDate: zDate.optional(),
});
export type OrderActionBody = z.infer<typeof OrderActionBody>;
export const OrderActionResult = z.object({
  results: z.array(z.object({ orderCode: z.string(), ok: z.boolean(), code: z.number(), msg: z.string() })),
});

export const OrderListQuery = z.object({
  ...zPage,
  status: z.enum(ORDER_STATUSES).optional(),
  orderType: zText(40).optional(),
  partnerCode: zText(FIELD_MAX.code).optional(),
  dateFrom: zDate.optional(),
  dateTo: zDate.optional(),
  /** Only the orders late on this day (the reader's today): still owed and past the earlier of their due dates. */
  lateOn: zDate.optional(),
  sortOrder: z.enum(SORT_ORDERS).default('desc'),
});
export const OrderSummary = z.object({
  orderCode: z.string(),
  orderType: z.string(),
  status: z.enum(ORDER_STATUSES),
  processing: z.boolean(),
  caseCode: z.string(),
  caseName: z.string(),
  /** Null for the laboratory when the clinic does not share the patient's name. */
  patientName: z.string().nullable(),
  clinic: z.object({ code: z.string(), name: z.string() }),
  lab: z.object({ code: z.string(), name: z.string() }),
  workTypes: z.array(z.enum(TREATMENTS)),
  requestedDeliveryDate: z.string().nullable(),
  shipDate: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  estimatedDeliveryDate: z.string().nullable(),
  /** The catalogue product ordered, if the clinic chose one. */
  product: z.object({ productCode: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrderSummary = z.infer<typeof OrderSummary>;
export type ToothStageBody = z.infer<typeof ToothStageBody>;
export const OrderEvent = z.object({
  action: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  reason: z.string().nullable(),
  actorName: z.string(),
  actorOrganization: z.string(),
  at: z.string(),
  /** The other order of a remake: the remake on the original's event, the original on the remake's creation. */
  linkedOrderCode: z.string().nullable(),
});
/** A file attached to an order by either side (photos, notes, pdf); the case's scans are in `files`. */
export const OrderAttachment = z.object({
  code: z.string(),
  name: z.string(),
  format: z.string(),
  size: z.number(),
  organizationName: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type OrderAttachment = z.infer<typeof OrderAttachment>;
export const OrderDetail = OrderSummary.extend({
  teeth: z.array(ToothItem),
  memo: z.string().nullable(),
  sharePatientName: z.boolean(),
  events: z.array(OrderEvent),
  /**
   * The case's files: the laboratory reads them through the order once it accepted it, until the clinic's retention
   * after completion ends (empty otherwise, `scansWithheld` then true).
   */
  files: z.array(CaseFile),
  scansWithheld: z.boolean(),
  /** Whether the thread takes new messages: not once the order was canceled or the partnership ended. */
  threadOpen: z.boolean(),
  attachments: z.array(OrderAttachment),
  unreadMessages: z.number(),
  /** The order this one remakes, why, and the clinic's note. */
  remakeOf: z.object({ orderCode: z.string(), reason: z.enum(REMAKE_REASONS), note: z.string().nullable() }).nullable(),
  /** The remakes asked for this order, oldest first. */
  remakes: z.array(z.object({ orderCode: z.string(), reason: z.enum(REMAKE_REASONS), status: z.enum(ORDER_STATUSES) })),
});
export type OrderDetail = z.infer<typeof OrderDetail>;
export const OrderListResult = z.object({ total: z.number(), list: z.array(OrderSummary) });
/** The other side of the caller's own orders, one per partnership (the order list's partner filter). */
export const OrderParty = z.object({ partnerCode: z.string(), name: z.string() });
export type OrderParty = z.infer<typeof OrderParty>;
export const OrderPartiesResult = z.object({ list: z.array(OrderParty) });
/** The laboratories a clinic can send to now: its accepted partnerships (the send dialog's choice). */
export const OrderLabsResult = z.object({ list: z.array(OrderParty) });
export const OrderCodeBody = z.object({ orderCode: zRequiredText(FIELD_MAX.code) });

export const ORDER_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const OrderExportBody = OrderListQuery.omit({ pageNum: true, pageSize: true }).extend({
  format: z.enum(ORDER_EXPORT_FORMATS).default('xlsx'),
});
export const OrderAttachmentBody = z.object({ attachmentCode: zRequiredText(FIELD_MAX.code) });
export const AttachmentLink = z.object({ url: z.string(), expiresAt: z.string() });

/** Prescription fields a laboratory may require per work type (§3 tooth item). */
export const PRESCRIPTION_FIELDS = ['shade', 'crownCategory', 'crownType', 'material', 'method'] as const;
export type PrescriptionField = (typeof PRESCRIPTION_FIELDS)[number];
export const RequiredFieldRule = z.object({
  workType: z.enum(TREATMENTS),
  fields: z.array(z.enum(PRESCRIPTION_FIELDS)).min(1).max(PRESCRIPTION_FIELDS.length),
});
export type RequiredFieldRule = z.infer<typeof RequiredFieldRule>;
export const SaveRequiredFieldsBody = z.object({ rules: z.array(RequiredFieldRule).max(TREATMENTS.length) });
/** A laboratory reads its own rules; a clinic names the partnership to read its laboratory's. */
export const RequiredFieldsQuery = z.object({ partnerCode: zText(FIELD_MAX.code).optional() });
export const RequiredFieldsResult = z.object({ labName: z.string(), rules: z.array(RequiredFieldRule) });

/**
 * What an order lacks under a laboratory's rules: for each required work type, the fields some tooth item
 * leaves empty ('teeth' when there is no tooth item at all). Empty when the order may be sent.
 */
export function missingPrescriptionFields(
  rules: readonly RequiredFieldRule[],
  order: {
    workTypes: readonly string[];
    teeth: readonly (Partial<Record<PrescriptionField, unknown>> & {
      missing?: boolean;
      unit?: string;
      implant?: boolean;
    })[];
  },
): { workType: string; fields: (PrescriptionField | 'teeth')[] }[] {
  const missing: { workType: string; fields: (PrescriptionField | 'teeth')[] }[] = [];
  for (const rule of rules) {
    if (!order.workTypes.includes(rule.workType)) continue;
    const fields: (PrescriptionField | 'teeth')[] =
      order.teeth.length === 0
        ? ['teeth']
        : rule.fields.filter((f) =>
            order.teeth.some((tooth) => {
              // A tooth only marked missing (no pontic, no implant in its place) is told to the laboratory, not made.
              if (tooth.missing === true && tooth.unit !== 'pontic' && tooth.implant !== true) return false;
              const value: unknown = tooth[f];
              return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
            }),
          );
    if (fields.length) missing.push({ workType: rule.workType, fields });
  }
  return missing;
}

/** FDI (ISO 3950) to the Universal system: 18→1 … 11→8, 21→9 … 28→16, 38→17 … 31→24, 41→25 … 48→32. */
export function fdiToUniversal(fdi: number): number {
  const quadrant = Math.floor(fdi / 10);
  const tooth = fdi % 10;
  switch (quadrant) {
    case 1:
      return 9 - tooth;
    case 2:
      return 8 + tooth;
    case 3:
      return 25 - tooth;
    case 4:
      return 24 + tooth;
    default:
      throw new RangeError(`not an adult FDI tooth: ${fdi}`);
  }
}
export function toothLabel(fdi: number, system: (typeof TOOTH_NUMBERING_SYSTEMS)[number]): string {
  return system === 'universal' ? String(fdiToUniversal(fdi)) : String(fdi);
}
