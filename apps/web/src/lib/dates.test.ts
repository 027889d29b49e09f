import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import { formatDate, formatDateTime, localToday } from './dates';

afterEach(() => {
  dayjs.locale('en');
});

describe('dates for the reader', () => {
  it("takes today in the reader's own time", () => {
    expect(localToday(new Date(2026, 10, 24, 23, 59))).toBe('2026-11-24');
    expect(localToday(new Date(2026, 0, 1, 0, 0))).toBe('2026-01-01');
  });
  it("writes dates and moments the way the reader's language does", () => {
    expect(formatDate('2026-11-22')).toBe('11/22/2026');
    expect(formatDateTime('2026-11-22T17:30:00')).toBe('11/22/2026 5:30 PM');
    dayjs.locale('de');
    expect(formatDate('2026-11-22')).toBe('22.11.2026');
    expect(formatDateTime('2026-11-22T17:30:00')).toBe('22.11.2026 17:30');
  });

  it('writes nothing for a missing value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });
});
