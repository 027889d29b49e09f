import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this module whether it runs from src (tsx) or from the bundle in dist. */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'packages', 'contracts', 'locales'))) return dir;
    dir = resolve(dir, '..');
  }
  throw new Error('Cannot find the repository root (packages/contracts/locales)');
}

export const ROOT_DIR = findRoot();
export const LOCALES_DIR = join(ROOT_DIR, 'packages', 'contracts', 'locales');
export const MIGRATIONS_DIR = join(ROOT_DIR, 'apps', 'server', 'migrations');
export const WEB_DIST_DIR = join(ROOT_DIR, 'apps', 'web', 'dist');
