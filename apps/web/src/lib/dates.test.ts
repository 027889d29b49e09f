import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import { formatDate, formatDateTime } from './dates';

afterEach(() => {
  dayjs.locale('en');
});

describe('dates for the reader', () => {
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
