import { describe, expect, it } from 'vitest';
import { clampCrop, initialCrop, sourceSquare, zoomTo } from './crop';

const landscape = { width: 400, height: 200 };

describe('avatar crop', () => {
  it('starts centred with the shorter side filling the view', () => {
    const c = initialCrop(landscape, 100);
    expect(c).toEqual({ zoom: 1, x: -50, y: 0 });
    expect(sourceSquare(c, landscape, 100)).toEqual({ sx: 100, sy: 0, size: 200 });
  });

  it('never lets an empty edge into the view', () => {
    expect(clampCrop({ zoom: 1, x: 30, y: -40 }, landscape, 100)).toEqual({ zoom: 1, x: 0, y: 0 });
    expect(clampCrop({ zoom: 1, x: -500, y: 0 }, landscape, 100)).toEqual({ zoom: 1, x: -100, y: 0 });
    expect(clampCrop({ zoom: 0.2, x: 0, y: 0 }, landscape, 100).zoom).toBe(1);
    expect(clampCrop({ zoom: 9, x: 0, y: 0 }, landscape, 100).zoom).toBe(4);
  });

  it('zooms about the centre of the view', () => {
    const zoomed = zoomTo(initialCrop(landscape, 100), 2, landscape, 100);
    const square = sourceSquare(zoomed, landscape, 100);
    expect(square.size).toBe(100);
    // The centre of the image stays in the centre.
    expect(square.sx + square.size / 2).toBe(200);
    expect(square.sy + square.size / 2).toBe(100);
  });
});
