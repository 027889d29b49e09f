// A site of several portal processes on loopback: one PostgreSQL database, one S3-compatible store (s3rver), N built
// servers and HAProxy in front (docs/operations.md, "Several processes behind a balancer"). `npm run cluster` and the
// cluster test start it through `startCluster`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startS3Server } from './s3-server.mjs';
import { freePort } from './local-service.mjs';
import { startPgBouncer } from './pgbouncer.mjs';
import { startThrowawayPostgres } from './throwaway-postgres.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until `url` answers 200 (or `alive()` says the process behind it is gone). */
async function answers(url, what, alive = () => true, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!alive()) throw new Error(`${what} exited before it was ready`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not get ready within ${ms / 1000} s`);
    await pause(100);
  }
}

function haproxyBinary() {
  for (const candidate of ['haproxy', '/usr/sbin/haproxy']) {
    if (spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

export const haproxyInstalled = () => haproxyBinary() !== undefined;

/** Whether `startCluster` can run here: HAProxy installed and the server built. */
export function clusterPrerequisites() {
  const missing = [];
  if (!haproxyBinary()) missing.push('HAProxy (bash scripts/ensure-haproxy.sh)');
  if (!existsSync(MAIN)) missing.push('the built server (npm run build)');
  return missing;
}

/** TCP reachability of 127.0.0.1:5432, as scripts/pg-reachable.mjs checks it. */
function localPostgresAnswers() {
  return spawnSync(process.execPath, [join(ROOT, 'scripts/pg-reachable.mjs')]).status === 0;
}

/**
 * The balancer's configuration. Reads (GET, HEAD: health checks, file downloads, the live socket) may be replayed on
 * another process after any failure; every API call is a POST that may have committed when its process died, so those
 * are replayed only when the process refused the connection or answered 503 (a stopping process answers 503 before the
 * call runs). When no process is up, requests wait up to 30 s for one (scripts/haproxy-wait.lua) instead of answering 503.
 */
/** The balancer of the compose file (ops/compose.yaml): two portal services, the wait script mounted beside it. */
export const COMPOSE_HAPROXY = {
  port: 8080,
  bind: '*:8080',
  luaPath: '/usr/local/etc/haproxy/haproxy-wait.lua',
  byName: true,
  servers: [
    { name: 'portal1', host: 'portal1', port: 3000 },
    { name: 'portal2', host: 'portal2', port: 3000 },
  ],
};

export function haproxyConfig({
  port,
  servers,
  bind = `127.0.0.1:${port}`,
  luaPath = join(ROOT, 'scripts/haproxy-wait.lua'),
  // Servers named by host (a compose file's services): resolved at start when they can be, else later.
  byName = false,
}) {
  const line = (s) => `  server ${s.name} ${s.host ?? '127.0.0.1'}:${s.port}`;
  const dns = byName ? '\nresolvers dns\n  parse-resolv-conf\n  hold valid 10s\n' : '';
  return `global
  maxconn 4096
  lua-load ${luaPath}
${dns}
defaults
  mode http
  option redispatch 1
  retries 3
  timeout connect 2s
  timeout client 75s
  timeout server 75s
  timeout http-request 30s
  timeout http-keep-alive 75s
  timeout queue 30s
  timeout tunnel 1h
  timeout client-fin 30s
  timeout server-fin 30s

frontend portal
  bind ${bind}
  # The portal trusts this header (TRUST_PROXY=true) for rate limits and logs: set, never passed on from the client.
  http-request set-header X-Forwarded-For %[src]
  acl replay_safe method GET HEAD OPTIONS
  # A write with an Idempotency-Key applies at most once whatever process it reaches (docs/api.md, "Retrying a write").
  acl keyed_write req.hdr(Idempotency-Key) -m found
  http-request lua.wait_for_portal if { nbsrv(portal) eq 0 }
  use_backend portal_reads if replay_safe || keyed_write
  default_backend portal
  http-response set-header X-Served-By %[srv_name]

backend portal
  balance roundrobin
  retry-on conn-failure 503
  option httpchk
  http-check send meth GET uri /api/v2/common/ready
  http-check expect status 200
  default-server check inter 1s fall 2 rise 2 maxconn 200${byName ? ' init-addr last,libc,none resolvers dns' : ''}
${servers.map(line).join('\n')}

backend portal_reads
  balance roundrobin
  retry-on conn-failure empty-response junk-response response-timeout 503
${servers.map((s) => `${line(s)} track portal/${s.name} maxconn 200${byName ? ' init-addr last,libc,none resolvers dns' : ''}`).join('\n')}

`;
}

/**
 * Starts a site on loopback and answers { url, processes, stop, kill(i), restart(i) }.
 * - `throwawayPostgres`: start a PostgreSQL of the cluster's own (scripts/throwaway-postgres.mjs) even when one answers.
 * - `pgbouncer`: the processes reach PostgreSQL through PgBouncer in transaction mode (scripts/pgbouncer.mjs), LISTEN
 *   directly.
 * - `adminUrl`: a PostgreSQL URL whose server gets the fresh database `database` (default: DATABASE_URL, else the local
 *   server on 127.0.0.1:5432 when it answers; without either, a throwaway one of the cluster's own).
 * - `port`: the balancer's port (default: any free one); `processes`: how many portal processes (default 2).
 * - `env`: more environment for every process; `onOutput(name, text)`: what the processes and HAProxy print.
 */
export async function startCluster(options = {}) {
  const {
    processes: count = 2,
    database = 'portal_cluster',
    env = {},
    onOutput = () => undefined,
    dropDatabaseOnStop = false,
  } = options;
  const missing = clusterPrerequisites();
  if (missing.length) throw new Error(`The cluster needs ${missing.join(' and ')}.`);
  // The server named, else the local one, else one of the cluster's own (throwaway: removed when the cluster stops).
  let throwaway;
  let adminUrl = options.throwawayPostgres
    ? undefined
    : (options.adminUrl ?? process.env.DATABASE_URL ?? (localPostgresAnswers() ? LOCAL_POSTGRES : undefined));
  if (!adminUrl) {
    throwaway = await startThrowawayPostgres({ onOutput: (text) => onOutput('postgres', text) });
    adminUrl = throwaway.adminUrl;
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  // Through PgBouncer in transaction mode: every statement goes through the pooler, LISTEN connects directly.
  let bouncer;
  if (options.pgbouncer) {
    try {
      bouncer = await startPgBouncer(adminUrl, { onOutput: (text) => onOutput('pgbouncer', text) });
    } catch (err) {
      await throwaway?.stop();
      throw err;
    }
  }
  const pooledEnv = bouncer
    ? {
        DATABASE_URL: bouncer.url(database),
        DATABASE_POOLER: 'transaction',
        LISTEN_DATABASE_URL: databaseUrl.toString(),
      }
    : {};

  const dir = mkdtempSync(join(tmpdir(), 'portal-cluster-'));
  const s3 = await startS3Server({ directory: join(dir, 's3'), bucket: 'portal' });
  const port = options.port || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const shared = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    PUBLIC_URL: url,
    // Every process signs and checks the same tokens.
    JWT_SECRET: randomBytes(48).toString('base64url'),
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    ...s3.env,
    ...pooledEnv,
    ...env,
  };

  const processes = [];
  for (let i = 0; i < count; i++) {
    processes.push({ name: `portal${i + 1}`, port: await freePort(), child: undefined, output: '' });
  }

  const start = async (i) => {
    const p = processes[i];
    const dataDir = join(dir, p.name);
    mkdirSync(dataDir, { recursive: true });
    p.output = '';
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { ...shared, PORT: String(p.port), DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    p.child = child;
    const keep = (chunk) => {
      p.output += chunk;
      onOutput(p.name, String(chunk));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    await answers(
      `http://127.0.0.1:${p.port}/api/v2/common/ready`,
      p.name,
      () => child.exitCode === null && child.signalCode === null,
    ).catch((err) => {
      throw new Error(`${err.message}\n${p.output}`);
    });
  };
  const end = async (i, signal) => {
    const child = processes[i].child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };

  let haproxy;
  const stop = async () => {
    await Promise.all(processes.map((_, i) => end(i, 'SIGTERM')));
    if (haproxy && haproxy.exitCode === null) {
      const exited = new Promise((r) => haproxy.once('exit', r));
      haproxy.kill('SIGTERM');
      await exited;
    }
    await s3.stop();
    await bouncer?.stop();
    rmSync(dir, { recursive: true, force: true });
    if (dropDatabaseOnStop && !throwaway) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await c.end();
    }
    await throwaway?.stop();
  };

  try {
    // The server migrates before it listens, without a lock between processes, and seeds an empty database: the first
    // process does both alone, the others start once it is ready.
    await start(0);
    await Promise.all(processes.slice(1).map((_, i) => start(i + 1)));
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig({ port, servers: processes }));
    const check = spawnSync(haproxyBinary(), ['-c', '-q', '-f', config], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`HAProxy refused its configuration:\n${check.stdout}${check.stderr}`);
    haproxy = spawn(haproxyBinary(), ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout.on('data', (c) => onOutput('haproxy', String(c)));
    haproxy.stderr.on('data', (c) => onOutput('haproxy', String(c)));
    await answers(`${url}/api/v2/common/ready`, 'HAProxy', () => haproxy.exitCode === null);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }

  return {
    url,
    databaseUrl: databaseUrl.toString(),
    processes: processes.map((p) => ({ name: p.name, url: `http://127.0.0.1:${p.port}` })),
    /** What process `i` printed since it last started. */
    output: (i) => processes[i].output,
    /** The running processes' ids (the benchmarks account their CPU time). */
    pids: () => ({ portals: processes.map((p) => p.child?.pid).filter(Boolean), haproxy: haproxy?.pid }),
    stop,
    /** kill -9 of process `i`: no shutdown, as a power cut or an OOM kill would do. */
    kill: (i) => end(i, 'SIGKILL'),
    /** Starts process `i` again on its port (after `kill`) and waits until it is ready. */
    restart: async (i) => {
      await end(i, 'SIGTERM');
      await start(i);
    },
  };
}
