import type { Box3Like, Point3, SectionPlane } from './types';

const dot = (a: Point3, b: Point3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The offsets at which a plane of this normal touches a box first and last: the range of the section's slider. */
export function planeRange(box: Box3Like, normal: Point3): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of [box.min[0], box.max[0]])
    for (const y of [box.min[1], box.max[1]])
      for (const z of [box.min[2], box.max[2]]) {
        const d = dot([x, y, z], normal);
        lo = Math.min(lo, d);
        hi = Math.max(hi, d);
      }
  return [lo, hi];
}

/** A unit vector along `v` (the camera's direction), or null for a zero vector. */
export function unit(v: Point3): Point3 | null {
  const n = Math.hypot(v[0], v[1], v[2]);
  return n > 0 ? [v[0] / n, v[1] / n, v[2] / n] : null;
}

/**
 * Where a mesh crosses the plane: one segment per triangle the plane cuts, as pairs of points in a flat array
 * (x1, y1, z1, x2, y2, z2, …), and the profile's total length. A triangle lying in the plane adds nothing (its
 * neighbours carry the edge); a vertex on the plane counts as being on the kept side.
 */
export function sliceMesh(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  plane: SectionPlane,
): { segments: Float32Array; length: number } {
  const [nx, ny, nz] = plane.normal;
  const out: number[] = [];
  let length = 0;
  const d = new Float64Array(3);
  const v = [0, 0, 0];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    let above = 0;
    for (let k = 0; k < 3; k++) {
      const i = (v[k] = indices[t + k]!) * 3;
      d[k] = positions[i]! * nx + positions[i + 1]! * ny + positions[i + 2]! * nz - plane.offset;
      if (d[k]! >= 0) above++;
    }
    if (above === 0 || above === 3) continue;
    // The two edges whose ends lie on either side each give one point of the segment.
    const seg: number[] = [];
    for (let k = 0; k < 3; k++) {
      const a = k;
      const b = (k + 1) % 3;
      if (d[a]! >= 0 === d[b]! >= 0) continue;
      const s = d[a]! / (d[a]! - d[b]!);
      const ia = v[a]! * 3;
      const ib = v[b]! * 3;
      for (let c = 0; c < 3; c++) seg.push(positions[ia + c]! + s * (positions[ib + c]! - positions[ia + c]!));
    }
    if (seg.length !== 6) continue;
    length += Math.hypot(seg[3]! - seg[0]!, seg[4]! - seg[1]!, seg[5]! - seg[2]!);
    out.push(...seg);
  }
  return { segments: new Float32Array(out), length };
}
