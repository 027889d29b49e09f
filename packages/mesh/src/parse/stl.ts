import { MeshParseError, type MeshData } from '../types.js';
import { ByteScanner, GrowF32, isSpace, toU8 } from './text.js';

/** Bytes a binary STL may carry after its last triangle (some exporters pad). */
export const STL_MAX_TRAILING = 4096;
/** How far into a file its kind is decided (also the window of the server's content check). */
export const SNIFF_WINDOW = 64 * 1024;

/** A three-valued answer for a file that may still be arriving: 'more' = the bytes so far cannot tell yet. */
export type Verdict = 'yes' | 'no' | 'more';

/** Records a binary STL whose count is 0 must show before its size is believed. */
const COUNT_ZERO_RECORDS = 8;

/** How many first bytes decide whether `head` starts a binary STL (more when its count is 0). */
export function binaryStlBytesToDecide(head: Uint8Array): number {
  if (head.length < 84) return 84;
  const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
  return count === 0 ? 84 + 50 * COUNT_ZERO_RECORDS : 84;
}

/**
 * The number of triangles of a binary STL of `size` bytes whose first bytes are `head` (84 at least), or null
 * when the size does not fit the layout (80-byte header, uint32 count, 50 bytes a triangle, at most
 * STL_MAX_TRAILING bytes after them). A count of 0 with a size that is 84 + 50 × n is read as n triangles
 * (some exporters never fill the count in) when the first records look like an exporter's: finite coordinates,
 * unit (or zero) normals, and a triangle with an area among them.
 */
export function binaryStlTriangles(head: Uint8Array, size = head.length): number | null {
  if (size < 84 || head.length < 84) return null;
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const count = dv.getUint32(80, true);
  if (count === 0) {
    if ((size - 84) % 50 !== 0) return null;
    const n = (size - 84) / 50;
    const records = Math.min(n, COUNT_ZERO_RECORDS);
    if (head.length < 84 + 50 * records) return null;
    let withArea = n === 0;
    for (let t = 0; t < records; t++) {
      const f = (k: number) => dv.getFloat32(84 + 50 * t + 4 * k, true);
      for (let k = 0; k < 12; k++) if (!Number.isFinite(f(k))) return null;
      const normal = Math.hypot(f(0), f(1), f(2));
      if (normal !== 0 && Math.abs(normal - 1) > 0.01) return null;
      const [ux, uy, uz] = [f(6) - f(3), f(7) - f(4), f(8) - f(5)];
      const [vx, vy, vz] = [f(9) - f(3), f(10) - f(4), f(11) - f(5)];
      if (Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) > 0) withArea = true;
    }
    return withArea ? n : null;
  }
  const need = 84 + 50 * count;
  return need <= size && size - need <= STL_MAX_TRAILING ? count : null;
}

const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/**
 * Whether `head` (the first bytes of a file of `size` bytes) starts an ASCII STL: `solid` (after optional white
 * space), text without NUL bytes, and `facet` or `endsolid` as the first word after the name line.
 */
export function asciiStlVerdict(head: Uint8Array, size = head.length): Verdict {
  const end = Math.min(head.length, SNIFF_WINDOW);
  const undecided: Verdict = end >= Math.min(size, SNIFF_WINDOW) ? 'no' : 'more';
  for (let i = 0; i < end; i++) if (head[i] === 0) return 'no';
  let p = 0;
  while (p < end && (isSpace(head[p]!) || head[p] === 10)) p++;
  const word = (from: number, lit: string): boolean | null => {
    for (let i = 0; i < lit.length; i++) {
      if (from + i >= end) return null;
      if (lower(head[from + i]!) !== lit.charCodeAt(i)) return false;
    }
    const after = from + lit.length;
    if (after >= end) return end >= size ? true : null;
    return isSpace(head[after]!) || head[after] === 10;
  };
  const solid = word(p, 'solid');
  if (solid === null) return undecided;
  if (!solid) return 'no';
  const nl = head.indexOf(10, p);
  if (nl < 0 || nl >= end) return undecided;
  let q = nl + 1;
  while (q < end && (isSpace(head[q]!) || head[q] === 10)) q++;
  const facet = word(q, 'facet');
  const endsolid = word(q, 'endsolid');
  if (facet || endsolid) return 'yes';
  return facet === null || endsolid === null ? undecided : 'no';
}

/** Parses binary or ASCII STL (decided by content). Returns unindexed triangles (indices null, colors null). */
export function parseStl(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  if (binaryStlTriangles(bytes) !== null) return parseBinaryStl(bytes);
  if (asciiStlVerdict(bytes) === 'yes') return parseAsciiStl(bytes);
  if (bytes.length >= 84) return parseBinaryStl(bytes); // reports truncation / size mismatch
  throw new MeshParseError('stl', 'file too short');
}

export function parseBinaryStl(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  if (bytes.length < 84) throw new MeshParseError('stl', 'file too short');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = dv.getUint32(80, true);
  const count = binaryStlTriangles(bytes);
  if (count === null) {
    if (declared === 0) throw new MeshParseError('stl', 'no triangles');
    if (84 + 50 * declared > bytes.length)
      throw new MeshParseError('stl', `truncated: header says ${declared} triangles`);
    throw new MeshParseError('stl', 'size does not match triangle count');
  }
  if (count === 0) throw new MeshParseError('stl', 'no triangles');
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

/** ASCII STL, every `solid … endsolid` block of the file (exports often keep each jaw or tooth in its own). */
export function parseAsciiStl(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  const s = new ByteScanner(bytes, 'stl');
  const out = new GrowF32(Math.min(1 << 20, Math.max(1024, Math.floor(bytes.length / 20))));
  let inSolid = false;
  let inFacet = false;
  let verts = 0;
  for (;;) {
    s.skipSpace();
    if (s.atEnd()) break;
    const w = s.word();
    if (!inSolid && w !== 'solid')
      s.fail(out.n === 0 ? 'missing "solid"' : `unexpected "${w.slice(0, 16)}" after endsolid`);
    switch (w) {
      case 'solid':
        if (inSolid) s.fail('solid inside a solid');
        inSolid = true;
        s.skipLine(); // the solid's name
        break;
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
        if (inFacet) s.fail('truncated inside a facet');
        inSolid = false;
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
