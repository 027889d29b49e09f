import { describe, expect, it } from 'vitest';
import { computeFitView, overallProgress, serializeInit, srgbToLinear, unionBounds } from './fit';

describe('viewer helpers', () => {
  it('unions bounds', () => {
    expect(unionBounds([])).toBeNull();
    expect(
      unionBounds([
        { min: [0, 0, 0], max: [1, 1, 1] },
        { min: [-1, 2, 0.5], max: [0, 3, 4] },
      ]),
    ).toEqual({ min: [-1, 0, 0], max: [1, 3, 4] });
  });
  it('fits the bounding sphere in the narrower field of view', () => {
    const box = { min: [-30, -25, 0], max: [30, 25, 20] } as const;
    const r = Math.hypot(60, 50, 20) / 2;
    const v = computeFitView({ min: [...box.min], max: [...box.max] }, 40, 2, [0, -1, 0], 1);
    expect(v.target).toEqual([0, 0, 10]);
    expect(v.distance).toBeCloseTo(r / Math.sin((20 * Math.PI) / 180), 6);
    expect(v.position[0]).toBeCloseTo(0);
    expect(v.position[1]).toBeCloseTo(-v.distance);
    expect(v.near).toBeGreaterThan(0);
    expect(v.near).toBeLessThan(v.distance - r);
    expect(v.far).toBeGreaterThan(v.distance + r);
    // a portrait viewport is limited by the horizontal fov: further away
    const p = computeFitView({ min: [...box.min], max: [...box.max] }, 40, 0.5, [0, -1, 0], 1);
    expect(p.distance).toBeGreaterThan(v.distance);
  });
  it('serialises request init for the worker', () => {
    expect(serializeInit({ headers: { authorization: 'Bearer x' }, credentials: 'include' })).toEqual({
      headers: [['authorization', 'Bearer x']],
      credentials: 'include',
    });
    expect(serializeInit({ headers: [['a', 'b']] }).headers).toEqual([['a', 'b']]);
    expect(serializeInit({ headers: new Headers({ 'X-Lang': 'en' }) }).headers).toEqual([['x-lang', 'en']]);
    expect(serializeInit(undefined)).toEqual({ headers: [] });
  });
  it('computes overall progress and colour conversion', () => {
    expect(
      overallProgress([
        { loaded: 50, total: 100, done: false },
        { loaded: 0, total: 0, done: true },
      ]),
    ).toBe(75);
    expect(overallProgress([])).toBe(0);
    expect(srgbToLinear(0)).toBe(0);
    expect(srgbToLinear(255)).toBeCloseTo(1);
    expect(srgbToLinear(128)).toBeCloseTo(0.2158, 3);
  });
});
