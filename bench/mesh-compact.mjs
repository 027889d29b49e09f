// The compact viewer format on the same arch written as binary STL, binary PLY (xyz, and with colours) and OBJ:
// the size ratio (file / compact) and the largest distance of a vertex from where the file has it, at 16k, 300k
// and 1M triangles (synthetic lower arch, seed 1), and on the real decimated arches of ../shared/realdata when they
// are there (never committed). Baseline in the same run: the file deflated (zlib level 6, as a zip would).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { register } from 'tsx/esm/api';

const ROOT = resolve(import.meta.dirname, '..');
const REAL = resolve(ROOT, '..', 'shared', 'realdata');
const SIZES = (process.env.BENCH_COMPACT_TRIANGLES ?? '16000,300000,1000000').split(',').map(Number);

/** Largest distance between each vertex of the file (as parsed) and its decoded counterpart, in millimetres. */
function maxDeviation(source, decoded, remap, scale) {
  let worst = 0;
  for (let i = 0; i < remap.length; i++) {
    const j = remap[i];
    if (j === 0xffffffff) continue;
    const dx = source[i * 3] * scale - decoded[j * 3];
    const dy = source[i * 3 + 1] * scale - decoded[j * 3 + 1];
    const dz = source[i * 3 + 2] * scale - decoded[j * 3 + 2];
    worst = Math.max(worst, Math.hypot(dx, dy, dz));
  }
  return worst;
}

export async function meshCompactBench() {
  const unregister = register();
  const mesh = await import('../packages/mesh/src/index.ts');
  const rows = [];
  const measure = async (label, file) => {
    const t0 = performance.now();
    const parsed = mesh.parseMesh(file);
    const found = mesh.inMillimetres(parsed);
    if (!found.unit) {
      rows.push([label, `no viewer version: size ${found.extent.toPrecision(3)} fits no unit`, '—', '—']);
      return;
    }
    const t1 = performance.now();
    const r = await mesh.compactMeshDetailed(found.mesh);
    const t2 = performance.now();
    const d = await mesh.decodeCompactMesh(r.bytes);
    const t3 = performance.now();
    const dev = maxDeviation(parsed.positions, d.positions, r.vertexRemap, mesh.MM_PER_UNIT[found.unit]);
    const zipped = deflateSync(file, { level: 6 }).length;
    const ratio = file.length / r.bytes.length;
    rows.push([
      label,
      `${ratio.toFixed(1)}× (${(file.length / 1024).toFixed(0)} → ${(r.bytes.length / 1024).toFixed(0)} KB), ` +
        `max deviation ${(dev * 1000).toFixed(2)} µm, parse ${(t1 - t0).toFixed(0)} ms, encode ${(t2 - t1).toFixed(0)} ms, ` +
        `decode ${(t3 - t2).toFixed(0)} ms`,
      `deflate ${(file.length / zipped).toFixed(1)}×`,
      ratio >= 10 ? 'met (goal ≥ 10×)' : 'MISSED (goal ≥ 10×; the floor: packages/mesh/README.md)',
    ]);
  };
  const variants = (m, faceColors) => [
    ['binary STL', mesh.toBinaryStl(m)],
    ['binary PLY xyz', mesh.toPly({ ...m, colors: null })],
    [faceColors ? 'binary PLY + face colours' : 'binary PLY + colours', mesh.toPly(m, { faceColors })],
    ['OBJ', mesh.toObj({ ...m, colors: null })],
  ];
  try {
    await mesh.initMeshCodec();
    for (const triangles of SIZES) {
      const arch = mesh.generateArch({ jaw: 'lower', triangles, seed: 1 });
      const k = triangles >= 1e6 ? `${triangles / 1e6}M` : `${Math.round(triangles / 1000)}k`;
      for (const [format, file] of variants(arch)) await measure(`compact: synthetic ${k}, ${format}`, file);
    }
    // Real arches: per-face label colours as their publishers wrote them; xyz files from the original vertices.
    const real = existsSync(REAL) ? readdirSync(REAL).filter((f) => f.endsWith('.ply')) : [];
    for (const name of real) {
      const parsed = mesh.parseMesh(readFileSync(join(REAL, name)));
      const { mesh: plain } = mesh.weldMesh({ ...parsed, colors: null });
      const faceColors = parsed.colors
        ? Uint8Array.from(
            { length: parsed.indices.length },
            (_, i) => parsed.colors[parsed.indices[i - (i % 3)] * 3 + (i % 3)],
          )
        : undefined;
      const k = `${Math.round(plain.indices.length / 3000)}k`;
      for (const [format, file] of variants(plain, faceColors))
        if (format !== 'binary PLY + colours') await measure(`compact: real ${name} (${k}), ${format}`, file);
    }
  } finally {
    await unregister();
  }
  return rows;
}
