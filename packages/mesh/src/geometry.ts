import type { Bounds, IndexedMesh, MeshData } from './types.js';

/** Axis-aligned bounds of a position array. Empty input gives zeros. */
export function computeBounds(positions: Float32Array): Bounds {
  if (positions.length < 3) return { min: [0, 0, 0], max: [0, 0, 0] };
  let x0 = Infinity,
    y0 = Infinity,
    z0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    z1 = -Infinity;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i]!,
      y = positions[i + 1]!,
      z = positions[i + 2]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  return { min: [x0, y0, z0], max: [x1, y1, z1] };
}

/** Area-weighted smooth vertex normals (unit length; zero-area vertices get (0,0,1)). */
export function computeVertexNormals(positions: Float32Array, indices: Uint32Array | null): Float32Array {
  const n = new Float32Array(positions.length);
  const triCount = indices ? indices.length / 3 : positions.length / 9;
  const p = positions;
  for (let t = 0; t < triCount; t++) {
    const a = indices ? indices[t * 3]! * 3 : t * 9;
    const b = indices ? indices[t * 3 + 1]! * 3 : t * 9 + 3;
    const c = indices ? indices[t * 3 + 2]! * 3 : t * 9 + 6;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    n[a] = n[a]! + nx;
    n[a + 1] = n[a + 1]! + ny;
    n[a + 2] = n[a + 2]! + nz;
    n[b] = n[b]! + nx;
    n[b + 1] = n[b + 1]! + ny;
    n[b + 2] = n[b + 2]! + nz;
    n[c] = n[c]! + nx;
    n[c + 1] = n[c + 1]! + ny;
    n[c + 2] = n[c + 2]! + nz;
  }
  for (let i = 0; i < n.length; i += 3) {
    const x = n[i]!,
      y = n[i + 1]!,
      z = n[i + 2]!;
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) {
      n[i] = x / l;
      n[i + 1] = y / l;
      n[i + 2] = z / l;
    } else n[i + 2] = 1;
  }
  return n;
}

export interface WeldResult {
  mesh: IndexedMesh;
  /** remap[originalVertex] = welded vertex index */
  remap: Uint32Array;
}

/**
 * Merges vertices with bit-identical position (and colour, when present). STL (unindexed) becomes indexed.
 * Open-addressing hash table on the float bits: linear time, no per-vertex allocation.
 */
export function weldMesh(mesh: MeshData): WeldResult {
  const pos = mesh.positions;
  const vcount = pos.length / 3;
  const bits = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  const col = mesh.colors;
  let cap = 1;
  while (cap < vcount * 2) cap <<= 1;
  const table = new Int32Array(cap).fill(-1);
  const mask = cap - 1;
  const remap = new Uint32Array(vcount);
  const outPos = new Float32Array(vcount * 3);
  const outCol = col ? new Uint8Array(vcount * 3) : null;
  const outBits = new Uint32Array(outPos.buffer);
  let unique = 0;
  for (let v = 0; v < vcount; v++) {
    const i = v * 3;
    // -0 and +0 must weld: normalise the sign bit of zeros
    const x = pos[i] === 0 ? 0 : bits[i]!,
      y = pos[i + 1] === 0 ? 0 : bits[i + 1]!,
      z = pos[i + 2] === 0 ? 0 : bits[i + 2]!;
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
    if (col) h ^= Math.imul(col[i]! | (col[i + 1]! << 8) | (col[i + 2]! << 16), 0x27d4eb2f);
    h ^= h >>> 15;
    let slot = h & mask;
    for (;;) {
      const e = table[slot]!;
      if (e < 0) {
        table[slot] = unique;
        const o = unique * 3;
        outBits[o] = x;
        outBits[o + 1] = y;
        outBits[o + 2] = z;
        if (col && outCol) {
          outCol[o] = col[i]!;
          outCol[o + 1] = col[i + 1]!;
          outCol[o + 2] = col[i + 2]!;
        }
        remap[v] = unique++;
        break;
      }
      const o = e * 3;
      if (
        outBits[o] === x &&
        outBits[o + 1] === y &&
        outBits[o + 2] === z &&
        (!col || !outCol || (outCol[o] === col[i] && outCol[o + 1] === col[i + 1] && outCol[o + 2] === col[i + 2]))
      ) {
        remap[v] = e;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const src = mesh.indices;
  const indices = new Uint32Array(src ? src.length : vcount);
  if (src) for (let i = 0; i < src.length; i++) indices[i] = remap[src[i]!]!;
  else for (let i = 0; i < vcount; i++) indices[i] = remap[i]!;
  return {
    mesh: { positions: outPos.slice(0, unique * 3), indices, colors: outCol ? outCol.slice(0, unique * 3) : null },
    remap,
  };
}
