// The server and the web app, each built only when its sources changed since its last build (`--all` builds both
// anyway). Each build leaves a fingerprint of its inputs in its output folder; `npm start` builds through this too.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = [
  'package-lock.json',
  'packages/contracts/package.json',
  'packages/contracts/src',
  'packages/contracts/locales',
  'packages/mesh/package.json',
  'packages/mesh/src',
];
const PARTS = [
  {
    name: 'server',
    inputs: ['apps/server/package.json', 'apps/server/build.mjs', 'apps/server/src', ...SHARED],
    output: 'apps/server/dist',
    build: ['npm', ['run', '-s', 'build', '-w', '@portal/server']],
  },
  {
    name: 'web app',
    inputs: [
      'apps/web/package.json',
      'apps/web/index.html',
      'apps/web/share.html',
      'apps/web/vite.config.ts',
      'apps/web/tsconfig.json',
      'apps/web/public',
      'apps/web/src',
      ...SHARED,
    ],
    output: 'apps/web/dist',
    build: ['npm', ['run', '-s', 'build', '-w', '@portal/web']],
  },
];
const STAMP = '.build-inputs';

/** Every input file's path, size and modification time, hashed: cheap to compute, changes with any edit. */
function fingerprint(inputs) {
  const hash = createHash('sha256');
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!/\.test\.tsx?$/.test(name)) visit(join(path, name));
    } else hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const input of inputs) visit(join(ROOT, input));
  return hash.digest('hex');
}

/** Builds what changed (or everything); exits the process when a build fails. */
export function build({ all = false } = {}) {
  // A release archive (npm run release) holds the built portal without its sources: nothing to build.
  if (!existsSync(join(ROOT, 'apps/server/src'))) return;
  for (const part of PARTS) {
    const stampFile = join(ROOT, part.output, STAMP);
    const inputs = fingerprint(part.inputs);
    if (!all && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === inputs) continue;
    const started = Date.now();
    process.stdout.write(`Building the ${part.name}… `);
    const [command, args] = part.build;
    const run = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    if (run.status !== 0) {
      console.error(`\nThe ${part.name} did not build (exit ${run.status ?? run.signal}).`);
      process.exit(run.status ?? 1);
    }
    writeFileSync(stampFile, inputs);
    console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  build({ all: process.argv.includes('--all') });
