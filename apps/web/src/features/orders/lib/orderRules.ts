import { canOrder, ERRORS, ORDER_ACTIONS, ORDER_TRANSITIONS, OrgType } from '@portal/contracts';
import type { OrderAction, OrderActionResults, OrderStatus, OrderSummary } from '../api/types';

export type Side = 'clinic' | 'lab';

/** The order types the send dialog offers (free text on the server; labels are translated). */
export const ORDER_TYPES = ['restoration', 'implant', 'orthodontic', 'denture', 'other'] as const;

/**
 * The order type a case's treatments point to: implant work, then orthodontics, then dentures; restorations
 * (crowns, bridges, inlays, veneers) otherwise, the everyday case.
 */
export function defaultOrderType(treatments: readonly string[]): (typeof ORDER_TYPES)[number] {
  const has = (...names: string[]) => treatments.some((t) => names.includes(t));
  if (has('ImplantUpper', 'ImplantLower', 'ImplantFullJaw', 'SurgicalGuide')) return 'implant';
  if (has('ClearAligner', 'DentalBraces', 'Retainer')) return 'orthodontic';
  if (has('PartialDenture', 'FullDenture')) return 'denture';
  return 'restoration';
}

/** Orders exist between clinics and laboratories only; any other organization has no side. */
export function sideOf(orgType: number | null | undefined): Side | null {
  if (orgType === OrgType.Clinic) return 'clinic';
  if (orgType === OrgType.Lab) return 'lab';
  return null;
}

/** The actions of one side, in the order of the workflow (lab: accept → … → ship, reject; clinic: cancel, complete). */
export function sideActions(side: Side): OrderAction[] {
  return ORDER_ACTIONS.filter((a) => ORDER_TRANSITIONS[a].by === side);
}

type Actionable = Pick<OrderSummary, 'status' | 'processing'>;

/** What this side may do with one order now. */
export function allowedActions(order: Actionable, side: Side): OrderAction[] {
  return sideActions(side).filter((a) => canOrder(a, order.status, side, order.processing));
}

/** The actions allowed for every one of the selected orders; none for an empty selection. */
export function commonActions(orders: readonly Actionable[], side: Side): OrderAction[] {
  if (orders.length === 0) return [];
  return sideActions(side).filter((a) => orders.every((o) => canOrder(a, o.status, side, o.processing)));
}

/** The orders an action did not apply to, with the server's reason. */
export function failedResults(res: OrderActionResults): OrderActionResults['results'] {
  return res.results.filter((r) => !r.ok);
}

/** Whether some order was refused because its status had changed since the screen showed it (2035). */
export function changedMeanwhile(failures: readonly Pick<OrderActionResults['results'][number], 'code'>[]): boolean {
  return failures.some((f) => f.code === ERRORS.ORDER_TRANSITION.code);
}

/**
 * The selected orders as the list shows them now: a selection keeps the rows it was made from, so each is replaced
 * by its current row when the page holds it (the batch buttons then follow the current statuses).
 */
export function currentSelection<T extends { orderCode: string }>(selected: readonly T[], rows: readonly T[]): T[] {
  const now = new Map(rows.map((r) => [r.orderCode, r]));
  return selected.map((o) => now.get(o.orderCode) ?? o);
}

/** antd Tag colours: waiting (gold), in the lab's hands (blue/cyan), on its way (purple), done (green), stopped (grey/red). */
export const STATUS_COLORS: Record<OrderStatus, string> = {
  pending: 'gold',
  accepted: 'blue',
  ready: 'cyan',
  shipped: 'purple',
  completed: 'green',
  canceled: 'default',
  rejected: 'red',
};
