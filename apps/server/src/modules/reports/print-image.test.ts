import { describe, expect, it } from 'vitest';
import sharp from 'sharp';

type RGBA = { r: number; g: number; b: number; alpha: number };
import { PRINT_PIXELS, printImage } from './print-image.js';

const picture = (width: number, height: number, background: RGBA) =>
  sharp({ create: { width, height, channels: 4, background } });

describe('printImage', () => {
  it('shrinks a large picture to the print size as a JPEG, keeping its proportions', async () => {
    const png = await picture(2400, 1200, { r: 200, g: 120, b: 90, alpha: 1 }).png().toBuffer();
    const out = await printImage(png);
    const meta = await sharp(out!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PRINT_PIXELS.width, 500]);
    expect(out!.length).toBeLessThan(png.length);
  });

  it('never enlarges a small picture, and lays transparency on white', async () => {
    const clear = await picture(320, 240, { r: 0, g: 0, b: 0, alpha: 0 }).png().toBuffer();
    const out = await printImage(clear);
    const { data, info } = await sharp(out!).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([320, 240, 3]);
    expect(data.reduce((low, v) => Math.min(low, v), 255)).toBeGreaterThan(245);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    // A landscape photo stored with "rotate 90°" shows as portrait.
    const sideways = await picture(1600, 1200, { r: 90, g: 90, b: 90, alpha: 1 })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const meta = await sharp((await printImage(sideways))!).metadata();
    expect([meta.width, meta.height]).toEqual([563, PRINT_PIXELS.height]);
    expect(meta.orientation ?? 1).toBe(1);
  });

  it('answers null for bytes that are not a picture', async () => {
    expect(await printImage(new TextEncoder().encode('not a picture'))).toBeNull();
    const png = await picture(64, 64, { r: 1, g: 2, b: 3, alpha: 1 }).png().toBuffer();
    expect(await printImage(png.subarray(0, 40))).toBeNull();
  });
});
