import { PartnerStatus, type OrderStatus } from '@portal/contracts';

/** The statuses in which the laboratory makes the work: it has the patient's scans throughout. */
const IN_PRODUCTION: readonly OrderStatus[] = ['accepted', 'ready', 'shipped'];
const DAY_MS = 86_400_000;

/** What the rule reads of an order: its status, when it was completed, and the clinic's retention in days. */
export interface LabScanTerms {
  status: OrderStatus;
  completed_at: Date | string | null;
  clinic_scan_retention_days: number;
}

/**
 * The one rule for when a laboratory may get the patient's scans through an order: only once it accepted the
 * order; during production; after completion for as many days as the clinic keeps them open. An order canceled or
 * rejected before acceptance (a partnership that ended cancels its pending orders) never gives them.
 */
export function labHasScans(o: LabScanTerms, now = Date.now()): boolean {
  if (IN_PRODUCTION.includes(o.status)) return true;
  if (o.status !== 'completed' || !o.completed_at) return false;
  return new Date(o.completed_at).getTime() + Number(o.clinic_scan_retention_days) * DAY_MS > now;
}

/** An order's thread takes no new messages once the order was canceled or its partnership ended. */
export function threadIsOpen(o: { status: OrderStatus; partnership_status: number | null }): boolean {
  return o.status !== 'canceled' && Number(o.partnership_status) === PartnerStatus.Accepted;
}
