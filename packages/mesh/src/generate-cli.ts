/**
 * Node-only CLI: writes a synthetic scan set.
 *   node --import tsx packages/mesh/src/generate-cli.ts --out DIR [--triangles 300000] [--seed 1] [--compact]
 * Files: upper.stl, lower.stl, upper.ply, lower.ply (binary, vertex colours), bite.stl,
 * and with --compact also upper.pmc, lower.pmc, bite.pmc (compact viewer files).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateArch, generateBite } from './generate.js';
import { toBinaryStl, toPly } from './writers.js';
import { compactMesh } from './compact-encode.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    triangles: { type: 'string', default: '300000' },
    seed: { type: 'string', default: '1' },
    compact: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help || !values.out) {
  console.log(
    'usage: node --import tsx packages/mesh/src/generate-cli.ts --out DIR [--triangles N] [--seed S] [--compact]',
  );
  process.exit(values.help ? 0 : 2);
}
const triangles = Number(values.triangles);
const seed = Number(values.seed);
if (!Number.isFinite(triangles) || triangles < 1000 || triangles > 20_000_000 || !Number.isInteger(seed)) {
  console.error('--triangles must be 1000…20000000 and --seed an integer');
  process.exit(2);
}
const out = values.out;
await mkdir(out, { recursive: true });
const t0 = performance.now();
for (const jaw of ['upper', 'lower'] as const) {
  const mesh = generateArch({ jaw, triangles, seed });
  await writeFile(join(out, `${jaw}.stl`), toBinaryStl(mesh, `portal synthetic ${jaw} arch seed ${seed}`));
  await writeFile(join(out, `${jaw}.ply`), toPly(mesh, { binary: true }));
  if (values.compact) await writeFile(join(out, `${jaw}.pmc`), await compactMesh(mesh));
  console.log(`${jaw}: ${mesh.indices.length / 3} triangles, ${mesh.positions.length / 3} vertices`);
}
const bite = generateBite({ seed, triangles: Math.max(2000, Math.round(triangles / 20)) });
await writeFile(join(out, 'bite.stl'), toBinaryStl(bite, `portal synthetic bite seed ${seed}`));
if (values.compact) await writeFile(join(out, 'bite.pmc'), await compactMesh(bite));
console.log(`bite: ${bite.indices.length / 3} triangles`);
console.log(`done in ${((performance.now() - t0) / 1000).toFixed(2)} s → ${out}`);
