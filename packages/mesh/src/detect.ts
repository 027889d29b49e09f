import type { MeshData, MeshFormat } from './types.js';
import { MeshParseError } from './types.js';
import { indexOfAscii, isSpace, startsWithAscii, toU8 } from './parse/text.js';
import { isBinaryStlLayout, parseStl } from './parse/stl.js';
import { parsePly } from './parse/ply.js';
import { OBJ_KEYWORDS, parseObj } from './parse/obj.js';

const SNIFF = 64 * 1024;

/**
 * Detects a mesh format from the content. `fileName` is only a tie-breaker for binary STL files that carry a few
 * trailing bytes after the last triangle (some exporters pad); it never makes a file of another kind pass.
 */
export function detectMeshFormat(bytes: Uint8Array, fileName?: string): MeshFormat | null {
  if (startsWithAscii(bytes, 'ply\n') || startsWithAscii(bytes, 'ply\r\n')) return 'ply';
  if (isBinaryStlLayout(bytes)) return 'stl';
  if (looksLikeAsciiStl(bytes)) return 'stl';
  if (looksLikeObj(bytes)) return 'obj';
  if (fileName && /\.stl$/i.test(fileName) && bytes.length >= 84 + 50) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    const need = 84 + 50 * count;
    if (count > 0 && need <= bytes.length && bytes.length - need <= 4096) return 'stl';
  }
  return null;
}

function firstNonSpace(bytes: Uint8Array, from = 0): number {
  let p = from;
  while (p < bytes.length && (isSpace(bytes[p]!) || bytes[p] === 10)) p++;
  return p;
}

function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  const p = firstNonSpace(bytes);
  if (!startsWithAscii(bytes, 'solid', p)) return false;
  const end = Math.min(bytes.length, SNIFF);
  // Must be text: no NUL bytes in the sniffed part.
  for (let i = p; i < end; i++) if (bytes[i] === 0) return false;
  return indexOfAscii(bytes, 'facet', p, end) >= 0 && indexOfAscii(bytes, 'vertex', p, end) >= 0;
}

function looksLikeObj(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF);
  let p = 0;
  let sawV = false;
  let lines = 0;
  while (p < end) {
    const nl = bytes.indexOf(10, p);
    const lineEnd = nl < 0 || nl > end ? end : nl;
    const complete = nl >= 0 && nl < end;
    let q = p;
    while (q < lineEnd && isSpace(bytes[q]!)) q++;
    if (q < lineEnd && bytes[q] !== 35) {
      let word = '';
      let r = q;
      while (r < lineEnd && !isSpace(bytes[r]!) && r - q < 16) {
        const c = bytes[r]!;
        if (c < 33 || c > 126) return false;
        word += String.fromCharCode(c);
        r++;
      }
      if (!OBJ_KEYWORDS.has(word)) {
        // The sniff window may cut the last line: accept an incomplete final line.
        if (complete || lineEnd !== end || end === bytes.length) return false;
      }
      if (word === 'v') sawV = true;
    } else if (q < lineEnd) {
      for (let i = q; i < lineEnd; i++) if (bytes[i] === 0) return false;
    }
    lines++;
    p = lineEnd + 1;
  }
  return sawV && lines > 0;
}

/** Detects (by content) and parses. Throws MeshParseError when the content is no supported mesh. */
export function parseMesh(input: ArrayBuffer | ArrayBufferView, hint?: MeshFormat | string): MeshData {
  const bytes = toU8(input);
  const fmt = detectMeshFormat(bytes, typeof hint === 'string' && hint.includes('.') ? hint : undefined)
    ?? (hint === 'stl' || hint === 'ply' || hint === 'obj' ? hint : null);
  switch (fmt) {
    case 'stl': return parseStl(bytes);
    case 'ply': return parsePly(bytes);
    case 'obj': return parseObj(bytes);
    default: throw new MeshParseError('unknown', 'not an STL, PLY or OBJ file');
  }
}
