import { describe, expect, it } from 'vitest';
import { generateArch, meshContentVerdict, parseMesh, toAsciiStl, toBinaryStl, toObj, toPly } from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const arch = generateArch({ jaw: 'upper', triangles: 4000, seed: 8 });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const MB = 1024 * 1024;

/** The verdict on the first `n` bytes of `bytes`, as if the file were `size` bytes long and still arriving. */
const early = (format: 'stl' | 'ply' | 'obj', bytes: Uint8Array, n: number, size = bytes.length) =>
  meshContentVerdict(format, bytes.subarray(0, n), size);

describe('content rules on the first bytes of a file', () => {
  it('decide a binary STL from its 84-byte header and the declared size', () => {
    const stl = toBinaryStl(arch);
    expect(early('stl', stl, 40)).toBe('more');
    expect(early('stl', stl, 84)).toBe('yes');
    expect(early('stl', stl, 84, stl.length + 10)).toBe('yes'); // a few trailing bytes
    expect(early('stl', stl, 84, stl.length + 5000)).toBe('no');
    expect(early('stl', stl, 84, stl.length - 50)).toBe('no'); // truncated
    const zero = stl.slice(0, 4096);
    new DataView(zero.buffer).setUint32(80, 0, true);
    expect(early('stl', zero, 100, stl.length)).toBe('more'); // count 0: the first records must show
    expect(early('stl', zero, 4096, stl.length)).toBe('yes'); // count 0, size consistent
  });
  it('decide ASCII STL, PLY and OBJ from their first lines', () => {
    const ascii = toAsciiStl(arch);
    expect(early('stl', ascii, 10, 50 * MB)).toBe('more');
    expect(early('stl', ascii, 200, 50 * MB)).toBe('yes');
    const ply = toPly(arch);
    expect(early('ply', ply, 30, 50 * MB)).toBe('more');
    expect(early('ply', ply, 400, 50 * MB)).toBe('yes');
    const obj = toObj(arch);
    expect(early('obj', obj, 2, 50 * MB)).toBe('more');
    expect(early('obj', obj, 300, 50 * MB)).toBe('yes');
  });
  it('refuse other content from its first bytes, whatever the size', () => {
    for (const format of ['stl', 'ply', 'obj'] as const) {
      const big = new Uint8Array(4096);
      big.set(PNG);
      expect(early(format, big, 4096, 500 * MB)).toBe('no');
      const pdf = enc(
        '%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages >>\n',
      );
      expect(early(format, pdf, pdf.length, 500 * MB)).toBe('no');
    }
    expect(early('ply', enc('ply\nformat binary_middle_endian 1.0\n'), 36, 500 * MB)).toBe('no');
    expect(early('ply', enc('ply\nelement vertex lots\n'), 24, 500 * MB)).toBe('no');
    expect(early('obj', enc('v 1 2 3\nhello world\n'), 20, 500 * MB)).toBe('no');
    const notStl = enc(
      'solid x\nhello, this is a text that starts like an STL and then is none at all, not even a binary one\n',
    );
    expect(early('stl', notStl, 40, 500 * MB)).toBe('more'); // a binary STL's header may say anything
    expect(early('stl', notStl, notStl.length, 500 * MB)).toBe('no');
  });
  it('accept what the parsers read: comment before format, bare g, trailing bytes', () => {
    const ply = enc('ply\ncomment made by a scanner\nformat ascii 1.0\nelement vertex 3\nproperty float x\n');
    expect(early('ply', ply, ply.length, 50 * MB)).toBe('more'); // header still arriving, fine so far
    const whole = enc(
      'ply\ncomment first\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n' +
        'element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n',
    );
    expect(meshContentVerdict('ply', whole, whole.length)).toBe('yes');
    expect(parseMesh(whole).indices).toEqual(new Uint32Array([0, 1, 2]));
    const obj = enc('# exported\ng\nv 0 0 0\nv 1 0 0\nv 0 1 0\ng\nf 1 2 3\n');
    expect(meshContentVerdict('obj', obj, obj.length)).toBe('yes');
    expect(parseMesh(obj).indices).toEqual(new Uint32Array([0, 1, 2]));
  });
  it('judge a whole small file at once: undecided means no', () => {
    expect(meshContentVerdict('stl', enc('solid only a name\n'), 18)).toBe('no');
    expect(meshContentVerdict('ply', enc('ply\nformat ascii 1.0\n'), 20)).toBe('no');
    expect(meshContentVerdict('obj', enc('# nothing but a comment\n'), 24)).toBe('no');
    expect(meshContentVerdict('obj', enc('g\ns off\n'), 8)).toBe('no'); // no vertex in the whole file
  });
});
