import { describe, expect, it } from 'vitest';
import { medianOfCounts, mondayOf, scorecardFigures, trendStart } from './scorecard-figures.js';

describe('medianOfCounts', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    // 1, 2, 2, 5, 9 → 2
    expect(
      medianOfCounts([
        { value: 9, count: 1 },
        { value: 2, count: 2 },
        { value: 1, count: 1 },
        { value: 5, count: 1 },
      ]),
    ).toBe(2);
    // 1, 3, 4, 10 → (3 + 4) / 2
    expect(
      medianOfCounts([
        { value: 1, count: 1 },
        { value: 3, count: 1 },
        { value: 4, count: 1 },
        { value: 10, count: 1 },
      ]),
    ).toBe(3.5);
    // 2, 2, 6, 6 → the two middle values sit in different groups
    expect(
      medianOfCounts([
        { value: 6, count: 2 },
        { value: 2, count: 2 },
      ]),
    ).toBe(4);
    expect(medianOfCounts([{ value: 7, count: 1 }])).toBe(7);
  });

  it('has no median without values', () => {
    expect(medianOfCounts([])).toBeNull();
    expect(medianOfCounts([{ value: 3, count: 0 }])).toBeNull();
  });
});

describe('weeks', () => {
  it('starts weeks on Monday and the trend eleven weeks before the current one', () => {
    expect(mondayOf('2026-11-24')).toBe('2026-11-23'); // a Tuesday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // a Sunday
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
    expect(trendStart('2026-11-24')).toBe('2026-09-07');
  });
});

describe('scorecardFigures', () => {
  // Hand-made tallies: windows are [30, 90, 365] days.
  // 30 days: 4 shipped (turnaround 2, 3, 3, 8), 3 with a due date, 2 on time; remakes: 1 fit.
  // 90 days: adds 2 shipped at 5 days (both with due dates, 1 on time) and 1 shade remake → 6 shipped.
  // 365 days: adds 4 shipped at 12 days without due dates and 1 fit remake → 10 shipped.
  const tallies = {
    turnaround: [
      { days: 2, shipped: [1, 1, 1], dueCounted: [1, 1, 1], onTime: [1, 1, 1] },
      { days: 3, shipped: [2, 2, 2], dueCounted: [1, 1, 1], onTime: [1, 1, 1] },
      { days: 8, shipped: [1, 1, 1], dueCounted: [1, 1, 1], onTime: [0, 0, 0] },
      { days: 5, shipped: [0, 2, 2], dueCounted: [0, 2, 2], onTime: [0, 1, 1] },
      { days: 12, shipped: [0, 0, 4], dueCounted: [0, 0, 0], onTime: [0, 0, 0] },
    ],
    remakes: [
      { reason: 'fit', count: [1, 1, 2] },
      { reason: 'shade', count: [0, 1, 1] },
    ],
    weeks: [
      { weekStart: '2026-11-23', shipped: 2, dueCounted: 2, onTime: 1, remakes: 1 },
      { weekStart: '2026-09-07', shipped: 4, dueCounted: 0, onTime: 0, remakes: 0 },
    ],
  } as const;
  const figures = scorecardFigures(
    {
      turnaround: tallies.turnaround.map((t) => ({ ...t })),
      remakes: tallies.remakes.map((r) => ({ ...r })),
      weeks: tallies.weeks.map((w) => ({ ...w })),
    },
    '2026-11-24',
  );

  it('gives the on-time rate among shipments with a due date', () => {
    expect(figures.windows.map((w) => [w.days, w.shipped, w.dueCounted, w.onTime])).toEqual([
      [30, 4, 3, 2],
      [90, 6, 5, 3],
      [365, 10, 5, 3],
    ]);
    expect(figures.windows[0]!.onTimeRate).toBeCloseTo(2 / 3);
    expect(figures.windows[1]!.onTimeRate).toBeCloseTo(3 / 5);
    expect(figures.windows[2]!.onTimeRate).toBeCloseTo(3 / 5);
  });

  it('gives remakes per shipped order, in all and by reason', () => {
    const [w30, w90, w365] = figures.windows;
    expect([w30!.remakes, w30!.remakeRate]).toEqual([1, 0.25]);
    expect(w90!.remakes).toBe(2);
    expect(w90!.remakeRate).toBeCloseTo(2 / 6);
    expect([w365!.remakes, w365!.remakeRate]).toEqual([3, 0.3]);
    expect(w365!.remakesByReason).toEqual([
      { reason: 'fit', count: 2, rate: 0.2 },
      { reason: 'shade', count: 1, rate: 0.1 },
      { reason: 'contacts', count: 0, rate: 0 },
      { reason: 'occlusion', count: 0, rate: 0 },
      { reason: 'breakage', count: 0, rate: 0 },
      { reason: 'other', count: 0, rate: 0 },
    ]);
  });

  it('gives the median turnaround of each window', () => {
    // 2, 3, 3, 8 → 3; 2, 3, 3, 5, 5, 8 → 4; 2, 3, 3, 5, 5, 8, 12, 12, 12, 12 → (5 + 8) / 2
    expect(figures.windows.map((w) => w.medianTurnaroundDays)).toEqual([3, 4, 6.5]);
  });

  it('lists twelve weeks, empty ones without rates', () => {
    expect(figures.weeks).toHaveLength(12);
    expect(figures.weeks[0]).toEqual({ weekStart: '2026-09-07', shipped: 4, onTimeRate: null, remakeRate: 0 });
    expect(figures.weeks[1]).toEqual({ weekStart: '2026-09-14', shipped: 0, onTimeRate: null, remakeRate: null });
    expect(figures.weeks[11]).toEqual({ weekStart: '2026-11-23', shipped: 2, onTimeRate: 0.5, remakeRate: 0.5 });
  });

  it('has no rates and no median for a laboratory that shipped nothing', () => {
    const empty = scorecardFigures({ turnaround: [], remakes: [], weeks: [] }, '2026-11-24');
    expect(empty.windows[2]).toMatchObject({
      shipped: 0,
      onTimeRate: null,
      remakeRate: null,
      medianTurnaroundDays: null,
      remakes: 0,
    });
  });
});
