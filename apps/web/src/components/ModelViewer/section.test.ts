import { describe, expect, it } from 'vitest';
import { planeRange, sliceMesh, unit } from './section';

// A closed box 10 × 20 × 30 mm (two triangles per face), centred on the origin.
function box(w: number, h: number, d: number) {
  const [x, y, z] = [w / 2, h / 2, d / 2];
  const p = [-x, -y, -z, x, -y, -z, x, y, -z, -x, y, -z, -x, -y, z, x, -y, z, x, y, z, -x, y, z];
  const faces = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
  ];
  const idx = faces.flatMap(([a, b, c, e]) => [a!, b!, c!, a!, c!, e!]);
  return { positions: new Float32Array(p), indices: new Uint32Array(idx) };
}

describe('a cross-section', () => {
  it('cuts a box across its height into a loop as long as its perimeter', () => {
    const { positions, indices } = box(10, 20, 30);
    const { segments, length } = sliceMesh(positions, indices, { normal: [0, 0, 1], offset: 5 });
    expect(length).toBeCloseTo(2 * (10 + 20), 4);
    // Every point lies in the plane.
    for (let i = 2; i < segments.length; i += 3) expect(segments[i]).toBeCloseTo(5, 5);
    // Four faces, two triangles each: eight segments.
    expect(segments.length / 6).toBe(8);
  });

  it('cuts along a slanted plane, and finds nothing past the box', () => {
    const { positions, indices } = box(10, 10, 10);
    const n = unit([1, 1, 0])!;
    expect(sliceMesh(positions, indices, { normal: n, offset: 0 }).length).toBeCloseTo(2 * (Math.SQRT2 * 10 + 10), 4);
    expect(sliceMesh(positions, indices, { normal: [0, 0, 1], offset: 16 }).segments.length).toBe(0);
  });

  it('offers the offsets across what is shown', () => {
    expect(planeRange({ min: [-5, -10, -15], max: [5, 10, 15] }, [0, 0, 1])).toEqual([-15, 15]);
    const [lo, hi] = planeRange({ min: [0, 0, 0], max: [1, 1, 0] }, unit([1, 1, 0])!);
    expect([lo, hi * Math.SQRT2]).toEqual([0, expect.closeTo(2, 6)]);
    expect(unit([0, 0, 0])).toBeNull();
  });
});
