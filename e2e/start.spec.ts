import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** `npm start`'s script against the suite's build: nothing is rebuilt, and the console stays readable. */
const ROOT = resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  child = dataDir = undefined;
});

/** Starts the script and resolves with its console once `/` answers 200 and one API call was answered. */
async function startAndCall(env: Record<string, string>) {
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'portal-start-'));
  let out = '';
  child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ...env,
    },
  });
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const answer = await fetch(`${base}/`).catch(() => undefined);
    if (answer?.status === 200) break;
    if (i > 600) throw new Error(`no answer within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await fetch(`${base}/api/v2/user/info`, { method: 'POST' });
  await new Promise((r) => setTimeout(r, 300));
  return out;
}

describe('npm start', () => {
  it('reuses the build when nothing changed and prints the banner, not a JSON line per request', async () => {
    const out = await startAndCall({});
    expect(out).not.toContain('Building');
    expect(out).toContain('Dental Portal is running at');
    expect(out).not.toMatch(/^\{/m);
    expect(out).not.toContain('/api/v2/user/info');
  });

  it('prints one short line per request when asked, and JSON lines in production', async () => {
    const lines = await startAndCall({ LOG_REQUESTS: 'true' });
    expect(lines).toMatch(/^\d\d:\d\d:\d\d POST \/api\/v2\/user\/info 401 [\d.]+ ms$/m);
    child?.kill('SIGKILL');
    rmSync(dataDir!, { recursive: true, force: true });
    const json = await startAndCall({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) });
    const entries = json
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } });
    expect(entries.some((e) => e.req?.url === '/api/v2/user/info')).toBe(true);
  });
});
