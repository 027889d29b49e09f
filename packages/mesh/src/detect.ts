import type { MeshData, MeshFormat } from './types.js';
import { MeshParseError } from './types.js';
import { toU8 } from './parse/text.js';
import { parseStl } from './parse/stl.js';
import { parsePly } from './parse/ply.js';
import { parseObj } from './parse/obj.js';
import { meshContentVerdict } from './sniff.js';

/** Detects a mesh format from the content (the rules of sniff.ts), or null for anything else. */
export function detectMeshFormat(bytes: Uint8Array): MeshFormat | null {
  for (const format of ['ply', 'stl', 'obj'] as const)
    if (meshContentVerdict(format, bytes, bytes.length) === 'yes') return format;
  return null;
}

/** Detects (by content) and parses; `hint` names the format to try when the content tells none. */
export function parseMesh(input: ArrayBuffer | ArrayBufferView, hint?: string): MeshData {
  const bytes = toU8(input);
  const fmt = detectMeshFormat(bytes) ?? (hint === 'stl' || hint === 'ply' || hint === 'obj' ? hint : null);
  switch (fmt) {
    case 'stl':
      return parseStl(bytes);
    case 'ply':
      return parsePly(bytes);
    case 'obj':
      return parseObj(bytes);
    default:
      throw new MeshParseError('unknown', 'not an STL, PLY or OBJ file');
  }
}
