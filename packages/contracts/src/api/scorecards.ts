import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import type { OrderStatus } from './orders.js';
import { zRequiredText, zText } from './fields.js';

/** Why a clinic asks for a remake (§ remakes), in the order a dentist reaches for them. */
export const REMAKE_REASONS = ['fit', 'shade', 'contacts', 'occlusion', 'breakage', 'other'] as const;
export type RemakeReason = (typeof REMAKE_REASONS)[number];

/**
 * The remake transition, beside ORDER_TRANSITIONS: the clinic asks for a remake of an order the laboratory has shipped
 * (or the clinic has completed); the original keeps its status and a new order starts pending at the same laboratory.
 */
export const REMAKE_TRANSITION = {
  from: ['shipped', 'completed'] as readonly OrderStatus[],
  to: 'pending' as OrderStatus,
  by: 'clinic' as const,
};
/** Remakes that still count: a remake canceled before the laboratory took it was withdrawn. */
export const REMAKE_WITHDRAWN: readonly OrderStatus[] = ['canceled'];
/** An order has at most one remake under way or done; another may be asked once it was canceled or rejected. */
export const REMAKE_SETTLED_AGAIN: readonly OrderStatus[] = ['canceled', 'rejected'];

export function canRemake(status: OrderStatus, side: 'clinic' | 'lab'): boolean {
  return side === REMAKE_TRANSITION.by && REMAKE_TRANSITION.from.includes(status);
}

export const RemakeOrderBody = z.object({
  orderCode: zRequiredText(FIELD_MAX.code),
  reason: z.enum(REMAKE_REASONS),
  note: zText(2000).optional(),
});
export type RemakeOrderBody = z.infer<typeof RemakeOrderBody>;

/** The windows of a scorecard, in days ending today (UTC). */
export const SCORECARD_WINDOWS = [30, 90, 365] as const;
/** Weeks of the laboratory's own trend, the current one last. */
export const SCORECARD_TREND_WEEKS = 12;

/** A laboratory names no one (its own card); a clinic names the partnership of the laboratory it looks at. */
export const ScorecardBody = z.object({ partnerCode: zText(FIELD_MAX.code).optional() });

export const ScorecardWindow = z.object({
  days: z.number(),
  /** Orders shipped in the window (the ship event's day). */
  shipped: z.number(),
  /** Shipped orders that had a due date (estimated, else requested) and count for the on-time rate. */
  dueCounted: z.number(),
  onTime: z.number(),
  /** onTime / dueCounted; null without such orders. */
  onTimeRate: z.number().nullable(),
  /** Remakes asked for in the window (withdrawn ones left out). */
  remakes: z.number(),
  /** remakes / shipped; null when nothing shipped. */
  remakeRate: z.number().nullable(),
  remakesByReason: z.array(
    z.object({ reason: z.enum(REMAKE_REASONS), count: z.number(), rate: z.number().nullable() }),
  ),
  /** Median of whole days from an order's creation to its ship event; null when nothing shipped. */
  medianTurnaroundDays: z.number().nullable(),
});
export type ScorecardWindow = z.infer<typeof ScorecardWindow>;
export const ScorecardWeek = z.object({
  /** The Monday the week starts on (UTC). */
  weekStart: z.string(),
  shipped: z.number(),
  onTimeRate: z.number().nullable(),
  remakeRate: z.number().nullable(),
});
export type ScorecardWeek = z.infer<typeof ScorecardWeek>;
export const Scorecard = z.object({
  lab: z.object({ code: z.string(), name: z.string() }),
  /** The day the windows end on (UTC). */
  asOf: z.string(),
  windows: z.array(ScorecardWindow),
  weeks: z.array(ScorecardWeek),
});
export type Scorecard = z.infer<typeof Scorecard>;
