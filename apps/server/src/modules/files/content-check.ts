import { fileTypeFromBuffer } from 'file-type';
import type { FileFormat } from '@portal/contracts';

/** How many leading bytes the content check reads. */
export const SNIFF_BYTES = 64 * 1024;

const text = (head: Uint8Array, n = 4096) => new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, n));

/**
 * Whether a file's content is what its name claims: the format decides by bytes, never by the name.
 * `head` is the file's first bytes, `size` its full length.
 */
export async function contentMatches(format: FileFormat, head: Uint8Array, size: number): Promise<boolean> {
  if (size === 0) return false;
  switch (format) {
    case 'stl': {
      // Binary STL: an 80-byte header, a triangle count, 50 bytes a triangle; else ASCII 'solid … facet'.
      if (size >= 84) {
        const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
        if (84 + 50 * count === size) return true;
      }
      const t = text(head).trimStart();
      return t.startsWith('solid') && /facet\s+normal|endsolid/.test(text(head, SNIFF_BYTES));
    }
    case 'ply':
      return /^ply\r?\nformat (ascii|binary_little_endian|binary_big_endian) 1\.0/.test(text(head, 64));
    case 'obj': {
      const lines = text(head).split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
      return lines.length > 0 && lines.slice(0, 50).every((l) => /^(v|vt|vn|vp|f|l|g|o|s|mtllib|usemtl)\s/.test(l) || l === 's off');
    }
    case 'a3d':
      // A scanner's own format: stored and downloadable as it is; it must not be some other known type.
      return (await fileTypeFromBuffer(head)) === undefined;
    case 'svg': {
      const t = text(head).replace(/^\uFEFF/, '').trimStart();
      return (t.startsWith('<?xml') || t.startsWith('<svg') || t.startsWith('<!--')) && /<svg[\s>]/.test(t);
    }
    default: {
      const detected = await fileTypeFromBuffer(head);
      if (!detected) return false;
      const expected: Record<string, string[]> = { jpg: ['jpg'], jpeg: ['jpg'], png: ['png'], gif: ['gif'], mp4: ['mp4', 'm4v', 'mov'], mp3: ['mp3'], webm: ['webm'], pdf: ['pdf'] };
      return (expected[format] ?? []).includes(detected.ext);
    }
  }
}

/** A file name made safe to keep and show: no path parts, no control characters, a sane length. */
export function cleanFileName(raw: string): string | null {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').replace(/^\.+/, '').trim();
  if (!cleaned || cleaned.length > 200) return null;
  return cleaned;
}

export function formatOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
