import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { openDb, pgliteExtensions, postgresDb, type Db } from '../src/platform/db.js';
import { migrateAll } from '../src/migrations.js';
import { postgresAdminUrl, testDbKind, withDatabase } from './db-url.js';
import { randomBytes } from 'node:crypto';

const ROOT = resolve(import.meta.dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');

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

/**
 * A database the built server runs on as a separate process: a PGlite data folder (only one process may hold it
 * at a time, so `open` is for when the server is stopped) or a PostgreSQL database cloned from the test template.
 * `fresh`: an empty database instead (no PGlite folder at all), that the server's first start migrates.
 */
export async function childDatabase(opts: { fresh?: boolean } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-child-'));
  let databaseUrl: string | undefined;
  let name: string | undefined;
  if (testDbKind() === 'postgres') {
    name = `portal_c_${randomBytes(6).toString('hex')}`;
    const admin = postgresDb(postgresAdminUrl(), 1);
    await admin.query(`CREATE DATABASE ${name}${opts.fresh ? '' : ` TEMPLATE ${inject('postgresTemplate')}`}`);
    await admin.close();
    databaseUrl = withDatabase(postgresAdminUrl(), name);
  } else if (!opts.fresh) {
    // The migrated template's data folder, unpacked where the server will open it.
    const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
    await (
      await PGlite.create({
        dataDir: join(dataDir, 'pglite'),
        loadDataDir: template,
        extensions: await pgliteExtensions(),
      })
    ).close();
  }
  return {
    dataDir,
    databaseUrl,
    /** The local blob store's folder (`STORAGE=local`). */
    filesDir: join(dataDir, 'files'),
    /** Opens the database from the test process: migrated, or as it is with `{ migrate: false }`. */
    async open(o: { migrate?: boolean } = {}): Promise<Db> {
      const db = await openDb({ databaseUrl, pgliteDir: databaseUrl ? undefined : join(dataDir, 'pglite') });
      if (o.migrate !== false) await migrateAll(db);
      return db;
    },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      if (name) {
        const admin = postgresDb(postgresAdminUrl(), 1);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      }
    },
  };
}

/** Servers started and not yet ended: a test that fails half-way leaves none running (`killChildServers`). */
const live = new Set<ChildProcess>();

/** Kills every child server still running (after each test of a suite that starts them). */
export async function killChildServers() {
  await Promise.all(
    [...live].map(async (child) => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }),
  );
}

export interface ChildServer {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  /** kill -9: no shutdown, no flush, as a power cut or an OOM kill would do. */
  crash: () => Promise<void>;
  stop: () => Promise<void>;
}

/** Starts the built server (what `npm start` runs) as a child process and waits until it answers. */
export async function startChildServer(
  db: { dataDir: string; databaseUrl?: string },
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const { server, ready } = await spawnChildServer(db, env);
  await ready;
  return server;
}

/**
 * Starts the built server as a child process without waiting: `ready` resolves once it answers, so a test can
 * watch (and kill) what the start-up itself does: migrations, the first upkeep runs.
 */
export async function spawnChildServer(
  db: { dataDir: string; databaseUrl?: string },
  env: Record<string, string> = {},
): Promise<{ server: ChildServer; ready: Promise<void> }> {
  if (!existsSync(MAIN)) throw new Error('Build first: npm run build');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: db.dataDir,
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
      PUBLIC_URL: baseUrl,
      JWT_SECRET: 'child-server-secret-that-is-long-enough-to-sign',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  live.add(child);
  const exited = new Promise<void>((r) =>
    child.once('exit', () => {
      live.delete(child);
      r();
    }),
  );
  const ready = (async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${output}`);
      try {
        const res = await fetch(`${baseUrl}/api/v2/common/monitor`);
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  // A test that kills the server before it is ready does not wait for this.
  ready.catch(() => undefined);
  const server: ChildServer = {
    baseUrl,
    child,
    output: () => output,
    crash: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return { server, ready };
}

/** POST to the child server's API with JSON; answers the envelope. */
export async function callChild(baseUrl: string, path: string, body: unknown = {}, token?: string) {
  const res = await fetch(`${baseUrl}/api/v2/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}
