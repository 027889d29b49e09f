import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCompactMesh, generateArch, parseMesh, toBinaryStl, toPly } from '@portal/mesh';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { tusUpload } from './uploads.js';

let h: Harness;
let base: string;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  token = (await login(h, (await createUser(h.db)).account)).accessToken;
});
afterAll(() => h.close());

const viewerBytes = async (fileCode: string) => {
  const grant = (await h.call('file/downloadGrant', { token, body: { fileCode } })).data;
  const u = new URL(grant.viewerUrl);
  const res = await fetch(`${base}${u.pathname}${u.search}`);
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe('compact viewer versions of models', () => {
  it('are prepared in the background, much smaller, and faithful to the original', async () => {
    const arch = generateArch({ jaw: 'upper', triangles: 20_000, seed: 3 });
    const stl = Buffer.from(toBinaryStl(arch));
    const ply = Buffer.from(toPly(arch, { binary: true }));
    const caseCode = (await h.call('case/create', { token, body: { name: 'Viewer', patientName: 'Ida Holm' } })).data.caseCode;
    await tusUpload(base, token, stl, { caseCode, filename: 'upper.stl', jaw: 'upper' });
    await tusUpload(base, token, ply, { caseCode, filename: 'upper.ply', jaw: 'upper' });
    await h.app.platform.jobs.drain();
    const files = (await h.call('case/detail', { token, body: { caseCode } })).data.files as Array<{ fileCode: string; format: string; viewerStatus: string }>;
    expect(files.map((f) => f.viewerStatus)).toEqual(['ready', 'ready']);
    for (const f of files) {
      const { status, bytes } = await viewerBytes(f.fileCode);
      expect(status).toBe(200);
      const original = f.format === 'stl' ? stl : ply;
      expect(bytes.length).toBeLessThan(original.length / 5);
      const decoded = await decodeCompactMesh(bytes);
      const source = parseMesh(original, f.format);
      // Every original vertex has a decoded vertex within 10 µm (positions are in millimetres).
      const grid = new Map<string, number[]>();
      const cell = (v: number) => Math.floor(v / 0.05);
      for (let i = 0; i < decoded.positions.length; i += 3) {
        const k = `${cell(decoded.positions[i]!)},${cell(decoded.positions[i + 1]!)},${cell(decoded.positions[i + 2]!)}`;
        (grid.get(k) ?? grid.set(k, []).get(k)!).push(i);
      }
      let worst = 0;
      for (let i = 0; i < source.positions.length; i += 3 * 97) {
        const [x, y, z] = [source.positions[i]!, source.positions[i + 1]!, source.positions[i + 2]!];
        let best = Infinity;
        for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
          for (const j of grid.get(`${cell(x) + dx},${cell(y) + dy},${cell(z) + dz}`) ?? []) {
            best = Math.min(best, Math.hypot(decoded.positions[j]! - x, decoded.positions[j + 1]! - y, decoded.positions[j + 2]! - z));
          }
        }
        worst = Math.max(worst, best);
      }
      expect(worst).toBeLessThanOrEqual(0.01);
      if (f.format === 'ply') expect(decoded.colors).not.toBeNull();
    }
  });

  it('marks a model that cannot be parsed as failed, and the viewer uses the original', async () => {
    const caseCode = (await h.call('case/create', { token, body: { name: 'Broken', patientName: 'Ida Holm' } })).data.caseCode;
    // A valid-looking ASCII STL header whose body is nonsense: accepted by the content check, refused by the parser.
    const bogus = Buffer.from('solid x\n facet normal 0 0 1\n outer loop\n vertex a b c\nendsolid x\n');
    await tusUpload(base, token, bogus, { caseCode, filename: 'bogus.stl' });
    await h.app.platform.jobs.drain();
    const [file] = (await h.call('case/detail', { token, body: { caseCode } })).data.files;
    expect(file.viewerStatus).toBe('failed');
    expect((await viewerBytes(file.fileCode)).status).toBe(404);
  });
});
