import sharp from 'sharp';

/**
 * The largest picture a report's PDF needs: a picture cell is about 233 × 175 pt on A4, so 1000 × 750 px prints it at
 * about 300 dpi. A camera photo or a full-screen snapshot holds ten times the pixels that show.
 */
export const PRINT_PIXELS = { width: 1000, height: 750 } as const;

// Pictures are read once per PDF: libvips's operation cache would only hold memory.
sharp.cache(false);

/**
 * A picture as the PDF embeds it: turned upright by its EXIF orientation, shrunk to fit the print size (never
 * enlarged), transparency laid on white, as a JPEG. A PDF carries a JPEG as it is, while a PNG must be decoded and
 * compressed again pixel by pixel, which made most of a report's generation time and size. Null for bytes that are
 * not a picture libvips can read.
 */
export async function printImage(bytes: Uint8Array): Promise<Buffer | null> {
  try {
    return await sharp(bytes, { failOn: 'error', limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ ...PRINT_PIXELS, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch {
    return null;
  }
}
