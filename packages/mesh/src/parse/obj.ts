import { MeshParseError, type MeshData } from '../types.js';
import { ByteScanner, GrowF32, GrowU32, GrowU8, isSpace, toU8 } from './text.js';
import { SNIFF_WINDOW, type Verdict } from './stl.js';

const KNOWN = new Set([
  'v',
  'vt',
  'vn',
  'vp',
  'f',
  'l',
  'p',
  'o',
  'g',
  's',
  'usemtl',
  'mtllib',
  'cstype',
  'deg',
  'curv',
  'surf',
  'parm',
  'end',
  'bmat',
  'step',
  'mg',
  'lod',
  'shadow_obj',
  'trace_obj',
  'maplib',
  'usemap',
  'c_interp',
  'd_interp',
  'bevel',
  'ctech',
  'stech',
]);

/**
 * Whether `head` (the first bytes of a file of `size` bytes) is OBJ: every line within SNIFF_WINDOW is empty, a
 * `#` comment, or starts with an OBJ statement (a bare `g` or `s` included), and a `v` line is among them. A window
 * full of OBJ statements without a `v` yet is OBJ too (long group or material preambles).
 */
export function objVerdict(head: Uint8Array, size = head.length): Verdict {
  const end = Math.min(head.length, SNIFF_WINDOW);
  const seenAll = end >= Math.min(size, SNIFF_WINDOW);
  let statements = 0;
  let sawVertex = false;
  for (let p = 0; p < end;) {
    const nl = head.indexOf(10, p);
    const lineEnd = nl < 0 || nl >= end ? end : nl;
    const complete = lineEnd < end || end >= size;
    for (let i = p; i < lineEnd; i++) if (head[i] === 0) return 'no';
    let q = p;
    while (q < lineEnd && isSpace(head[q]!)) q++;
    if (q < lineEnd && head[q] !== 35) {
      let r = q;
      while (r < lineEnd && !isSpace(head[r]!)) {
        const c = head[r]!;
        if (c < 33 || c > 126 || r - q >= 16) return 'no';
        r++;
      }
      // A word cut off by the end of the bytes so far is judged once it is whole.
      if (r < lineEnd || complete) {
        let word = '';
        for (let i = q; i < r; i++) word += String.fromCharCode(head[i]!);
        if (!KNOWN.has(word)) return 'no';
        statements++;
        if (word === 'v') sawVertex = true;
      }
    }
    p = lineEnd + 1;
  }
  if (sawVertex) return 'yes';
  if (!seenAll) return 'more';
  return statements > 0 && end < size ? 'yes' : 'no';
}

/**
 * Parses Wavefront OBJ: `v x y z [w | r g b]`, `f` with v, v/vt, v//vn, v/vt/vn references (negative = relative),
 * polygons fan-triangulated. Vertex colours are kept only when every vertex has them (0–1 floats or 0–255).
 */
export function parseObj(input: ArrayBuffer | ArrayBufferView): MeshData {
  const bytes = toU8(input);
  const s = new ByteScanner(bytes, 'obj');
  const pos = new GrowF32(Math.min(1 << 20, Math.max(1024, Math.floor(bytes.length / 16))));
  const col = new GrowU8();
  const extras = [0, 0, 0, 0];
  let colorVerts = 0;
  let colorMax = 0;
  const tri = new GrowU32(Math.min(1 << 21, Math.max(1024, Math.floor(bytes.length / 8))));
  const poly: number[] = [];
  const b = bytes;
  let line = 0;
  while (!s.atEnd()) {
    line++;
    s.skipInlineSpace();
    if (s.atLineEnd()) {
      s.skipLine();
      continue;
    }
    if (b[s.pos] === 35 /* # */) {
      s.skipLine();
      continue;
    }
    const w = s.word();
    if (w === 'v') {
      const x = s.number();
      const y = s.number();
      const z = s.number();
      pos.push3(x, y, z);
      // After x y z: nothing, a weight w (legal, for rational curves; it does not move the point), or r g b.
      let extra = 0;
      for (; extra < 4; extra++) {
        s.skipInlineSpace();
        if (s.atLineEnd() || b[s.pos] === 35) break;
        extras[extra] = s.number();
      }
      if (extra === 3) {
        const [r, g, bl] = extras as [number, number, number];
        colorMax = Math.max(colorMax, r, g, bl);
        col.push3(clampByte(r), clampByte(g), clampByte(bl));
        colorVerts++;
      } else if (extra !== 0 && extra !== 1) s.fail(`vertex with ${3 + extra} values on line ${line}`);
    } else if (w === 'f') {
      poly.length = 0;
      const nv = pos.n / 3;
      for (;;) {
        s.skipInlineSpace();
        if (s.atLineEnd() || b[s.pos] === 35) break;
        const ref = readInt(s);
        // skip /vt/vn parts
        while (!s.atEnd() && b[s.pos] !== 10 && !isSpace(b[s.pos]!)) {
          const c = b[s.pos]!;
          if (c !== 47 && c !== 45 && (c < 48 || c > 57)) s.fail(`bad face reference on line ${line}`);
          s.pos++;
        }
        const idx = ref < 0 ? nv + ref : ref - 1;
        if (ref === 0 || idx < 0 || idx >= nv) s.fail(`face index out of range on line ${line}`);
        poly.push(idx);
      }
      if (poly.length < 3) s.fail(`face with fewer than 3 vertices on line ${line}`);
      for (let k = 2; k < poly.length; k++) {
        tri.push(poly[0]!);
        tri.push(poly[k - 1]!);
        tri.push(poly[k]!);
      }
    } else if (!KNOWN.has(w)) {
      s.fail(`unknown statement "${w.slice(0, 16)}" on line ${line}`);
    }
    s.skipLine();
  }
  const vcount = pos.n / 3;
  if (vcount === 0) throw new MeshParseError('obj', 'no vertices');
  if (tri.n === 0) throw new MeshParseError('obj', 'no faces');
  let colors: Uint8Array | null = null;
  if (colorVerts === vcount) {
    colors = col.result();
    if (colorMax <= 1) {
      // 0–1 floats: rescale (the bytes above were clamped raw values)
      colors = new Uint8Array(vcount * 3);
      rescanColors(bytes, colors);
    }
  }
  return { positions: pos.result(), indices: tri.result(), colors };
}

function clampByte(v: number): number {
  v = Math.round(v);
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function readInt(s: ByteScanner): number {
  const b = s.bytes;
  let p = s.pos;
  let neg = false;
  if (b[p] === 45) {
    neg = true;
    p++;
  }
  let v = 0;
  let any = false;
  while (p < s.end) {
    const c = b[p]! - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
    if (v > 0xffffffff) s.fail('index too large');
    any = true;
    p++;
  }
  if (!any) s.fail('face index expected');
  s.pos = p;
  return neg ? -v : v;
}

/** Second pass for 0–1 float colours (rare): reads the 4th–6th numbers of every `v` line. */
function rescanColors(bytes: Uint8Array, out: Uint8Array): void {
  const s = new ByteScanner(bytes, 'obj');
  let o = 0;
  while (!s.atEnd()) {
    s.skipInlineSpace();
    if (!s.atLineEnd() && bytes[s.pos] !== 35 && s.word() === 'v') {
      s.number();
      s.number();
      s.number();
      for (let k = 0; k < 3; k++) {
        const v = Math.round(s.number() * 255);
        out[o++] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    s.skipLine();
  }
}
