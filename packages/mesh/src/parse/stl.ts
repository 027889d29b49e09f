import { MeshParseError, type MeshData } from '../types.js';
import { ByteScanner, GrowF32, indexOfAscii, isSpace, toU8 } from './text.js';

/** True when the byte length matches the binary STL layout exactly (80-byte header, uint32 count, 50 bytes a triangle). */
export function isBinaryStlLayout(bytes: Uint8Array): boolean {
  if (bytes.length < 84) return false;
  const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  return 84 + 50 * count === bytes.length;
}

function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  let p = 0;
  while (p < bytes.length && (isSpace(bytes[p]!) || bytes[p] === 10)) p++;
  if (indexOfAscii(bytes, 'solid', p, p + 5) !== p) return false;
  return indexOfAscii(bytes, 'facet', p, Math.min(bytes.length, p + 65536)) >= 0 || indexOfAscii(bytes, 'endsolid', p) >= 0;
}

/** Parses binary or ASCII STL (decided by content). Returns unindexed triangles (indices null, colors null). */
export function parseStl(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  if (isBinaryStlLayout(bytes)) return parseBinaryStl(bytes);
  if (looksLikeAsciiStl(bytes)) return parseAsciiStl(bytes);
  if (bytes.length >= 84) return parseBinaryStl(bytes); // reports truncation / size mismatch
  throw new MeshParseError('stl', 'file too short');
}

export function parseBinaryStl(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  if (bytes.length < 84) throw new MeshParseError('stl', 'file too short');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = dv.getUint32(80, true);
  if (count === 0) throw new MeshParseError('stl', 'no triangles');
  const need = 84 + 50 * count;
  if (need > bytes.length) throw new MeshParseError('stl', `truncated: header says ${count} triangles`);
  // Some exporters append a few bytes; anything larger is not an STL we understand.
  if (bytes.length - need > 4096) throw new MeshParseError('stl', 'size does not match triangle count');
  const positions = new Float32Array(count * 9);
  let o = 0;
  for (let t = 0, p = 84 + 12; t < count; t++, p += 50) {
    for (let k = 0; k < 9; k++) {
      const v = dv.getFloat32(p + k * 4, true);
      positions[o++] = v;
    }
  }
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i]!)) throw new MeshParseError('stl', 'non-finite coordinate');
  }
  return { positions, indices: null, colors: null };
}

export function parseAsciiStl(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  const s = new ByteScanner(bytes, 'stl');
  const out = new GrowF32(Math.min(1 << 20, Math.max(1024, Math.floor(bytes.length / 20))));
  s.skipSpace();
  if (!s.matchWord('solid')) s.fail('missing "solid"');
  s.skipLine();
  let inFacet = false;
  let verts = 0;
  let ended = false;
  while (!ended) {
    s.skipSpace();
    if (s.atEnd()) break;
    const w = s.word();
    switch (w) {
      case 'facet':
        if (inFacet) s.fail('nested facet');
        inFacet = true;
        verts = 0;
        s.skipLine();
        break;
      case 'outer':
      case 'endloop':
        s.skipLine();
        break;
      case 'vertex': {
        if (!inFacet) s.fail('vertex outside facet');
        if (++verts > 3) s.fail('facet with more than 3 vertices');
        const x = s.number();
        const y = s.number();
        const z = s.number();
        out.push3(x, y, z);
        s.skipLine();
        break;
      }
      case 'endfacet':
        if (!inFacet || verts !== 3) s.fail('facet without 3 vertices');
        inFacet = false;
        s.skipLine();
        break;
      case 'endsolid':
        ended = true;
        break;
      case 'solid': // several solids in one file
        s.skipLine();
        break;
      default:
        s.fail(`unexpected "${w.slice(0, 16)}"`);
    }
  }
  if (inFacet) s.fail('truncated inside a facet');
  if (out.n === 0) s.fail('no triangles');
  return { positions: out.result(), indices: null, colors: null };
}
