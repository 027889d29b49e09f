import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { caseListCodec } from './caseQuery';

describe('the case list in the address', () => {
  const cases = caseListCodec(30);

  it('leaves an untouched list out of the address, and reads it back as the default', () => {
    const initial = cases.read(new URLSearchParams());
    expect(cases.write(initial).toString()).toBe('');
    expect(initial.pageNum).toBe(1);
    expect(initial.filters.range![1].isSame(dayjs(), 'day')).toBe(true);
  });

  it('round-trips page, sort, filters and dates', () => {
    const text =
      'pageNum=3&sortField=patientName&sortOrder=asc&dateFrom=2026-01-01&dateTo=2026-02-15&status=uploaded&treatment=Crown&dentistId=7&keyword=Emma';
    const state = cases.read(new URLSearchParams(text));
    expect(state).toMatchObject({
      pageNum: 3,
      sortField: 'patientName',
      sortOrder: 'asc',
      filters: { status: 'uploaded', treatment: 'Crown', dentistId: 7, keyword: 'Emma' },
    });
    expect(state.filters.range!.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-01-01', '2026-02-15']);
    expect(Object.fromEntries(cases.write(state))).toEqual(Object.fromEntries(new URLSearchParams(text)));
  });

  it('reads what the request schema refuses as the default, one parameter at a time', () => {
    const state = cases.read(
      new URLSearchParams(
        'pageNum=-2&sortField=hack&status=nonsense&dentistId=x&dateFrom=2026-02-30&dateTo=2026-03-01&keyword=ok',
      ),
    );
    expect(state).toMatchObject({
      pageNum: 1,
      sortField: 'scanDate',
      filters: { status: undefined, dentistId: undefined, keyword: 'ok' },
    });
    // An impossible day leaves the default range.
    expect(state.filters.range![1].isSame(dayjs(), 'day')).toBe(true);
  });

  it('keeps "no dates" apart from the default dates', () => {
    const none = cases.read(new URLSearchParams('range=all'));
    expect(none.filters.range).toBeNull();
    expect(cases.write(none).get('range')).toBe('all');
  });
});
