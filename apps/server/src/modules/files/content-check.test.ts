import { describe, expect, it } from 'vitest';
import { generateArch, parseMesh, toBinaryStl, toObj, toPly } from '@portal/mesh';
import { cleanFileName, contentMatches, contentVerdict, formatOfName } from './content-check.js';

const binaryStl = (triangles: number) => {
  const buf = new Uint8Array(84 + 50 * triangles);
  new DataView(buf.buffer).setUint32(80, triangles, true);
  return buf;
};
const enc = (s: string) => new TextEncoder().encode(s);
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
  0, 0,
]);

describe('content check', () => {
  it('accepts binary STL only when the triangle count matches the size', async () => {
    const stl = binaryStl(10);
    expect(await contentMatches('stl', stl, stl.length)).toBe(true);
    expect(await contentMatches('stl', stl, stl.length - 7)).toBe(false); // truncated
  });
  it('accepts ASCII STL, PLY, OBJ by their text', async () => {
    const ascii = enc('solid part\n facet normal 0 0 1\n outer loop\n vertex 0 0 0\n');
    expect(await contentMatches('stl', ascii, ascii.length)).toBe(true);
    const ply = enc('ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nend_header\n');
    expect(await contentMatches('ply', ply, ply.length + 12)).toBe(true);
    // A header that never ends is no PLY the parser could read.
    expect(await contentMatches('ply', ply.subarray(0, 40), 40)).toBe(false);
    const obj = enc('# made by a scanner\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    expect(await contentMatches('obj', obj, obj.length)).toBe(true);
  });
  it('accepts what the mesh parsers read: trailing bytes, a count of 0, comment before format, a bare g', async () => {
    const arch = generateArch({ jaw: 'upper', triangles: 2000, seed: 1 });
    const stl = toBinaryStl(arch);
    const padded = new Uint8Array(stl.length + 3);
    padded.set(stl);
    const zero = stl.slice();
    new DataView(zero.buffer).setUint32(80, 0, true);
    const ply = toPly(arch);
    ply.set(enc('ply\ncomment portal-mesh\nformat binary_little_endian 1.0\n'));
    const obj = enc(new TextDecoder().decode(toObj(arch)).replace('# portal-mesh\n', '# portal-mesh\ng\n'));
    for (const [format, bytes] of [
      ['stl', padded],
      ['stl', zero],
      ['ply', ply],
      ['obj', obj],
    ] as const) {
      expect(await contentMatches(format, bytes, bytes.length)).toBe(true);
      expect(parseMesh(bytes, format).indices ?? parseMesh(bytes, format).positions).toBeTruthy();
    }
  });
  it('tells from the first bytes of an upload still arriving: more, then yes or no', async () => {
    const stl = toBinaryStl(generateArch({ jaw: 'upper', triangles: 2000, seed: 1 }));
    expect(await contentVerdict('stl', stl.subarray(0, 50), stl.length)).toBe('more');
    expect(await contentVerdict('stl', stl.subarray(0, 4096), stl.length)).toBe('yes');
    expect(await contentVerdict('stl', PNG, 500 * 1024 * 1024)).toBe('more'); // 84 bytes decide an STL
    const pngHead = new Uint8Array(4096);
    pngHead.set(PNG);
    expect(await contentVerdict('stl', pngHead, 500 * 1024 * 1024)).toBe('no');
    expect(await contentVerdict('ply', pngHead, 500 * 1024 * 1024)).toBe('no');
    expect(await contentVerdict('png', PNG, 500 * 1024 * 1024)).toBe('more'); // judged on its whole sniff window
    expect(await contentVerdict('png', PNG, PNG.length)).toBe('yes');
  });
  it('refuses mislabelled files', async () => {
    expect(await contentMatches('stl', PNG, PNG.length)).toBe(false);
    expect(await contentMatches('ply', PNG, PNG.length)).toBe(false);
    expect(await contentMatches('pdf', PNG, PNG.length)).toBe(false);
    expect(await contentMatches('png', PNG, PNG.length)).toBe(true);
    expect(await contentMatches('a3d', PNG, PNG.length)).toBe(false);
    expect(await contentMatches('svg', enc('<html><script>x</script></html>'), 30)).toBe(false);
    expect(
      await contentMatches('svg', enc('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'), 60),
    ).toBe(true);
    expect(await contentMatches('obj', enc('hello world'), 11)).toBe(false);
    expect(await contentMatches('png', new Uint8Array(0), 0)).toBe(false);
  });
  it('accepts recorded WebM voice memos by their bytes', async () => {
    // EBML header with the 'webm' doc type, as MediaRecorder writes it.
    const webm = new Uint8Array([
      0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3,
      0x81, 0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02,
    ]);
    expect(await contentMatches('webm', webm, webm.length)).toBe(true);
    expect(await contentMatches('webm', PNG, PNG.length)).toBe(false);
  });
  it('cleans names: no paths, no control characters, sane lengths', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\scans\\upper.stl')).toBe('upper.stl');
    expect(cleanFileName('up\u0000per\u202e.stl')).toBe('upper.stl');
    expect(cleanFileName('...')).toBeNull();
    expect(cleanFileName(`${'a'.repeat(300)}.stl`)).toBeNull();
    expect(formatOfName('Upper.STL')).toBe('stl');
    expect(formatOfName('noext')).toBe('');
  });
});
