/** Pure camera helpers (no three.js): union of bounds, fit-to-view, request init serialisation, progress. */
import type { Box3Like, SerializableInit } from './types';

export type Vec3 = [number, number, number];

/** Union of boxes; null when the list is empty. */
export function unionBounds(boxes: readonly Box3Like[]): Box3Like | null {
  if (boxes.length === 0) return null;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i]!, b.min[i]!);
      max[i] = Math.max(max[i]!, b.max[i]!);
    }
  }
  return { min, max };
}

export interface FitView {
  target: Vec3;
  position: Vec3;
  near: number;
  far: number;
  distance: number;
}

/** Front view, slightly from above (scans: occlusal plane ≈ XY, incisors towards −y, z up). */
export const DEFAULT_VIEW_DIRECTION: Vec3 = [0, -1, 0.45];

/**
 * Camera placement so the bounding sphere of `box` fits the view (vertical fov in degrees, aspect = w/h),
 * looking from `direction` (from target towards camera) with a margin factor.
 */
export function computeFitView(
  box: Box3Like,
  fovDeg: number,
  aspect: number,
  direction: Vec3 = DEFAULT_VIEW_DIRECTION,
  margin = 1.12,
): FitView {
  const target: Vec3 = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
  const radius = Math.max(
    1e-3,
    Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]) / 2,
  );
  const vFov = (fovDeg * Math.PI) / 180;
  const hFov = 2 * Math.atan(Math.tan(vFov / 2) * Math.max(aspect, 1e-3));
  const halfAngle = Math.min(vFov, hFov) / 2;
  const distance = (radius / Math.sin(halfAngle)) * margin;
  let [dx, dy, dz] = direction;
  const len = Math.hypot(dx, dy, dz) || 1;
  dx /= len;
  dy /= len;
  dz /= len;
  return {
    target,
    position: [target[0] + dx * distance, target[1] + dy * distance, target[2] + dz * distance],
    near: Math.max(distance - radius * 2, distance / 1000),
    far: distance + radius * 4,
    distance,
  };
}

/** RequestInit → structured-clone-safe object for the worker (headers flattened; body/signal dropped). */
export function serializeInit(init?: RequestInit): SerializableInit {
  const out: SerializableInit = { headers: [] };
  if (!init) return out;
  const h = init.headers;
  if (h) {
    if (Array.isArray(h)) out.headers = h.map(([k, v]) => [String(k), String(v)] as [string, string]);
    else if (typeof (h as Headers).forEach === 'function' && typeof (h as Headers).get === 'function')
      (h as Headers).forEach((v, k) => out.headers.push([k, v]));
    else out.headers = Object.entries(h as Record<string, string>).map(([k, v]) => [k, String(v)]);
  }
  if (init.credentials) out.credentials = init.credentials;
  if (init.mode) out.mode = init.mode;
  if (init.cache) out.cache = init.cache;
  if (init.referrerPolicy) out.referrerPolicy = init.referrerPolicy;
  return out;
}

/** Overall progress 0–100 over several downloads (unknown totals count as half-done while loading). */
export function overallProgress(items: readonly { loaded: number; total: number; done: boolean }[]): number {
  if (items.length === 0) return 0;
  let sum = 0;
  for (const it of items)
    sum += it.done ? 1 : it.total > 0 ? Math.min(1, it.loaded / it.total) : it.loaded > 0 ? 0.5 : 0;
  return Math.round((sum / items.length) * 100);
}

/** sRGB byte → linear light (0–1). */
export function srgbToLinear(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}
