import { fileTypeFromBuffer } from 'file-type';
import { meshContentVerdict, SNIFF_WINDOW, type Verdict } from '@portal/mesh';
import type { FileFormat } from '@portal/contracts';

/** How many leading bytes the content check reads. */
export const SNIFF_BYTES = SNIFF_WINDOW;

const text = (head: Uint8Array, n = 4096) => new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, n));

/**
 * Whether a file's content is what its name claims, judged on its first bytes `head` (up to SNIFF_BYTES) and its
 * full length `size`: 'more' while the bytes so far cannot tell (a file still arriving). Models follow the rules
 * the mesh parsers follow (@portal/mesh's meshContentVerdict), so what is let in can be read, and the reverse.
 */
export async function contentVerdict(format: FileFormat, head: Uint8Array, size: number): Promise<Verdict> {
  if (size === 0) return 'no';
  if (format === 'stl' || format === 'ply' || format === 'obj') return meshContentVerdict(format, head, size);
  // The other formats are judged on their whole sniff window.
  if (head.length < Math.min(size, SNIFF_BYTES)) return 'more';
  return (await otherContentMatches(format, head)) ? 'yes' : 'no';
}

/** The content check on a whole file (`head` = its first SNIFF_BYTES bytes or all of it). */
export async function contentMatches(format: FileFormat, head: Uint8Array, size: number): Promise<boolean> {
  return (await contentVerdict(format, head.subarray(0, SNIFF_BYTES), size)) === 'yes';
}

async function otherContentMatches(format: FileFormat, head: Uint8Array): Promise<boolean> {
  switch (format) {
    case 'a3d':
      // A scanner's own format: stored and downloadable as it is; it must not be some other known type.
      return (await fileTypeFromBuffer(head)) === undefined;
    case 'svg': {
      const t = text(head)
        .replace(/^\uFEFF/, '')
        .trimStart();
      return (t.startsWith('<?xml') || t.startsWith('<svg') || t.startsWith('<!--')) && /<svg[\s>]/.test(t);
    }
    default: {
      const detected = await fileTypeFromBuffer(head);
      if (!detected) return false;
      const expected: Record<string, string[]> = {
        jpg: ['jpg'],
        jpeg: ['jpg'],
        png: ['png'],
        gif: ['gif'],
        mp4: ['mp4', 'm4v', 'mov'],
        mp3: ['mp3'],
        webm: ['webm'],
        pdf: ['pdf'],
      };
      return (expected[format] ?? []).includes(detected.ext);
    }
  }
}

/** A file name made safe to keep and show: no path parts, no control characters, a sane length. */
export function cleanFileName(raw: string): string | null {
  const base = raw.split(/[\\/]/).pop() ?? '';

  const cleaned = base
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/^\.+/, '')
    .trim();
  if (!cleaned || cleaned.length > 200) return null;
  return cleaned;
}

export function formatOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
