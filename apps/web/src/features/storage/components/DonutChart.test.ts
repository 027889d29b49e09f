import { describe, expect, it } from 'vitest';
import { arcPath, sliceAngles } from './DonutChart';

describe('donut chart geometry', () => {
  it('splits the circle proportionally and skips empty values', () => {
    const a = sliceAngles([1, 0, 3]);
    expect(a[0]![0]).toBe(0);
    expect(a[0]![1]).toBeCloseTo(Math.PI / 2);
    expect(a[1]![1] - a[1]![0]).toBe(0);
    expect(a[2]![1]).toBeCloseTo(Math.PI * 2);
    expect(sliceAngles([0, 0])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
  it('draws arcs, a full circle as two halves', () => {
    expect(arcPath(50, 50, 50, 30, 0, Math.PI / 2)).toBe('M50 0 A50 50 0 0 1 100 50 L80 50 A30 30 0 0 0 50 20 Z');
    expect(arcPath(50, 50, 50, 30, 0, Math.PI * 2).match(/M/g)).toHaveLength(2);
  });
});
