import { describe, expect, it } from 'vitest';
import {
  compactMeshDetailed,
  decodeCompactMesh,
  detectUnit,
  generateArch,
  generateBite,
  inMillimetres,
  parseStl,
  toBinaryStl,
  type MeshData,
} from './index.js';

const arch = generateArch({ jaw: 'lower', triangles: 20_000, seed: 4 });
const scaled = (m: MeshData, k: number, shift = [0, 0, 0]): MeshData => ({
  ...m,
  positions: m.positions.map((v, i) => (v - shift[i % 3]!) * k),
});
/** Normalised as research tools do: centred, then divided by the largest coordinate (or the largest radius). */
function normalised(m: MeshData, by: 'coordinate' | 'radius'): MeshData {
  const n = m.positions.length / 3;
  const c = [0, 1, 2].map((a) => {
    let s = 0;
    for (let v = 0; v < n; v++) s += m.positions[v * 3 + a]!;
    return s / n;
  });
  let k = 0;
  for (let v = 0; v < n; v++) {
    const d = [0, 1, 2].map((a) => m.positions[v * 3 + a]! - c[a]!);
    k = Math.max(k, by === 'coordinate' ? Math.max(...d.map(Math.abs)) : Math.hypot(d[0]!, d[1]!, d[2]!));
  }
  return scaled(m, 1 / k, c);
}
const degenerate = (positions: Float32Array, indices: Uint32Array) => {
  let n = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const same = (p: number, q: number) =>
      positions[p] === positions[q] && positions[p + 1] === positions[q + 1] && positions[p + 2] === positions[q + 2];
    if (same(a, b) || same(b, c) || same(a, c)) n++;
  }
  return n;
};

describe('the unit of a scan, told from its size', () => {
  it('finds millimetres, metres and inches for the same arch, and no unit once it is normalised', () => {
    expect(detectUnit(arch.positions)).toMatchObject({ unit: 'mm', normalised: false });
    expect(detectUnit(scaled(arch, 1 / 1000).positions).unit).toBe('m');
    expect(detectUnit(scaled(arch, 1 / 25.4).positions).unit).toBe('in');
    for (const by of ['coordinate', 'radius'] as const)
      expect(detectUnit(normalised(arch, by).positions)).toMatchObject({ unit: null, normalised: true });
    // A bite and a single tooth are scans too; a metre-wide object or a 2 µm one is none.
    expect(detectUnit(generateBite({ seed: 4, triangles: 4000 }).positions).unit).toBe('mm');
    expect(detectUnit(scaled(arch, 1 / 8).positions).unit).toBe('mm');
    expect(detectUnit(scaled(arch, 20).positions)).toMatchObject({ unit: null, normalised: false });
    expect(detectUnit(scaled(arch, 1e-6).positions).unit).toBeNull();
  });

  it('converts to millimetres before compacting, so no triangle collapses (metres, inches)', async () => {
    for (const [unit, k] of [
      ['m', 1 / 1000],
      ['in', 1 / 25.4],
    ] as const) {
      // Through binary STL, as an export would carry it.
      const file = parseStl(toBinaryStl(scaled(arch, k)));
      const found = inMillimetres(file);
      expect(found.unit).toBe(unit);
      const r = await compactMeshDetailed(found.mesh!);
      const d = await decodeCompactMesh(r.bytes);
      expect(d.indices.length).toBe(arch.indices.length);
      expect(degenerate(d.positions, d.indices)).toBe(0);
      // Every vertex where the millimetre original has it, within the 5 µm grid (plus float rounding of the unit).
      let worst = 0;
      for (let i = 0; i < file.positions.length / 3; i += 7) {
        const j = r.vertexRemap[i]!;
        const dx = file.positions[i * 3]! / k - d.positions[j * 3]!;
        const dy = file.positions[i * 3 + 1]! / k - d.positions[j * 3 + 1]!;
        const dz = file.positions[i * 3 + 2]! / k - d.positions[j * 3 + 2]!;
        worst = Math.max(worst, Math.hypot(dx, dy, dz));
      }
      expect(worst).toBeLessThan(0.0045);
    }
  });

  it('leaves a millimetre scan as it is, and has nothing to convert for a size that fits no unit', () => {
    const mm = inMillimetres(arch);
    expect(mm.unit).toBe('mm');
    expect(mm.mesh!.positions).toBe(arch.positions);
    const none = inMillimetres(normalised(arch, 'coordinate'));
    expect(none).toMatchObject({ unit: null, mesh: null });
    expect(none.extent).toBeGreaterThan(1);
    expect(none.extent).toBeLessThanOrEqual(2);
  });
});
