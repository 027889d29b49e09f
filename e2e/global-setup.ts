import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    jwtSecret: string;
  }
}

const ROOT = resolve(import.meta.dirname, '..');
export const E2E_JWT_SECRET = 'e2e-secret-that-is-long-enough-to-sign-tokens';

/** A port nothing listens on now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

/** Starts the built portal (what `npm start` runs) on a free port with a fresh embedded database. */
export default async function setup(project: TestProject) {
  if (!existsSync(join(ROOT, 'apps/server/dist/main.js')) || !existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('Build first: npm run build');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    JWT_SECRET: E2E_JWT_SECRET,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT_PER_MINUTE: '500',
    // The webhook journeys' receiver listens on loopback.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    // The reference app of the apps journey is called back on loopback.
    OAUTH_ALLOW_LOOPBACK_REDIRECTS: 'true',
  };
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/v2/common/monitor`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('jwtSecret', E2E_JWT_SECRET);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
