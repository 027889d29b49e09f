/**
 * The square crop of an avatar: the image covers a square view of `view` pixels; the user zooms (1 = the image's
 * shorter side fills the view) and drags it. `x`/`y` are where the image's top-left corner sits in the view.
 */
export interface Crop {
  zoom: number;
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

export const ZOOM_MAX = 4;

const scaleOf = (image: Size, view: number, zoom: number) => (view / Math.min(image.width, image.height)) * zoom;

/** Keeps the image covering the whole view: no empty edge can be dragged in. */
export function clampCrop(c: Crop, image: Size, view: number): Crop {
  const zoom = Math.min(ZOOM_MAX, Math.max(1, c.zoom));
  const scale = scaleOf(image, view, zoom);
  const clamp = (v: number, size: number) => Math.min(0, Math.max(view - size * scale, v));
  return { zoom, x: clamp(c.x, image.width), y: clamp(c.y, image.height) };
}

/** The image centred at zoom 1. */
export function initialCrop(image: Size, view: number): Crop {
  const scale = scaleOf(image, view, 1);
  return { zoom: 1, x: (view - image.width * scale) / 2, y: (view - image.height * scale) / 2 };
}

/** Zooms about the centre of the view, so what the user looks at stays in place. */
export function zoomTo(c: Crop, zoom: number, image: Size, view: number): Crop {
  const before = scaleOf(image, view, c.zoom);
  const after = scaleOf(image, view, Math.min(ZOOM_MAX, Math.max(1, zoom)));
  const cx = (view / 2 - c.x) / before;
  const cy = (view / 2 - c.y) / before;
  return clampCrop({ zoom, x: view / 2 - cx * after, y: view / 2 - cy * after }, image, view);
}

/** The square of the image (in its own pixels) that the view shows. */
export function sourceSquare(c: Crop, image: Size, view: number) {
  const scale = scaleOf(image, view, c.zoom);
  return { sx: (0 - c.x) / scale, sy: (0 - c.y) / scale, size: view / scale };
}
