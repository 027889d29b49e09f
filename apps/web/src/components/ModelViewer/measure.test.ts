import { describe, expect, it } from 'vitest';
import { distance, formatMillimetres, isClick, nextMeasurement } from './measure';

describe('measuring on a scan', () => {
  it('tells a click from a turn of the model', () => {
    expect(isClick({ x: 10, y: 10 }, { x: 13, y: 12 })).toBe(true);
    expect(isClick({ x: 10, y: 10 }, { x: 20, y: 10 })).toBe(false);
  });

  it('measures the straight distance between two points', () => {
    expect(distance([0, 0, 0], [3, 4, 12])).toBe(13);
    expect(distance([1, 1, 1], [1, 1, 1])).toBe(0);
  });

  it('takes a first and a second point, then starts again; a miss changes nothing', () => {
    expect(nextMeasurement([], [1, 2, 3])).toEqual([[1, 2, 3]]);
    expect(nextMeasurement([[1, 2, 3]], [4, 5, 6])).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(
      nextMeasurement(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        [7, 8, 9],
      ),
    ).toEqual([[7, 8, 9]]);
    expect(nextMeasurement([[1, 2, 3]], null)).toEqual([[1, 2, 3]]);
  });

  it('writes millimetres to a tenth in the reader’s language', () => {
    expect(formatMillimetres(12.345, 'en')).toBe('12.3 mm');
    expect(formatMillimetres(8, 'de')).toBe('8,0 mm');
  });
});
