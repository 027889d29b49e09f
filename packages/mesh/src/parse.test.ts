import { describe, expect, it } from 'vitest';
import {
  MeshParseError,
  detectMeshFormat,
  parseAsciiStl,
  parseMesh,
  parseObj,
  parsePly,
  parseStl,
  toAsciiStl,
  toBinaryStl,
  toObj,
  toPly,
  generateArch,
  weldMesh,
  computeVertexNormals,
  computeBounds,
} from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);
// a unit square as two triangles, with colours
const quad = {
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
  indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
  colors: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]),
};

function expectParseError(fn: () => unknown, re?: RegExp) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(MeshParseError);
  if (re) expect((err as MeshParseError).reason).toMatch(re);
}

describe('STL', () => {
  it('reads binary STL as unindexed triangles', () => {
    const m = parseStl(toBinaryStl(quad));
    expect(m.indices).toBeNull();
    expect(m.colors).toBeNull();
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0]);
  });
  it('reads binary STL whose header starts with "solid"', () => {
    const m = parseStl(toBinaryStl(quad, 'solid but binary, facet vertex'));
    expect(m.positions.length).toBe(18);
  });
  it('reads ASCII STL', () => {
    const m = parseStl(toAsciiStl(quad));
    expect(m.positions.length).toBe(18);
    expect(m.positions[6]).toBe(1);
    const m2 = parseAsciiStl(
      enc(
        'solid x\nfacet normal 0 0 1\nouter loop\nvertex 1e1 -2.5 +3\nvertex 0 0 0\nvertex 1 1 1\nendloop\nendfacet\nendsolid x\n',
      ),
    );
    expect(Array.from(m2.positions.slice(0, 3))).toEqual([10, -2.5, 3]);
  });
  it('rejects truncated binary and ASCII STL', () => {
    const b = toBinaryStl(quad);
    expectParseError(() => parseStl(b.subarray(0, b.length - 7)), /truncated/);
    expectParseError(() => parseStl(b.subarray(0, 50)), /short/);
    const a = toAsciiStl(quad);
    expectParseError(() => parseStl(a.subarray(0, a.length - 60)));
  });
  it('rejects a huge declared count without allocating', () => {
    const b = new Uint8Array(200);
    new DataView(b.buffer).setUint32(80, 0xffffffff, true);
    expectParseError(() => parseStl(b), /truncated/);
  });
  it('rejects garbage', () => {
    expectParseError(() => parseStl(enc('solid x\nfacet normal 0 0 1\nouter loop\nvertex a b c\n')), /number/);
    expectParseError(() => parseAsciiStl(enc('solid x\nhello\n')), /unexpected/);
  });
});

describe('PLY', () => {
  it('reads binary little-endian PLY with colours', () => {
    const m = parsePly(toPly(quad, { binary: true }));
    expect(Array.from(m.positions)).toEqual(Array.from(quad.positions));
    expect(Array.from(m.indices!)).toEqual(Array.from(quad.indices));
    expect(Array.from(m.colors!)).toEqual(Array.from(quad.colors));
  });
  it('reads ASCII PLY with colours and without', () => {
    const m = parsePly(toPly(quad, { binary: false }));
    expect(Array.from(m.colors!)).toEqual(Array.from(quad.colors));
    expect(Array.from(m.indices!)).toEqual(Array.from(quad.indices));
    const n = parsePly(toPly({ ...quad, colors: null }, { binary: false }));
    expect(n.colors).toBeNull();
  });
  it('triangulates polygons, skips extra properties and elements, reads big-endian', () => {
    const text =
      'ply\nformat ascii 1.0\ncomment hi\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nproperty float nx\n' +
      'element face 1\nproperty list uchar int vertex_indices\nproperty uchar flags\nelement edge 1\nproperty int a\nproperty int b\nend_header\n' +
      '0 0 0 9\n1 0 0 9\n1 1 0 9\n0 1 0 9\n4 0 1 2 3 7\n0 1\n';
    const m = parsePly(enc(text));
    expect(Array.from(m.indices!)).toEqual([0, 1, 2, 0, 2, 3]);
    // big endian: 3 vertices + 1 triangle
    const head = enc(
      'ply\nformat binary_big_endian 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\nelement face 1\nproperty list uchar uint vertex_indices\nend_header\n',
    );
    const body = new DataView(new ArrayBuffer(3 * 24 + 1 + 12));
    [0, 0, 0, 2, 0, 0, 0, 2, 0].forEach((v, i) => body.setFloat64(i * 8, v, false));
    body.setUint8(72, 3);
    [0, 1, 2].forEach((v, i) => body.setUint32(73 + i * 4, v, false));
    const buf = new Uint8Array(head.length + body.byteLength);
    buf.set(head);
    buf.set(new Uint8Array(body.buffer), head.length);
    const be = parsePly(buf);
    expect(Array.from(be.positions)).toEqual([0, 0, 0, 2, 0, 0, 0, 2, 0]);
    expect(Array.from(be.indices!)).toEqual([0, 1, 2]);
  });
  it('rejects truncated files, bad indices and absurd counts', () => {
    const b = toPly(quad, { binary: true });
    for (const cut of [5, 30, b.length - 20, b.length - 1]) expectParseError(() => parsePly(b.subarray(0, cut)));
    const a = toPly(quad, { binary: false });
    expectParseError(() => parsePly(a.subarray(0, a.length - 8)));
    expectParseError(
      () =>
        parsePly(
          enc(
            'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n',
          ),
        ),
      /range/,
    );
    expectParseError(
      () =>
        parsePly(
          enc(
            'ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nend_header\n\0\0\0\0',
          ),
        ),
      /truncated/,
    );
    expectParseError(() => parsePly(enc('ply\nformat weird 1.0\nend_header\n')), /format/);
    expectParseError(() => parsePly(enc('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n')), /header/);
  });
});

describe('OBJ', () => {
  it('reads v/vt/vn forms, negative indices, polygons and float colours', () => {
    const text =
      '# c\nmtllib a.mtl\no thing\nv 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 1 1 0 0 0 1\nv 0 1 0 0.5 0.5 0.5\nvt 0 0\nvn 0 0 1\n' +
      's off\nf 1/1/1 2/1/1 3/1/1\nf -4//1 -2//1 -1//1\nf 1/1 2/1 3/1 4/1\n';
    const m = parseObj(enc(text));
    expect(Array.from(m.indices!)).toEqual([0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 2, 3]);
    expect(Array.from(m.colors!.slice(0, 3))).toEqual([255, 0, 0]);
    expect(m.colors![9]).toBe(128);
  });
  it('round-trips the writer; no colours when some vertices lack them', () => {
    const m = parseObj(toObj(quad));
    expect(Array.from(m.indices!)).toEqual(Array.from(quad.indices));
    expect(Array.from(m.colors!)).toEqual(Array.from(quad.colors));
    expect(parseObj(enc('v 0 0 0 1 1 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n')).colors).toBeNull();
  });
  it('rejects bad references and garbage', () => {
    expectParseError(() => parseObj(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n')), /range/);
    expectParseError(() => parseObj(enc('v 0 0 0\nf 1 0 1\n')), /range/);
    expectParseError(() => parseObj(enc('v 0 0\n')), /number/);
    expectParseError(() => parseObj(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\n')), /no faces/);
    expectParseError(() => parseObj(enc('hello world\n')), /unknown/);
  });
});

describe('detectMeshFormat / parseMesh', () => {
  const m = { ...quad };
  it('detects by content, not by name', () => {
    expect(detectMeshFormat(toBinaryStl(m))).toBe('stl');
    expect(detectMeshFormat(toAsciiStl(m))).toBe('stl');
    expect(detectMeshFormat(toPly(m, { binary: true }))).toBe('ply');
    expect(detectMeshFormat(toPly(m, { binary: false }))).toBe('ply');
    expect(detectMeshFormat(toObj(m))).toBe('obj');
  });
  it('rejects other content', () => {
    expect(detectMeshFormat(enc('%PDF-1.7\n...'))).toBeNull();
    expect(detectMeshFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0]))).toBeNull();
    expect(detectMeshFormat(new Uint8Array(0))).toBeNull();
    expect(detectMeshFormat(enc('solid only a name\n'))).toBeNull();
    expect(detectMeshFormat(enc('<html><body>v 1 2 3</body></html>'))).toBeNull();
    const rnd = new Uint8Array(5000).map((_, i) => (i * 7919) & 255);
    expect(detectMeshFormat(rnd)).toBeNull();
    expectParseError(() => parseMesh(rnd));
  });
  it('accepts a binary STL with a few trailing bytes, not with more', () => {
    const b = toBinaryStl(m);
    const padded = new Uint8Array(b.length + 2);
    padded.set(b);
    expect(detectMeshFormat(padded)).toBe('stl');
    expect(parseStl(padded).positions.length).toBe(18);
    const long = new Uint8Array(b.length + 5000);
    long.set(b);
    expect(detectMeshFormat(long)).toBeNull();
    expectParseError(() => parseStl(long), /size does not match/);
  });
  it('never hangs on random input for any parser', () => {
    let seed = 1;
    for (let n = 0; n < 200; n++) {
      const len = (n * 37) % 700;
      const bytes = new Uint8Array(len);
      for (let i = 0; i < len; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
      if (n % 3 === 0) bytes.set(enc('ply\n').subarray(0, Math.min(4, len)));
      for (const p of [parseStl, parsePly, parseObj, parseMesh]) {
        try {
          p(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(MeshParseError);
        }
      }
    }
  });
});

describe('geometry helpers', () => {
  it('welds STL triangles back into an indexed mesh', () => {
    const w = weldMesh(parseStl(toBinaryStl(quad)));
    expect(w.mesh.positions.length).toBe(12);
    expect(w.mesh.indices.length).toBe(6);
    expect(w.remap.length).toBe(6);
  });
  it('computes unit normals and bounds', () => {
    const n = computeVertexNormals(quad.positions, quad.indices);
    expect(Array.from(n.slice(0, 3))).toEqual([0, 0, 1]);
    expect(computeBounds(quad.positions)).toEqual({ min: [0, 0, 0], max: [1, 1, 0] });
  });
  it('parses a generated scan through every writer identically', () => {
    const g = generateArch({ jaw: 'lower', triangles: 20_000, seed: 3 });
    const fromPly = parsePly(toPly(g));
    expect(fromPly.positions).toEqual(g.positions);
    expect(fromPly.colors).toEqual(g.colors);
    const fromStl = weldMesh(parseStl(toBinaryStl(g))).mesh;
    expect(fromStl.indices.length).toBe(g.indices.length);
    const fromObj = parseObj(toObj(g));
    expect(fromObj.indices).toEqual(g.indices);
  });
});
