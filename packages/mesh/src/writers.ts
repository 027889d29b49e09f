/** Mesh writers (browser- and node-safe): binary/ASCII STL, binary/ASCII PLY with vertex or face colours, OBJ. */
import type { MeshData } from './types.js';

const enc = new TextEncoder();

function triIndex(mesh: MeshData): (i: number) => number {
  const idx = mesh.indices;
  return idx ? (i) => idx[i]! : (i) => i;
}
function triCountOf(mesh: MeshData): number {
  return mesh.indices ? mesh.indices.length / 3 : mesh.positions.length / 9;
}

/** Binary STL: 80-byte header, uint32 count, 50 bytes per triangle (facet normal, 3 vertices, attribute 0). */
export function toBinaryStl(mesh: MeshData, header = 'portal-mesh binary STL'): Uint8Array {
  const n = triCountOf(mesh);
  const out = new Uint8Array(84 + 50 * n);
  out.set(enc.encode(header.slice(0, 80)));
  const dv = new DataView(out.buffer);
  dv.setUint32(80, n, true);
  const p = mesh.positions;
  const at = triIndex(mesh);
  let o = 84;
  for (let t = 0; t < n; t++) {
    const a = at(t * 3) * 3,
      b = at(t * 3 + 1) * 3,
      c = at(t * 3 + 2) * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    let nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz) || 1;
    nx /= l;
    ny /= l;
    nz /= l;
    dv.setFloat32(o, nx, true);
    dv.setFloat32(o + 4, ny, true);
    dv.setFloat32(o + 8, nz, true);
    dv.setFloat32(o + 12, p[a]!, true);
    dv.setFloat32(o + 16, p[a + 1]!, true);
    dv.setFloat32(o + 20, p[a + 2]!, true);
    dv.setFloat32(o + 24, p[b]!, true);
    dv.setFloat32(o + 28, p[b + 1]!, true);
    dv.setFloat32(o + 32, p[b + 2]!, true);
    dv.setFloat32(o + 36, p[c]!, true);
    dv.setFloat32(o + 40, p[c + 1]!, true);
    dv.setFloat32(o + 44, p[c + 2]!, true);
    o += 50;
  }
  return out;
}

const num = (v: number) => String(Math.round(v * 1e6) / 1e6);

export function toAsciiStl(mesh: MeshData, name = 'portal'): Uint8Array {
  const n = triCountOf(mesh);
  const p = mesh.positions;
  const at = triIndex(mesh);
  const parts: string[] = [`solid ${name}\n`];
  for (let t = 0; t < n; t++) {
    parts.push(' facet normal 0 0 0\n  outer loop\n');
    for (let k = 0; k < 3; k++) {
      const v = at(t * 3 + k) * 3;
      parts.push(`   vertex ${num(p[v]!)} ${num(p[v + 1]!)} ${num(p[v + 2]!)}\n`);
    }
    parts.push('  endloop\n endfacet\n');
  }
  parts.push(`endsolid ${name}\n`);
  return enc.encode(parts.join(''));
}

export interface PlyOptions {
  /** Binary (default) or ascii. */
  binary?: boolean;
  /** binary_big_endian instead of binary_little_endian. */
  bigEndian?: boolean;
  /** RGB per triangle, written as face `red green blue alpha` (as segmentation tools label faces). */
  faceColors?: Uint8Array;
  /** The type of the face lists' counts: `uchar` (default) or `int` (as some scanners write them). */
  listCount?: 'uchar' | 'int';
  /** Adds a `texcoord` list of 6 floats to every face (as textured scanner exports carry). */
  texcoords?: boolean;
}

/** PLY with vertex colours when present (and face colours when given). */
export function toPly(mesh: MeshData, opts: PlyOptions = {}): Uint8Array {
  const binary = opts.binary !== false;
  const le = !opts.bigEndian;
  const intCount = opts.listCount === 'int';
  const p = mesh.positions;
  const vcount = p.length / 3;
  const n = triCountOf(mesh);
  const at = triIndex(mesh);
  const col = mesh.colors;
  const fc = opts.faceColors ?? null;
  const format = binary ? (le ? 'binary_little_endian' : 'binary_big_endian') : 'ascii';
  const header =
    `ply\nformat ${format} 1.0\ncomment portal-mesh\n` +
    `element vertex ${vcount}\nproperty float x\nproperty float y\nproperty float z\n` +
    (col ? 'property uchar red\nproperty uchar green\nproperty uchar blue\n' : '') +
    `element face ${n}\nproperty list ${intCount ? 'int' : 'uchar'} int vertex_indices\n` +
    (opts.texcoords ? 'property list uchar float texcoord\n' : '') +
    (fc ? 'property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n' : '') +
    'end_header\n';
  const h = enc.encode(header);
  const uv = (t: number, k: number) => ((t * 6 + k) % 97) / 97;
  if (!binary) {
    const parts: string[] = [header];
    for (let v = 0; v < vcount; v++) {
      parts.push(
        `${num(p[v * 3]!)} ${num(p[v * 3 + 1]!)} ${num(p[v * 3 + 2]!)}` +
          (col ? ` ${col[v * 3]} ${col[v * 3 + 1]} ${col[v * 3 + 2]}\n` : '\n'),
      );
    }
    for (let t = 0; t < n; t++) {
      let line = `3 ${at(t * 3)} ${at(t * 3 + 1)} ${at(t * 3 + 2)}`;
      if (opts.texcoords) line += ' 6 ' + [0, 1, 2, 3, 4, 5].map((k) => num(uv(t, k))).join(' ');
      if (fc) line += ` ${fc[t * 3]} ${fc[t * 3 + 1]} ${fc[t * 3 + 2]} 255`;
      parts.push(line + '\n');
    }
    return enc.encode(parts.join(''));
  }
  const vstride = col ? 15 : 12;
  const fstride = (intCount ? 4 : 1) + 12 + (opts.texcoords ? 1 + 24 : 0) + (fc ? 4 : 0);
  const out = new Uint8Array(h.length + vcount * vstride + n * fstride);
  out.set(h);
  const dv = new DataView(out.buffer);
  let o = h.length;
  for (let v = 0; v < vcount; v++) {
    dv.setFloat32(o, p[v * 3]!, le);
    dv.setFloat32(o + 4, p[v * 3 + 1]!, le);
    dv.setFloat32(o + 8, p[v * 3 + 2]!, le);
    if (col) {
      out[o + 12] = col[v * 3]!;
      out[o + 13] = col[v * 3 + 1]!;
      out[o + 14] = col[v * 3 + 2]!;
    }
    o += vstride;
  }
  for (let t = 0; t < n; t++) {
    if (intCount) {
      dv.setInt32(o, 3, le);
      o += 4;
    } else out[o++] = 3;
    dv.setInt32(o, at(t * 3), le);
    dv.setInt32(o + 4, at(t * 3 + 1), le);
    dv.setInt32(o + 8, at(t * 3 + 2), le);
    o += 12;
    if (opts.texcoords) {
      out[o++] = 6;
      for (let k = 0; k < 6; k++, o += 4) dv.setFloat32(o, uv(t, k), le);
    }
    if (fc) {
      out[o] = fc[t * 3]!;
      out[o + 1] = fc[t * 3 + 1]!;
      out[o + 2] = fc[t * 3 + 2]!;
      out[o + 3] = 255;
      o += 4;
    }
  }
  return out;
}

/** OBJ (v with optional 0–1 colour floats, f 1-based). */
export function toObj(mesh: MeshData): Uint8Array {
  const p = mesh.positions;
  const col = mesh.colors;
  const vcount = p.length / 3;
  const n = triCountOf(mesh);
  const at = triIndex(mesh);
  const parts: string[] = ['# portal-mesh\n'];
  const c = (v: number) => String(Math.round((v / 255) * 1e4) / 1e4);
  for (let v = 0; v < vcount; v++) {
    parts.push(
      `v ${num(p[v * 3]!)} ${num(p[v * 3 + 1]!)} ${num(p[v * 3 + 2]!)}` +
        (col ? ` ${c(col[v * 3]!)} ${c(col[v * 3 + 1]!)} ${c(col[v * 3 + 2]!)}\n` : '\n'),
    );
  }
  for (let t = 0; t < n; t++) parts.push(`f ${at(t * 3) + 1} ${at(t * 3 + 1) + 1} ${at(t * 3 + 2) + 1}\n`);
  return enc.encode(parts.join(''));
}
