// `npm run release`: the built portal as one archive that runs without its sources or build tools
// (docs/operations.md, "Release archive, image and compose file"): release/dental-portal-<version>.tar.gz holds the
// built server and web app, the migrations, the locales, the scripts `npm start`, `npm run cluster`, `npm run backup`
// and `npm run restore` need, ops/ (container image, compose file, balancer and Prometheus configuration) and the
// production dependencies, installed at the versions this repository's lock resolved.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from './build.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const server = JSON.parse(readFileSync(join(ROOT, 'apps/server/package.json'), 'utf8'));
const NAME = `dental-portal-${root.version}`;
const OUT = join(ROOT, 'release');
const STAGE = join(OUT, NAME);

/** What the release holds from the repository, as paths relative to its root. */
export const RELEASE_FILES = [
  'apps/server/dist',
  'apps/server/migrations',
  'apps/web/dist',
  'apps/web/public/favicon.svg',
  'packages/contracts/locales',
  'scripts/start.mjs',
  'scripts/build.mjs',
  'scripts/cluster.mjs',
  'scripts/cluster-lib.mjs',
  'scripts/haproxy-wait.lua',
  'scripts/s3-server.mjs',
  'scripts/local-service.mjs',
  'scripts/pgbouncer.mjs',
  'scripts/throwaway-postgres.mjs',
  'ops',
  'docs/operations.md',
  'README.md',
];
/** The stand-in S3 store `npm run cluster` starts; the portal itself needs none of it. */
const CLUSTER_DEPENDENCIES = ['s3rver'];

/** The version this repository's lock installed, so the release runs what the tests ran. */
function installed(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

function run(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.status})`);
}

export function release() {
  build();
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(STAGE, { recursive: true });
  for (const path of RELEASE_FILES) {
    if (!existsSync(join(ROOT, path))) throw new Error(`missing ${path}: build first`);
    cpSync(join(ROOT, path), join(STAGE, path), { recursive: true });
  }
  const external = Object.keys(server.dependencies).filter((d) => !d.startsWith('@portal/'));
  const dependencies = Object.fromEntries(
    [...external, ...CLUSTER_DEPENDENCIES].sort().map((name) => [name, installed(name)]),
  );
  const scripts = {
    start: 'node scripts/start.mjs',
    cluster: 'node scripts/cluster.mjs',
    backup: 'node apps/server/dist/backup.js backup',
    restore: 'node apps/server/dist/backup.js restore',
    'admin:create': 'node apps/server/dist/admin-create.js',
  };
  writeFileSync(
    join(STAGE, 'package.json'),
    `${JSON.stringify({ name: 'dental-portal', version: root.version, private: true, type: 'module', engines: root.engines, scripts, dependencies }, null, 2)}\n`,
  );
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts=false', '--loglevel=error'], STAGE);
  const archive = join(OUT, `${NAME}.tar.gz`);
  run('tar', ['-czf', archive, '-C', OUT, '--owner=0', '--group=0', NAME], ROOT);
  rmSync(STAGE, { recursive: true, force: true });
  return archive;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const archive = release();
  console.log(`Release written to ${archive}`);
}
