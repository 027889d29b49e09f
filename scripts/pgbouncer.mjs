// Debian's PgBouncer in transaction mode in front of a PostgreSQL server, for `npm run cluster` with
// CLUSTER_PGBOUNCER=1 and its tests (docs/operations.md, "Behind PgBouncer"): a temporary folder, a free loopback port,
// removed when stopped.
import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, postgresAccount } from './local-service.mjs';

const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
export const pgbouncerInstalled = () => BINARY !== undefined;

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts PgBouncer for the server of `serverUrl` (a postgres:// URL whose user it connects as) and answers
 * { url(database), port, stop }: `url` is the same server and user through the pooler.
 */
export async function startPgBouncer(serverUrl, { poolSize = 20, onOutput = () => undefined } = {}) {
  if (!BINARY) throw new Error("PgBouncer is not installed: install Debian's `pgbouncer` package.");
  const target = new URL(serverUrl);
  const owner = postgresAccount('PgBouncer');
  const dir = mkdtempSync(join(tmpdir(), 'portal-pgbouncer-'));
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid);
  const port = await freePort();
  const user = decodeURIComponent(target.username || 'postgres');
  const password = target.password ? ` password=${decodeURIComponent(target.password)}` : '';
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(
    config,
    `[databases]
* = host=${target.hostname} port=${target.port || 5432} user=${user}${password}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
; Loopback only, in front of a server that authenticates it: clients are not asked for a password.
auth_type = any
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 1000
; node-postgres sends these at start; a pooler in transaction mode cannot keep session settings anyway.
ignore_startup_parameters = extra_float_digits,options
server_reset_query =
`,
  );
  if (owner.uid !== undefined) chownSync(config, owner.uid, owner.gid);
  const child = spawn(BINARY, [config], { ...owner, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output += chunk;
    onOutput(String(chunk));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`PgBouncer did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = (database) => {
    const u = new URL(serverUrl);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    u.pathname = `/${database}`;
    return u.toString();
  };
  return { url, port, stop };
}
