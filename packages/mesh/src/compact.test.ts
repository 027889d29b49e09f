import { describe, expect, it } from 'vitest';
import {
  MeshParseError,
  compactMesh,
  compactMeshDetailed,
  decodeCompactMesh,
  generateArch,
  parsePly,
  parseStl,
  toBinaryStl,
  toPly,
} from './index.js';

/** Rotates a triangle so its smallest index comes first (keeps the winding). */
function canon(a: number, b: number, c: number): string {
  if (a <= b && a <= c) return `${a},${b},${c}`;
  if (b <= a && b <= c) return `${b},${c},${a}`;
  return `${c},${a},${b}`;
}

describe('compact container', () => {
  it('keeps every vertex within 10 µm, the topology intact, and is ≤ 1/10 of STL and PLY (200k triangles)', async () => {
    const scan = generateArch({ jaw: 'upper', triangles: 200_000, seed: 11 });
    const stl = toBinaryStl(scan);
    const ply = toPly(scan, { binary: true });
    const fromStl = parseStl(stl); // unindexed: exercises welding

    const r = await compactMeshDetailed(fromStl);
    const d = await decodeCompactMesh(r.bytes);
    expect(d.indices.length).toBe(fromStl.positions.length / 3);
    let maxDev = 0;
    const n = fromStl.positions.length / 3;
    for (let i = 0; i < n; i++) {
      const j = r.vertexRemap[i]!;
      const dx = fromStl.positions[i * 3]! - d.positions[j * 3]!;
      const dy = fromStl.positions[i * 3 + 1]! - d.positions[j * 3 + 1]!;
      const dz = fromStl.positions[i * 3 + 2]! - d.positions[j * 3 + 2]!;
      maxDev = Math.max(maxDev, Math.hypot(dx, dy, dz));
    }
    expect(maxDev).toBeLessThanOrEqual(0.01);
    // same set of triangles (original triangle t = vertices 3t..3t+2)
    const want = new Map<string, number>();
    for (let t = 0; t < n / 3; t++) {
      const k = canon(r.vertexRemap[t * 3]!, r.vertexRemap[t * 3 + 1]!, r.vertexRemap[t * 3 + 2]!);
      want.set(k, (want.get(k) ?? 0) + 1);
    }
    for (let t = 0; t < d.indices.length / 3; t++) {
      const k = canon(d.indices[t * 3]!, d.indices[t * 3 + 1]!, d.indices[t * 3 + 2]!);
      const c = want.get(k);
      expect(c).toBeGreaterThan(0);
      want.set(k, c! - 1);
    }
    expect(r.bytes.length * 10).toBeLessThanOrEqual(stl.length);

    // PLY with colours
    const fromPly = parsePly(ply);
    const rp = await compactMeshDetailed(fromPly);
    const dp = await decodeCompactMesh(rp.bytes);
    expect(rp.bytes.length * 10).toBeLessThanOrEqual(ply.length);
    expect(dp.colors).not.toBeNull();
    for (let i = 0; i < fromPly.positions.length / 3; i += 97) {
      const j = rp.vertexRemap[i]!;
      expect(Array.from(dp.colors!.subarray(j * 3, j * 3 + 3))).toEqual(
        Array.from(fromPly.colors!.subarray(i * 3, i * 3 + 3)),
      );
    }
    for (let a = 0; a < 3; a++) {
      expect(dp.bounds.min[a]).toBeLessThanOrEqual(dp.bounds.max[a]!);
    }
    console.log(
      `200k: STL ${stl.length} B → ${r.bytes.length} B (1/${(stl.length / r.bytes.length).toFixed(1)}), ` +
        `PLY ${ply.length} B → ${rp.bytes.length} B (1/${(ply.length / rp.bytes.length).toFixed(1)}), max deviation ${(maxDev * 1000).toFixed(2)} µm`,
    );
  }, 60_000);

  it('round-trips without deflate and with a finer step', async () => {
    const scan = generateArch({ jaw: 'lower', triangles: 10_000, seed: 2 });
    const raw = await compactMesh(scan, { deflate: false, step: 0.001 });
    const d = await decodeCompactMesh(raw);
    expect(d.indices.length).toBe(scan.indices.length);
    await expect(compactMesh(scan, { step: 0.01 })).rejects.toThrow(RangeError);
  });

  it('rejects truncated or corrupt containers with MeshParseError', async () => {
    const scan = generateArch({ jaw: 'lower', triangles: 10_000, seed: 2 });
    for (const deflate of [true, false]) {
      const bytes = await compactMesh(scan, { deflate });
      for (const cut of [10, 88, 200, bytes.length - 5]) {
        await expect(decodeCompactMesh(bytes.subarray(0, cut))).rejects.toBeInstanceOf(MeshParseError);
      }
      const bad = bytes.slice();
      for (let i = 100; i < bad.length; i += 7) bad[i] = bad[i]! ^ 0x5a;
      await decodeCompactMesh(bad).then(
        (m) => expect(m.indices.every((v) => v < m.positions.length / 3)).toBe(true), // decoded garbage must still be safe
        (e) => expect(e).toBeInstanceOf(MeshParseError),
      );
      const huge = bytes.slice();
      new DataView(huge.buffer).setUint32(8, 0xfffffff0, true);
      await expect(decodeCompactMesh(huge)).rejects.toBeInstanceOf(MeshParseError);
    }
    await expect(
      decodeCompactMesh(new TextEncoder().encode('not a mesh at all, certainly not'.repeat(4))),
    ).rejects.toBeInstanceOf(MeshParseError);
  });
});
