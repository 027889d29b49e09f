import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCompactMesh, generateArch, parseMesh, toBinaryStl, toPly, type MeshData } from '@portal/mesh';
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

/** The largest distance from a sampled source vertex to its nearest decoded vertex (a grid of 50 µm cells). */
function worstDistance(decoded: Float32Array, source: Float32Array) {
  const grid = new Map<string, number[]>();
  const cell = (v: number) => Math.floor(v / 0.05);
  for (let i = 0; i < decoded.length; i += 3) {
    const k = `${cell(decoded[i]!)},${cell(decoded[i + 1]!)},${cell(decoded[i + 2]!)}`;
    (grid.get(k) ?? grid.set(k, []).get(k)!).push(i);
  }
  let worst = 0;
  for (let i = 0; i < source.length; i += 3 * 97) {
    const [x, y, z] = [source[i]!, source[i + 1]!, source[i + 2]!];
    let best = Infinity;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++) {
          for (const j of grid.get(`${cell(x) + dx},${cell(y) + dy},${cell(z) + dz}`) ?? []) {
            best = Math.min(best, Math.hypot(decoded[j]! - x, decoded[j + 1]! - y, decoded[j + 2]! - z));
          }
        }
    worst = Math.max(worst, best);
  }
  return worst;
}

describe('compact viewer versions of models', () => {
  it('are prepared in the background, much smaller, and faithful to the original', async () => {
    const arch = generateArch({ jaw: 'upper', triangles: 20_000, seed: 3 });
    const stl = Buffer.from(toBinaryStl(arch));
    const ply = Buffer.from(toPly(arch, { binary: true }));
    const caseCode = (await h.call('case/create', { token, body: { name: 'Viewer', patientName: 'Ida Holm' } })).data
      .caseCode;
    await tusUpload(base, token, stl, { caseCode, filename: 'upper.stl', jaw: 'upper' });
    await tusUpload(base, token, ply, { caseCode, filename: 'upper.ply', jaw: 'upper' });
    await h.app.platform.jobs.drain();
    const files = (await h.call('case/detail', { token, body: { caseCode } })).data.files as Array<{
      fileCode: string;
      format: string;
      viewerStatus: string;
    }>;
    expect(files.map((f) => f.viewerStatus)).toEqual(['ready', 'ready']);
    for (const f of files) {
      const { status, bytes } = await viewerBytes(f.fileCode);
      expect(status).toBe(200);
      const original = f.format === 'stl' ? stl : ply;
      expect(bytes.length).toBeLessThan(original.length / 5);
      const decoded = await decodeCompactMesh(bytes);
      const source = parseMesh(original, f.format);
      // Every original vertex has a decoded vertex within 10 µm (positions are in millimetres).
      const worst = worstDistance(decoded.positions, source.positions);
      expect(worst).toBeLessThanOrEqual(0.01);
      if (f.format === 'ply') expect(decoded.colors).not.toBeNull();
    }
  });

  it('are made in millimetres from the same arch in mm, metres and inches; a normalised one has no unit', async () => {
    const arch = generateArch({ jaw: 'lower', triangles: 20_000, seed: 6 });
    const scaled = (k: number): MeshData => ({ ...arch, positions: arch.positions.map((v) => v * k) });
    // Normalised as research tools do: centred on the bounding box, divided by the largest coordinate.
    const centre = [0, 1, 2].map((a) => {
      const c = arch.positions.filter((_, i) => i % 3 === a);
      return (Math.min(...c) + Math.max(...c)) / 2;
    });
    const centred = arch.positions.map((v, i) => v - centre[i % 3]!);
    const maxAbs = Math.max(...centred.map(Math.abs));
    const normalised = { ...arch, positions: centred.map((v) => v / maxAbs) };
    const caseCode = (await h.call('case/create', { token, body: { name: 'Units', patientName: 'Ida Holm' } })).data
      .caseCode;
    const uploads = [
      ['mm.stl', toBinaryStl(arch)],
      ['metres.stl', toBinaryStl(scaled(1 / 1000))],
      ['inches.ply', toPly(scaled(1 / 25.4))],
      ['normalised.ply', toPly(normalised)],
    ] as const;
    for (const [filename, bytes] of uploads) await tusUpload(base, token, Buffer.from(bytes), { caseCode, filename });
    await h.app.platform.jobs.drain();
    const files = (await h.call('case/detail', { token, body: { caseCode } })).data.files as Array<{
      fileCode: string;
      name: string;
      viewerStatus: string;
      unit: string | null;
    }>;
    const byName = Object.fromEntries(files.map((f) => [f.name, f]));
    expect(uploads.map(([name]) => [byName[name]!.viewerStatus, byName[name]!.unit])).toEqual([
      ['ready', 'mm'],
      ['ready', 'm'],
      ['ready', 'in'],
      ['failed', 'unknown'],
    ]);
    for (const name of ['mm.stl', 'metres.stl', 'inches.ply']) {
      const decoded = await decodeCompactMesh((await viewerBytes(byName[name]!.fileCode)).bytes);
      // Every triangle kept (none collapsed onto the quantisation grid), every vertex where the mm arch has it.
      expect(decoded.indices.length).toBe(arch.indices.length);
      let collapsed = 0;
      for (let t = 0; t < decoded.indices.length; t += 3) {
        const [a, b, c] = [0, 1, 2].map((k) => decoded.indices[t + k]! * 3) as [number, number, number];
        const same = (p: number, q: number) =>
          [0, 1, 2].every((k) => decoded.positions[p + k] === decoded.positions[q + k]);
        if (same(a, b) || same(b, c) || same(a, c)) collapsed++;
      }
      expect(collapsed).toBe(0);
      expect(worstDistance(decoded.positions, arch.positions)).toBeLessThanOrEqual(0.005);
    }
    expect((await viewerBytes(byName['normalised.ply']!.fileCode)).status).toBe(404);
  });

  it('marks a model that cannot be parsed as failed, and the viewer uses the original', async () => {
    const caseCode = (await h.call('case/create', { token, body: { name: 'Broken', patientName: 'Ida Holm' } })).data
      .caseCode;
    // A valid-looking ASCII STL header whose body is nonsense: accepted by the content check, refused by the parser.
    const bogus = Buffer.from('solid x\n facet normal 0 0 1\n outer loop\n vertex a b c\nendsolid x\n');
    await tusUpload(base, token, bogus, { caseCode, filename: 'bogus.stl' });
    await h.app.platform.jobs.drain();
    const [file] = (await h.call('case/detail', { token, body: { caseCode } })).data.files;
    expect([file.viewerStatus, file.unit]).toEqual(['failed', null]);
    expect((await viewerBytes(file.fileCode)).status).toBe(404);
  });
});
