import {
  REMAKE_REASONS,
  SCORECARD_TREND_WEEKS,
  SCORECARD_WINDOWS,
  type RemakeReason,
  type Scorecard,
} from '@portal/contracts';

/** Counts per scorecard window, in the order of SCORECARD_WINDOWS (30, 90, 365 days). */
export type WindowCounts = readonly [number, number, number];

/** What the aggregate tables hold for one laboratory, summed per window or per week. */
export interface ScorecardTallies {
  /** Shipments by whole days from creation to the ship event. */
  turnaround: { days: number; shipped: WindowCounts; dueCounted: WindowCounts; onTime: WindowCounts }[];
  remakes: { reason: RemakeReason; count: WindowCounts }[];
  /** Weeks that had shipments or remakes, by their Monday (YYYY-MM-DD); weeks without either are left out. */
  weeks: { weekStart: string; shipped: number; dueCounted: number; onTime: number; remakes: number }[];
}

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * The median of values given as (value, how many times): the middle value, or the mean of the two middle ones for an
 * even count; null for none.
 */
export function medianOfCounts(counts: readonly { value: number; count: number }[]): number | null {
  const sorted = counts.filter((c) => c.count > 0).sort((a, b) => a.value - b.value);
  const n = sorted.reduce((s, c) => s + c.count, 0);
  if (n === 0) return null;
  // The values at 1-based positions lo and hi (equal for an odd count).
  const lo = Math.floor((n + 1) / 2);
  const hi = Math.floor(n / 2) + 1;
  let seen = 0;
  let atLo: number | null = null;
  for (const c of sorted) {
    seen += c.count;
    if (atLo === null && seen >= lo) atLo = c.value;
    if (seen >= hi) return (atLo! + c.value) / 2;
  }
  return atLo;
}

/** The Monday (UTC) of the week holding `day` (YYYY-MM-DD). */
export function mondayOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The first day of the weekly trend: the Monday SCORECARD_TREND_WEEKS - 1 weeks before the current week's. */
export function trendStart(today: string): string {
  const d = new Date(`${mondayOf(today)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 7 * (SCORECARD_TREND_WEEKS - 1));
  return d.toISOString().slice(0, 10);
}

/**
 * A laboratory's scorecard from its tallies: per window the on-time rate (shipped by the due date, among shipments that
 * had one), the remake rate in all and by reason (remakes asked for in the window per order shipped in it) and the
 * median turnaround; per week of the trend the same rates, empty weeks included.
 */
export function scorecardFigures(t: ScorecardTallies, today: string): Omit<Scorecard, 'lab' | 'asOf'> {
  const windows = SCORECARD_WINDOWS.map((days, w) => {
    const shipped = t.turnaround.reduce((s, r) => s + r.shipped[w]!, 0);
    const dueCounted = t.turnaround.reduce((s, r) => s + r.dueCounted[w]!, 0);
    const onTime = t.turnaround.reduce((s, r) => s + r.onTime[w]!, 0);
    const byReason = REMAKE_REASONS.map((reason) => {
      const count = t.remakes.filter((r) => r.reason === reason).reduce((s, r) => s + r.count[w]!, 0);
      return { reason, count, rate: rate(count, shipped) };
    });
    const remakes = byReason.reduce((s, r) => s + r.count, 0);
    return {
      days,
      shipped,
      dueCounted,
      onTime,
      onTimeRate: rate(onTime, dueCounted),
      remakes,
      remakeRate: rate(remakes, shipped),
      remakesByReason: byReason,
      medianTurnaroundDays: medianOfCounts(t.turnaround.map((r) => ({ value: r.days, count: r.shipped[w]! }))),
    };
  });
  const byWeek = new Map(t.weeks.map((wk) => [wk.weekStart, wk]));
  const start = new Date(`${trendStart(today)}T00:00:00Z`);
  const weeks = Array.from({ length: SCORECARD_TREND_WEEKS }, (_, i) => {
    const d = new Date(start);
    d.setUTCDate(d.getUTCDate() + 7 * i);
    const weekStart = d.toISOString().slice(0, 10);
    const wk = byWeek.get(weekStart);
    return {
      weekStart,
      shipped: wk?.shipped ?? 0,
      onTimeRate: wk ? rate(wk.onTime, wk.dueCounted) : null,
      remakeRate: wk ? rate(wk.remakes, wk.shipped) : null,
    };
  });
  return { windows, weeks };
}
