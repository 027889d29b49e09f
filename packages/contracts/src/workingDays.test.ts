import { describe, expect, it } from 'vitest';
import { addWorkingDays, dateInTimeZone, isOrderLate, isoWeekday, isTimeZone, isWorkingDay } from './workingDays.js';

const WEEK = { workingWeekdays: [1, 2, 3, 4, 5], closedDates: [] };

describe('isoWeekday', () => {
  it('names Monday 1 and Sunday 7', () => {
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(isoWeekday('2024-02-29')).toBe(4);
  });
});

describe('addWorkingDays', () => {
  it('counts from the day after arrival within a week', () => {
    // Monday + 3 → Thursday
    expect(addWorkingDays('2026-11-23', 3, WEEK)).toBe('2026-11-26');
  });
  it('skips the weekend', () => {
    // Thursday + 3 → Friday, Monday, Tuesday
    expect(addWorkingDays('2026-11-26', 3, WEEK)).toBe('2026-12-01');
    // Friday + 1 → Monday
    expect(addWorkingDays('2026-11-27', 1, WEEK)).toBe('2026-11-30');
  });
  it('skips closed dates, on any weekday', () => {
    const cal = { workingWeekdays: [1, 2, 3, 4, 5], closedDates: ['2026-11-30', '2026-12-01'] };
    // Thursday + 3 → Friday, (Mon, Tue closed) Wednesday, Thursday
    expect(addWorkingDays('2026-11-26', 3, cal)).toBe('2026-12-03');
    // A closed date on a weekend changes nothing.
    expect(addWorkingDays('2026-11-26', 3, { ...WEEK, closedDates: ['2026-11-28'] })).toBe('2026-12-01');
  });
  it('starts counting on the next working day when the order arrives on a closed day', () => {
    // Saturday + 1 → Monday; Sunday + 2 → Tuesday
    expect(addWorkingDays('2026-11-28', 1, WEEK)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-29', 2, WEEK)).toBe('2026-12-01');
    // A holiday Monday: arriving on it, one day of work is due on Tuesday.
    expect(addWorkingDays('2026-11-30', 1, { ...WEEK, closedDates: ['2026-11-30'] })).toBe('2026-12-01');
  });
  it('with no turnaround answers the day itself, or the next working day', () => {
    expect(addWorkingDays('2026-11-24', 0, WEEK)).toBe('2026-11-24');
    expect(addWorkingDays('2026-11-28', 0, WEEK)).toBe('2026-11-30');
    expect(addWorkingDays('2026-12-24', 0, { ...WEEK, closedDates: ['2026-12-24', '2026-12-25'] })).toBe('2026-12-28');
  });
  it('follows a laboratory that works on Saturdays and not on Mondays', () => {
    const cal = { workingWeekdays: [2, 3, 4, 5, 6], closedDates: [] };
    // Friday + 2 → Saturday, Tuesday
    expect(addWorkingDays('2026-11-27', 2, cal)).toBe('2026-12-01');
  });
  it('crosses months, years and leap days', () => {
    expect(addWorkingDays('2026-12-31', 1, { ...WEEK, closedDates: ['2027-01-01'] })).toBe('2027-01-04');
    expect(addWorkingDays('2028-02-28', 1, WEEK)).toBe('2028-02-29');
    expect(addWorkingDays('2026-11-23', 120, WEEK)).toBe('2027-05-10');
  });
  it('refuses a calendar without working days and a negative count', () => {
    expect(() => addWorkingDays('2026-11-23', 1, { workingWeekdays: [], closedDates: [] })).toThrow(RangeError);
    expect(() => addWorkingDays('2026-11-23', -1, WEEK)).toThrow(RangeError);
  });
  it('agrees with isWorkingDay', () => {
    const cal = { ...WEEK, closedDates: ['2026-12-25'] };
    expect(isWorkingDay('2026-12-25', cal)).toBe(false);
    expect(isWorkingDay('2026-12-24', cal)).toBe(true);
    expect(isWorkingDay('2026-12-26', cal)).toBe(false);
  });
});

describe('dateInTimeZone', () => {
  it("takes the day of arrival in the laboratory's timezone", () => {
    // Friday 23:30 in New York is already Saturday in UTC and in Berlin.
    const instant = new Date('2026-11-28T04:30:00Z');
    expect(dateInTimeZone(instant, 'America/New_York')).toBe('2026-11-27');
    expect(dateInTimeZone(instant, 'Europe/Berlin')).toBe('2026-11-28');
    expect(addWorkingDays(dateInTimeZone(instant, 'America/New_York'), 1, WEEK)).toBe('2026-11-30');
    // Tokyo is ahead: Saturday morning there.
    expect(dateInTimeZone(new Date('2026-11-27T16:00:00Z'), 'Asia/Tokyo')).toBe('2026-11-28');
  });
  it('knows real zone names only', () => {
    expect(isTimeZone('Europe/Copenhagen')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('+05:30')).toBe(false);
    expect(isTimeZone('-08:00')).toBe(false);
  });
});

describe('isOrderLate', () => {
  const order = { status: 'accepted', estimatedDeliveryDate: '2026-11-25', requestedDeliveryDate: null };
  it('is late from the day after the due date while the laboratory owes the work', () => {
    expect(isOrderLate(order, '2026-11-25')).toBe(false);
    expect(isOrderLate(order, '2026-11-26')).toBe(true);
    expect(isOrderLate({ ...order, status: 'pending' }, '2026-11-26')).toBe(true);
    expect(isOrderLate({ ...order, status: 'ready' }, '2026-11-26')).toBe(true);
  });
  it('takes the requested date when it is earlier, or the only one', () => {
    expect(isOrderLate({ ...order, requestedDeliveryDate: '2026-11-20' }, '2026-11-21')).toBe(true);
    expect(
      isOrderLate(
        { status: 'pending', estimatedDeliveryDate: null, requestedDeliveryDate: '2026-11-20' },
        '2026-11-21',
      ),
    ).toBe(true);
  });
  it('is never late once shipped, completed, canceled or rejected, nor without dates', () => {
    for (const status of ['shipped', 'completed', 'canceled', 'rejected'])
      expect(isOrderLate({ ...order, status }, '2027-01-01')).toBe(false);
    expect(
      isOrderLate({ status: 'pending', estimatedDeliveryDate: null, requestedDeliveryDate: null }, '2027-01-01'),
    ).toBe(false);
  });
});
