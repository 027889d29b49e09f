import { MeshParseError, type MeshData } from '../types.js';
import { ByteScanner, GrowU32, GrowU8, toU8 } from './text.js';

type ScalarType = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'f32' | 'f64';

const TYPE_ALIASES: Record<string, ScalarType> = {
  char: 'i8',
  int8: 'i8',
  uchar: 'u8',
  uint8: 'u8',
  short: 'i16',
  int16: 'i16',
  ushort: 'u16',
  uint16: 'u16',
  int: 'i32',
  int32: 'i32',
  uint: 'u32',
  uint32: 'u32',
  float: 'f32',
  float32: 'f32',
  double: 'f64',
  float64: 'f64',
};
const TYPE_SIZE: Record<ScalarType, number> = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4, f64: 8 };

interface Property {
  name: string;
  type: ScalarType;
  /** For list properties: the type of the item count. */
  countType?: ScalarType;
}
interface Element {
  name: string;
  count: number;
  props: Property[];
}

/** A PLY header longer than this is refused (real headers are a few hundred bytes). */
export const PLY_MAX_HEADER = 64 * 1024;
const fail = (reason: string): never => {
  throw new MeshParseError('ply', reason);
};

export interface PlyHeader {
  format: 'ascii' | 'le' | 'be';
  elements: Element[];
  bodyStart: number;
}

const FORMATS: Record<string, PlyHeader['format']> = {
  ascii: 'ascii',
  binary_little_endian: 'le',
  binary_big_endian: 'be',
};
const latin1 = new TextDecoder('latin1');

/**
 * Reads a PLY header line by line, in any order of its lines (a `comment` may come before `format`). Answers null
 * when the bytes end before `end_header` (a file still arriving); throws MeshParseError on the first line that is
 * not PLY. The content check and the parser both use it, so they accept the same files.
 */
export function readPlyHeader(bytes: Uint8Array): PlyHeader | null {
  const magic = bytes[3] === 13 ? 'ply\r\n' : 'ply\n';
  for (let i = 0; i < magic.length; i++) {
    if (i >= bytes.length) return null;
    if (bytes[i] !== magic.charCodeAt(i)) fail('missing "ply" magic');
  }
  let format: PlyHeader['format'] | null = null;
  const elements: Element[] = [];
  const end = Math.min(bytes.length, PLY_MAX_HEADER);
  for (let p = magic.length; ;) {
    const nl = bytes.indexOf(10, p);
    if (nl < 0 || nl >= end) {
      if (end >= PLY_MAX_HEADER) fail('header too long');
      return null;
    }
    const words = latin1.decode(bytes.subarray(p, nl)).trim().split(/\s+/);
    p = nl + 1;
    const keyword = words[0]!.toLowerCase();
    const arg = (i: number) => (words[i] ?? fail(`incomplete "${keyword}" line`)).toLowerCase();
    if (keyword === 'end_header') {
      if (words.length > 1) fail('unexpected text after end_header');
      if (!format) fail('missing format line');
      return { format: format!, elements, bodyStart: p };
    } else if (keyword === 'format') {
      format = FORMATS[arg(1)] ?? fail(`unknown format "${arg(1).slice(0, 24)}"`);
    } else if (keyword === 'element') {
      const count = arg(2);
      if (!/^\d{1,10}$/.test(count) || Number(count) > 0xffffffff) fail('bad element count');
      elements.push({ name: arg(1), count: Number(count), props: [] });
    } else if (keyword === 'property') {
      const el = elements[elements.length - 1] ?? fail('property before element');
      if (arg(1) === 'list') {
        const countType = TYPE_ALIASES[arg(2)] ?? fail('bad list count type');
        const type = TYPE_ALIASES[arg(3)] ?? fail('bad list item type');
        el.props.push({ name: arg(4), type, countType });
      } else {
        const type = TYPE_ALIASES[arg(1)] ?? fail(`bad property type "${arg(1).slice(0, 16)}"`);
        el.props.push({ name: arg(2), type });
      }
    } else if (keyword !== 'comment' && keyword !== 'obj_info' && keyword !== '') {
      fail(`unexpected header line "${keyword.slice(0, 16)}"`);
    }
  }
}

function read(dv: DataView, p: number, t: ScalarType, le: boolean): number {
  switch (t) {
    case 'u8':
      return dv.getUint8(p);
    case 'i8':
      return dv.getInt8(p);
    case 'u16':
      return dv.getUint16(p, le);
    case 'i16':
      return dv.getInt16(p, le);
    case 'u32':
      return dv.getUint32(p, le);
    case 'i32':
      return dv.getInt32(p, le);
    case 'f32':
      return dv.getFloat32(p, le);
    case 'f64':
      return dv.getFloat64(p, le);
  }
}

const COLOR_NAMES: Record<string, number> = {
  red: 0,
  green: 1,
  blue: 2,
  diffuse_red: 0,
  diffuse_green: 1,
  diffuse_blue: 2,
  r: 0,
  g: 1,
  b: 2,
};
const FACE_LISTS = new Set(['vertex_indices', 'vertex_index']);

function toColorByte(v: number, t: ScalarType): number {
  if (t === 'f32' || t === 'f64') v *= 255;
  else if (t === 'u16') v /= 257;
  v = Math.round(v);
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function colorProps(el: Element | undefined): number[] | null {
  if (!el) return null;
  const idx = [-1, -1, -1];
  el.props.forEach((p, i) => {
    const c = COLOR_NAMES[p.name];
    if (c !== undefined && !p.countType && idx[c] === -1) idx[c] = i;
  });
  return idx.every((i) => i >= 0) ? idx : null;
}

/**
 * Parses PLY (ascii, binary_little_endian, binary_big_endian): vertex x y z, colours per vertex or per face
 * (red green blue), faces (polygons fan-triangulated; any list count type; other lists such as texcoord skipped).
 * Face colours (label colours of segmentation tools) are used when the vertices have none: a vertex whose faces
 * differ in colour is split, one copy per colour, so every face keeps its colour exactly.
 */
export function parsePly(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  const header = readPlyHeader(bytes) ?? fail(bytes.length >= PLY_MAX_HEADER ? 'header too long' : 'truncated header');
  const { format, elements, bodyStart } = header;
  const vertexEl = elements.find((e) => e.name === 'vertex') ?? fail('no vertex element');
  const faceEl = elements.find((e) => e.name === 'face');
  const xyz = ['x', 'y', 'z'].map((n) => vertexEl.props.findIndex((p) => p.name === n && !p.countType));
  if (xyz.some((i) => i < 0)) fail('vertex without x y z');
  const colorIdx = colorProps(vertexEl);
  const faceColorIdx = colorIdx ? null : colorProps(faceEl);
  const vcount = vertexEl.count;
  const remaining = bytes.length - bodyStart;
  // Validate counts against the byte length before allocating anything large.
  let minBytes = 0;
  for (const el of elements) {
    let per = 0;
    for (const p of el.props) per += p.countType ? TYPE_SIZE[p.countType] : format === 'ascii' ? 0 : TYPE_SIZE[p.type];
    // ASCII: each value needs at least 2 bytes ("0 ").
    if (format === 'ascii') per = el.props.length * 2;
    minBytes += per * el.count;
  }
  if (minBytes > remaining) fail('truncated: body shorter than element counts');

  const positions = new Float32Array(vcount * 3);
  const colors = colorIdx ? new Uint8Array(vcount * 3) : null;
  let indices: Uint32Array | null = null;
  let faceColors: Uint8Array | null = null; // RGB per triangle

  if (format === 'ascii') {
    const s = new ByteScanner(bytes, 'ply');
    s.pos = bodyStart;
    const tri = new GrowU32();
    const triColors = faceColorIdx ? new GrowU8() : null;
    const poly: number[] = [];
    const rgb = [0, 0, 0];
    for (const el of elements) {
      const isVertex = el === vertexEl;
      const isFace = el === faceEl;
      const faceProp = isFace ? el.props.findIndex((p) => !!p.countType && FACE_LISTS.has(p.name)) : -1;
      for (let r = 0; r < el.count; r++) {
        s.skipSpace();
        if (s.atEnd()) fail(`truncated in ${el.name} ${r}`);
        let polyTriangles = 0;
        for (let pi = 0; pi < el.props.length; pi++) {
          const p = el.props[pi]!;
          if (p.countType) {
            const n = s.number();
            if (!Number.isInteger(n) || n < 0 || n > 1_000_000) fail('bad list length');
            poly.length = 0;
            for (let k = 0; k < n; k++) poly.push(s.number());
            if (pi === faceProp) polyTriangles = emitPolygon(poly, vcount, tri);
          } else {
            const v = s.number();
            if (isVertex) {
              if (pi === xyz[0]) positions[r * 3] = v;
              else if (pi === xyz[1]) positions[r * 3 + 1] = v;
              else if (pi === xyz[2]) positions[r * 3 + 2] = v;
              else if (colors) {
                const c = colorIdx!.indexOf(pi);
                if (c >= 0) colors[r * 3 + c] = toColorByte(v, p.type);
              }
            } else if (isFace && faceColorIdx) {
              const c = faceColorIdx.indexOf(pi);
              if (c >= 0) rgb[c] = toColorByte(v, p.type);
            }
          }
        }
        if (triColors) for (let k = 0; k < polyTriangles; k++) triColors.push3(rgb[0]!, rgb[1]!, rgb[2]!);
        s.skipInlineSpace();
        if (!s.atLineEnd()) fail(`extra values in ${el.name} ${r}`);
      }
    }
    indices = faceEl ? tri.result() : null;
    faceColors = triColors ? triColors.result() : null;
  } else {
    const le = format === 'le';
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let p = bodyStart;
    const end = bytes.length;
    for (const el of elements) {
      const isVertex = el === vertexEl;
      const fixed = el.props.every((q) => !q.countType);
      if (fixed) {
        const offs: number[] = [];
        let stride = 0;
        for (const q of el.props) {
          offs.push(stride);
          stride += TYPE_SIZE[q.type];
        }
        if (p + stride * el.count > end) fail(`truncated in ${el.name}`);
        if (isVertex) {
          const [ix, iy, iz] = xyz as [number, number, number];
          const tx = el.props[ix]!.type,
            ty = el.props[iy]!.type,
            tz = el.props[iz]!.type;
          const ox = offs[ix]!,
            oy = offs[iy]!,
            oz = offs[iz]!;
          if (le && tx === 'f32' && ty === 'f32' && tz === 'f32') {
            for (let r = 0; r < el.count; r++, p += stride) {
              positions[r * 3] = dv.getFloat32(p + ox, true);
              positions[r * 3 + 1] = dv.getFloat32(p + oy, true);
              positions[r * 3 + 2] = dv.getFloat32(p + oz, true);
            }
          } else {
            for (let r = 0; r < el.count; r++, p += stride) {
              positions[r * 3] = read(dv, p + ox, tx, le);
              positions[r * 3 + 1] = read(dv, p + oy, ty, le);
              positions[r * 3 + 2] = read(dv, p + oz, tz, le);
            }
          }
          if (colors) {
            const base = p - stride * el.count;
            for (let c = 0; c < 3; c++) {
              const ci = colorIdx![c]!;
              const t = el.props[ci]!.type;
              const o = offs[ci]!;
              if (t === 'u8') for (let r = 0; r < el.count; r++) colors[r * 3 + c] = bytes[base + r * stride + o]!;
              else
                for (let r = 0; r < el.count; r++)
                  colors[r * 3 + c] = toColorByte(read(dv, base + r * stride + o, t, le), t);
            }
          }
        } else p += stride * el.count;
        continue;
      }
      // Elements with list properties: walk once to count triangles and check bounds, then fill.
      const faceProp = el === faceEl ? el.props.findIndex((q) => !!q.countType && FACE_LISTS.has(q.name)) : -1;
      const only = el.props.length === 1 ? el.props[0]! : null;
      if (faceProp === 0 && only && only.countType === 'u8' && (only.type === 'i32' || only.type === 'u32') && le) {
        // Fast path for the usual layout: `property list uchar int vertex_indices`, little-endian.
        const start0 = p;
        let tc = 0;
        for (let r = 0; r < el.count; r++) {
          if (p >= end) fail(`truncated in ${el.name} ${r}`);
          const n = bytes[p]!;
          p += 1 + 4 * n;
          if (n >= 3) tc += n - 2;
        }
        if (p > end) fail(`truncated in ${el.name}`);
        indices = new Uint32Array(tc * 3);
        let o = 0;
        let q0 = start0;
        for (let r = 0; r < el.count; r++) {
          const n = bytes[q0]!;
          q0 += 1;
          if (n >= 3) {
            const a = dv.getInt32(q0, true);
            let prev = dv.getInt32(q0 + 4, true);
            if (a < 0 || a >= vcount || prev < 0 || prev >= vcount) fail('face index out of range');
            for (let k = 2; k < n; k++) {
              const c = dv.getInt32(q0 + 4 * k, true);
              if (c < 0 || c >= vcount) fail('face index out of range');
              indices[o++] = a;
              indices[o++] = prev;
              indices[o++] = c;
              prev = c;
            }
          }
          q0 += 4 * n;
        }
        continue;
      }
      const start = p;
      let triCount = 0;
      for (let r = 0; r < el.count; r++) {
        for (let pi = 0; pi < el.props.length; pi++) {
          const q = el.props[pi]!;
          if (q.countType) {
            const cs = TYPE_SIZE[q.countType];
            if (p + cs > end) fail(`truncated in ${el.name} ${r}`);
            const n = read(dv, p, q.countType, le);
            if (!Number.isInteger(n) || n < 0) fail('bad list length');
            p += cs + n * TYPE_SIZE[q.type];
            if (p > end) fail(`truncated in ${el.name} ${r}`);
            if (pi === faceProp && n >= 3) triCount += n - 2;
          } else p += TYPE_SIZE[q.type];
        }
      }
      if (p > end) fail(`truncated in ${el.name}`);
      if (faceProp >= 0) {
        indices = new Uint32Array(triCount * 3);
        const triColors = faceColorIdx ? new Uint8Array(triCount * 3) : null;
        const rgb = [0, 0, 0];
        let o = 0;
        let q0 = start;
        for (let r = 0; r < el.count; r++) {
          const firstTriangle = o / 3;
          for (let pi = 0; pi < el.props.length; pi++) {
            const q = el.props[pi]!;
            if (q.countType) {
              const n = read(dv, q0, q.countType, le);
              q0 += TYPE_SIZE[q.countType];
              const isz = TYPE_SIZE[q.type];
              if (pi === faceProp && n >= 3) {
                const a = read(dv, q0, q.type, le);
                let prev = read(dv, q0 + isz, q.type, le);
                if (a < 0 || a >= vcount || prev < 0 || prev >= vcount) fail('face index out of range');
                for (let k = 2; k < n; k++) {
                  const c = read(dv, q0 + k * isz, q.type, le);
                  if (c < 0 || c >= vcount || !Number.isInteger(c)) fail('face index out of range');
                  indices[o++] = a;
                  indices[o++] = prev;
                  indices[o++] = c;
                  prev = c;
                }
              }
              q0 += n * isz;
            } else {
              const c = faceColorIdx ? faceColorIdx.indexOf(pi) : -1;
              if (c >= 0) rgb[c] = toColorByte(read(dv, q0, q.type, le), q.type);
              q0 += TYPE_SIZE[q.type];
            }
          }
          if (triColors)
            for (let t = firstTriangle; t < o / 3; t++) {
              triColors[t * 3] = rgb[0]!;
              triColors[t * 3 + 1] = rgb[1]!;
              triColors[t * 3 + 2] = rgb[2]!;
            }
        }
        faceColors = triColors;
      }
    }
  }
  for (let i = 0; i < positions.length; i++) if (!Number.isFinite(positions[i]!)) fail('non-finite coordinate');
  if (vcount === 0) fail('no vertices');
  if (!indices || indices.length === 0) fail('no faces');
  if (faceColors) return faceColorsOntoVertices(positions, indices!, faceColors);
  return { positions, indices, colors };
}

/** Fan-triangulates one polygon; answers the number of triangles it made. */
function emitPolygon(poly: number[], vcount: number, out: GrowU32): number {
  if (poly.length < 3) return 0;
  for (const v of poly) if (!Number.isInteger(v) || v < 0 || v >= vcount) fail('face index out of range');
  for (let k = 2; k < poly.length; k++) {
    out.push(poly[0]!);
    out.push(poly[k - 1]!);
    out.push(poly[k]!);
  }
  return poly.length - 2;
}

/**
 * Moves per-triangle colours onto the vertices: a vertex keeps the colour of its first triangle, and gets one
 * extra copy for each other colour its triangles have. Every triangle then has its own colour at all three
 * corners, so it is drawn in that colour exactly (segmentation labels keep sharp borders).
 */
export function faceColorsOntoVertices(positions: Float32Array, indices: Uint32Array, faceColors: Uint8Array) {
  const vcount = positions.length / 3;
  const kept = new Int32Array(vcount).fill(-1); // the 24-bit colour each vertex keeps
  const copies = new Map<number, number>(); // vertex × 2^24 + colour → its copy (exact: vertex counts < 2^29)
  const copyOf: number[] = [];
  const out = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    const t = (i / 3) | 0;
    const c = (faceColors[t * 3]! << 16) | (faceColors[t * 3 + 1]! << 8) | faceColors[t * 3 + 2]!;
    if (kept[v] === -1) kept[v] = c;
    if (kept[v] === c) {
      out[i] = v;
      continue;
    }
    const key = v * 0x1000000 + c;
    let copy = copies.get(key);
    if (copy === undefined) {
      copy = vcount + copyOf.length / 2;
      copies.set(key, copy);
      copyOf.push(v, c);
    }
    out[i] = copy;
  }
  const total = vcount + copyOf.length / 2;
  const pos = new Float32Array(total * 3);
  pos.set(positions);
  const colors = new Uint8Array(total * 3);
  const setColor = (v: number, c: number) => {
    colors[v * 3] = c >>> 16;
    colors[v * 3 + 1] = (c >>> 8) & 255;
    colors[v * 3 + 2] = c & 255;
  };
  for (let v = 0; v < vcount; v++) if (kept[v]! >= 0) setColor(v, kept[v]!);
  for (let k = 0; k < copyOf.length; k += 2) {
    const v = vcount + k / 2;
    const src = copyOf[k]!;
    pos[v * 3] = positions[src * 3]!;
    pos[v * 3 + 1] = positions[src * 3 + 1]!;
    pos[v * 3 + 2] = positions[src * 3 + 2]!;
    setColor(v, copyOf[k + 1]!);
  }
  return { positions: pos, indices: out, colors };
}
