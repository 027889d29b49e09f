/** The layouts real exports and scanners write, made from one synthetic arch: every parser must read them whole. */
import { describe, expect, it } from 'vitest';
import {
  MeshParseError,
  detectMeshFormat,
  generateArch,
  parseMesh,
  parseObj,
  parsePly,
  parseStl,
  toAsciiStl,
  toBinaryStl,
  toObj,
  toPly,
  weldMesh,
  type MeshData,
} from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const arch = generateArch({ jaw: 'lower', triangles: 4000, seed: 5 });
const upper = generateArch({ jaw: 'upper', triangles: 4000, seed: 5 });
const triangles = (m: MeshData) => (m.indices ? m.indices.length / 3 : m.positions.length / 9);

/** Label colours per triangle, as a segmentation tool writes them: one colour per tooth band along x. */
const labels = (() => {
  const palette = [
    [255, 0, 0],
    [0, 200, 0],
    [30, 60, 255],
    [250, 250, 0],
  ];
  const c = new Uint8Array(triangles(arch) * 3);
  for (let t = 0; t < triangles(arch); t++) {
    const x = arch.positions[arch.indices[t * 3]! * 3]!;
    c.set(palette[Math.floor(x / 8 + 100) % palette.length]!, t * 3);
  }
  return c;
})();

/** Every triangle's three corners carry its label colour, at the positions of the original triangle. */
function expectFaceColours(m: MeshData) {
  expect(triangles(m)).toBe(triangles(arch));
  expect(m.colors).not.toBeNull();
  for (let t = 0; t < triangles(arch); t++) {
    for (let k = 0; k < 3; k++) {
      const v = m.indices![t * 3 + k]!;
      const src = arch.indices[t * 3 + k]!;
      expect(Array.from(m.colors!.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(labels.subarray(t * 3, t * 3 + 3)));
      for (let a = 0; a < 3; a++) expect(m.positions[v * 3 + a]).toBeCloseTo(arch.positions[src * 3 + a]!, 5);
    }
  }
}

describe('ASCII STL with several solids', () => {
  it('reads every solid of the file, not only the first', () => {
    const both = enc(dec(toAsciiStl(upper, 'upper')) + dec(toAsciiStl(arch, 'lower')));
    expect(detectMeshFormat(both)).toBe('stl');
    const m = parseStl(both);
    expect(triangles(m)).toBe(triangles(upper) + triangles(arch));
    // The last triangle is the lower arch's last one.
    const last = arch.indices[arch.indices.length - 1]! * 3;
    expect(Array.from(m.positions.slice(-3))).toEqual(
      Array.from(arch.positions.subarray(last, last + 3)).map((v) => Math.fround(Math.round(v * 1e6) / 1e6)),
    );
  });
  it('still refuses text after the last endsolid, and solids inside solids', () => {
    const one = dec(toAsciiStl(arch));
    expect(() => parseStl(enc(`${one}garbage\n`))).toThrow(MeshParseError);
    expect(() => parseStl(enc(one.replace(' endfacet\n', ' endfacet\nsolid inner\n')))).toThrow(/inside a solid/);
  });
});

describe('binary STL header count', () => {
  it('reads a count of 0 from the size when the size is consistent', () => {
    const stl = toBinaryStl(arch);
    new DataView(stl.buffer).setUint32(80, 0, true);
    expect(detectMeshFormat(stl)).toBe('stl');
    expect(triangles(parseStl(stl))).toBe(triangles(arch));
    expect(weldMesh(parseStl(stl)).mesh.indices.length).toBe(arch.indices.length);
  });
  it('does not take other content of a fitting size for a count-0 STL', () => {
    const noise = new Uint8Array(84 + 50 * 100).map((_, i) => (i * 7919 + 13) & 255);
    noise.fill(0, 80, 84);
    expect(detectMeshFormat(noise)).toBeNull();
    expect(() => parseStl(noise)).toThrow(MeshParseError);
    // Nor a file of the right size that is empty past a header (here a PNG's).
    const blank = new Uint8Array(84 + 50 * 100);
    blank.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(detectMeshFormat(blank)).toBeNull();
    // An empty binary STL is an STL, without triangles.
    expect(detectMeshFormat(new Uint8Array(84))).toBe('stl');
    expect(() => parseStl(new Uint8Array(84))).toThrow(/no triangles/);
  });
});

describe('PLY layouts', () => {
  it('keeps per-face colours (binary, ascii, big-endian), splitting vertices where labels meet', () => {
    for (const opts of [{ binary: true }, { binary: false }, { binary: true, bigEndian: true }]) {
      const mesh = { positions: arch.positions, indices: arch.indices, colors: null };
      const m = parsePly(toPly(mesh, { ...opts, faceColors: labels }));
      expectFaceColours(m);
      // Only vertices on a border between labels are split.
      const extra = m.positions.length / 3 - arch.positions.length / 3;
      expect(extra).toBeGreaterThan(0);
      expect(extra).toBeLessThan(arch.positions.length / 3 / 4);
    }
  });
  it('prefers vertex colours when a file has both', () => {
    const m = parsePly(toPly(arch, { faceColors: labels }));
    expect(m.colors).toEqual(arch.colors);
    expect(m.indices).toEqual(arch.indices);
  });
  it('reads big-endian files with vertex colours the same as little-endian ones', () => {
    const be = parsePly(toPly(arch, { bigEndian: true }));
    expect(dec(toPly(arch, { bigEndian: true }).subarray(0, 40))).toContain('binary_big_endian');
    expect(be.positions).toEqual(arch.positions);
    expect(be.indices).toEqual(arch.indices);
    expect(be.colors).toEqual(arch.colors);
  });
  it('reads the iTero-style layout: int list counts and texcoord lists, little- and big-endian', () => {
    for (const bigEndian of [false, true]) {
      const bytes = toPly(arch, { listCount: 'int', texcoords: true, bigEndian });
      expect(dec(bytes.subarray(0, 400))).toContain('property list int int vertex_indices');
      const m = parseMesh(bytes, 'ply');
      expect(m.positions).toEqual(arch.positions);
      expect(m.indices).toEqual(arch.indices);
      expect(m.colors).toEqual(arch.colors);
    }
    const ascii = parsePly(toPly(arch, { listCount: 'int', texcoords: true, binary: false }));
    expect(ascii.indices).toEqual(arch.indices);
  });
  it('reads a header with a comment before the format line', () => {
    const bytes = toPly(arch);
    const head = 'ply\nformat binary_little_endian 1.0\ncomment portal-mesh\n';
    expect(dec(bytes.subarray(0, head.length))).toBe(head);
    bytes.set(enc('ply\ncomment portal-mesh\nformat binary_little_endian 1.0\n'));
    expect(detectMeshFormat(bytes)).toBe('ply');
    expect(parsePly(bytes).positions).toEqual(arch.positions);
  });
});

describe('OBJ statements', () => {
  it('accepts a vertex weight (v x y z w) and a bare g', () => {
    const text = dec(toObj({ ...arch, colors: null }))
      .replace(/^v (.*)$/gm, 'v $1 1.0')
      .replace('# portal-mesh\n', '# portal-mesh\ng\ns off\n');
    expect(text).toMatch(/^v \S+ \S+ \S+ 1\.0$/m);
    const bytes = enc(text);
    expect(detectMeshFormat(bytes)).toBe('obj');
    const m = parseObj(bytes);
    expect(m.indices).toEqual(arch.indices);
    expect(m.colors).toBeNull();
    expect(m.positions.length).toBe(arch.positions.length);
  });
  it('refuses a vertex line with a wrong number of values', () => {
    expect(() => parseObj(enc('v 0 0 0 1 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'))).toThrow(/5 values/);
    expect(() => parseObj(enc('v 0 0 0 1 1 1 1 1\nf 1 1 1\n'))).toThrow(MeshParseError);
  });
});
