import { describe, expect, it } from 'vitest';
import { formatDays, formatRate, rateSegments } from './format';

describe('scorecard formats', () => {
  it('shows rates as whole percentages and days with one decimal, dashes where there is none', () => {
    expect(formatRate(0.666, 'en')).toBe('67%');
    expect(formatRate(null, 'en')).toBe('—');
    expect(formatDays(2.5, 'de')).toBe('2,5');
    expect(formatDays(3, 'en')).toBe('3');
    expect(formatDays(null, 'en')).toBe('—');
  });

  it('breaks the trend line where a week has no rate', () => {
    const box = { width: 120, height: 110, left: 10, right: 10, top: 5, bottom: 5 };
    expect(rateSegments([1, 0.5, null, 0], box)).toEqual([
      [
        { x: 10, y: 5 },
        { x: 43.3, y: 55 },
      ],
      [{ x: 110, y: 105 }],
    ]);
    expect(rateSegments([null, null], box)).toEqual([]);
  });
});
