import type { Point3 } from './types';

/** How far a pointer may travel between press and release and still be a click, not a turn of the model (CSS px). */
export const CLICK_SLOP_PX = 4;

/** A press and release close enough in place to be a click on the model. */
export function isClick(down: { x: number; y: number }, up: { x: number; y: number }): boolean {
  return Math.hypot(up.x - down.x, up.y - down.y) <= CLICK_SLOP_PX;
}

/** The straight distance between two points of a scan, in the scan's units (millimetres for intraoral scans). */
export function distance(a: Point3, b: Point3): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}

/**
 * The points of a measurement after one more click: a first point, then a second; a third click starts a new
 * measurement from it. A click that hits no scan changes nothing.
 */
export function nextMeasurement(points: readonly Point3[], hit: Point3 | null): Point3[] {
  if (!hit) return [...points];
  return points.length >= 2 ? [hit] : [...points, hit];
}

/** A distance as the reader writes numbers, to a tenth of a millimetre. */
export function formatMillimetres(mm: number, lang: string): string {
  return `${new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(mm)} mm`;
}
