/**
 * A laboratory's working calendar and the delivery dates computed from it. Dates are calendar days 'YYYY-MM-DD'
 * (no time, no offset): a laboratory works in days, and the day an order arrives is taken in the laboratory's own
 * timezone (`dateInTimeZone`), so a clinic on another continent gets the same answer as the laboratory.
 */

/** ISO weekdays: 1 Monday … 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** A laboratory that has set no calendar works Monday to Friday in UTC. */
export const DEFAULT_WORKING_WEEKDAYS: readonly Weekday[] = [1, 2, 3, 4, 5];
export const DEFAULT_LAB_TIME_ZONE = 'UTC';
/** The longest turnaround a product may take, in working days. */
export const TURNAROUND_MAX_DAYS = 120;

export interface WorkingCalendar {
  workingWeekdays: readonly number[];
  /** Days the laboratory is closed ('YYYY-MM-DD'), whatever their weekday. */
  closedDates: readonly string[];
}

const DAY_MS = 86_400_000;
const toUtc = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The ISO weekday of a calendar day (1 Monday … 7 Sunday). */
export function isoWeekday(date: string): Weekday {
  return (((new Date(toUtc(date)).getUTCDay() + 6) % 7) + 1) as Weekday;
}

export function isWorkingDay(date: string, calendar: WorkingCalendar): boolean {
  return calendar.workingWeekdays.includes(isoWeekday(date)) && !calendar.closedDates.includes(date);
}

/**
 * The day work received on `start` is due after `days` working days: the `days`-th working day after `start` (the
 * day of arrival does not count, whatever the hour). With 0 days it is `start` itself when the laboratory works
 * that day, else its next working day; an order arriving on a closed day starts counting from the next working day
 * all the same. A calendar without a working weekday has no answer (RangeError).
 */
export function addWorkingDays(start: string, days: number, calendar: WorkingCalendar): string {
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`not a number of days: ${days}`);
  if (!WEEKDAYS.some((d) => calendar.workingWeekdays.includes(d))) throw new RangeError('no working weekday');
  const closed = new Set(calendar.closedDates);
  const works = (ms: number) => {
    const date = fromUtc(ms);
    return calendar.workingWeekdays.includes(isoWeekday(date)) && !closed.has(date);
  };
  let ms = toUtc(start);
  if (days === 0) {
    while (!works(ms)) ms += DAY_MS;
    return fromUtc(ms);
  }
  // Closed dates are finite and some weekday works, so every step of this loop ends.
  for (let left = days; left > 0;) {
    ms += DAY_MS;
    if (works(ms)) left -= 1;
  }
  return fromUtc(ms);
}

/** The calendar day an instant falls on in an IANA timezone. */
export function dateInTimeZone(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Whether the runtime knows an IANA timezone name. */
export function isTimeZone(name: string): boolean {
  // Offsets are refused even where Intl takes them: PostgreSQL reads '+05:30' the POSIX way, as UTC−5:30.
  if (!name || name.length > 64 || /^[+-]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Statuses in which the laboratory still owes the work; shipped and later are no longer late. */
export const OWED_STATUSES: readonly string[] = ['pending', 'accepted', 'ready'];

/**
 * Whether an order is late on `today`: still owed by the laboratory and past its estimated or its requested
 * delivery date (the earlier of those it has). Due on a day means late from the day after.
 */
export function isOrderLate(
  order: { status: string; estimatedDeliveryDate: string | null; requestedDeliveryDate: string | null },
  today: string,
): boolean {
  if (!OWED_STATUSES.includes(order.status)) return false;
  return [order.estimatedDeliveryDate, order.requestedDeliveryDate].some((due) => due !== null && due < today);
}
