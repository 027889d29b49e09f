/**
 * The length unit of a scan, told from its size. Files carry no unit; scanners write millimetres, but exports in
 * metres or inches exist, and research tools normalise scans to unit size. The compact viewer format quantises in
 * millimetres (5 µm), so a scan in another unit must be converted first: in metres a whole arch would be a few
 * dozen quantisation steps wide and its triangles would collapse.
 */
import type { MeshData } from './types.js';
import { computeBounds } from './geometry.js';

export type LengthUnit = 'mm' | 'm' | 'in';
export const MM_PER_UNIT: Record<LengthUnit, number> = { mm: 1, m: 1000, in: 25.4 };

/**
 * The sizes (largest side of the bounding box) a dental scan can have, in millimetres: from a single tooth or
 * scan body (5 mm) to both arches with their bases (an arch alone is 40–80 mm across). With these bounds the
 * three units cannot be confused: millimetres 5–150, inches 0.197–5.9 (5–150 mm), metres 0.005–0.15.
 */
export const SCAN_SIZE_MM = { min: 5, max: 150 } as const;

/** How close a normalised scan's defining figure comes to 1 (they are exact up to float rounding). */
const UNIT_TOLERANCE = 1e-3;

export interface UnitGuess {
  /** null: the size fits no plausible unit (or the scan was normalised to unit size, which has none). */
  unit: LengthUnit | null;
  /** The largest side of the bounding box, in the file's own unit. */
  extent: number;
  /** The scan fits the unit cube or sphere exactly: normalised by a tool, its real size is lost. */
  normalised: boolean;
}

const fits = (extentMm: number) => extentMm >= SCAN_SIZE_MM.min && extentMm <= SCAN_SIZE_MM.max;
const isOne = (v: number) => Math.abs(v - 1) <= UNIT_TOLERANCE;

/**
 * Millimetres when the size is a scan's in millimetres; else a scan normalised to unit size (its largest
 * coordinate, its largest side, or its largest distance from the centre is exactly 1) has no unit; else inches,
 * else metres, when the size converted is a scan's. Anything else has no plausible unit.
 */
export function detectUnit(positions: Float32Array): UnitGuess {
  const { min, max } = computeBounds(positions);
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  if (positions.length < 9 || !(extent > 0)) return { unit: null, extent, normalised: false };
  if (fits(extent)) return { unit: 'mm', extent, normalised: false };
  if (isNormalised(positions, min, max, extent)) return { unit: null, extent, normalised: true };
  if (fits(extent * MM_PER_UNIT.in)) return { unit: 'in', extent, normalised: false };
  if (fits(extent * MM_PER_UNIT.m)) return { unit: 'm', extent, normalised: false };
  return { unit: null, extent, normalised: false };
}

function isNormalised(positions: Float32Array, min: number[], max: number[], extent: number): boolean {
  const maxAbs = Math.max(...min.map(Math.abs), ...max.map(Math.abs));
  if (isOne(maxAbs) || isOne(extent)) return true;
  const n = positions.length / 3;
  let cx = 0,
    cy = 0,
    cz = 0;
  for (let i = 0; i < positions.length; i += 3) {
    cx += positions[i]!;
    cy += positions[i + 1]!;
    cz += positions[i + 2]!;
  }
  const centres = [
    [cx / n, cy / n, cz / n],
    [(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2],
  ];
  return centres.some(([x, y, z]) => {
    let r2 = 0;
    for (let i = 0; i < positions.length; i += 3) {
      const d = (positions[i]! - x!) ** 2 + (positions[i + 1]! - y!) ** 2 + (positions[i + 2]! - z!) ** 2;
      if (d > r2) r2 = d;
    }
    return isOne(Math.sqrt(r2));
  });
}

/** The mesh in millimetres with the unit it was found in, or the size that fits no unit. */
export function inMillimetres(
  mesh: MeshData,
): { unit: LengthUnit; mesh: MeshData; extent: number } | { unit: null; mesh: null; extent: number } {
  const guess = detectUnit(mesh.positions);
  if (!guess.unit) return { unit: null, mesh: null, extent: guess.extent };
  if (guess.unit === 'mm') return { unit: 'mm', mesh, extent: guess.extent };
  const k = MM_PER_UNIT[guess.unit];
  const positions = new Float32Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i++) positions[i] = mesh.positions[i]! * k;
  return { unit: guess.unit, mesh: { ...mesh, positions }, extent: guess.extent };
}
