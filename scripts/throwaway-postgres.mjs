// A PostgreSQL server of its own, in a temporary folder, for `npm run cluster` on a machine where none answers: made
// with Debian's initdb, listening on a free loopback port, trust authentication (loopback only), removed when stopped.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, postgresAccount } from './local-service.mjs';

/** The folder of PostgreSQL's server programs (initdb, postgres): pg_config's, else Debian's newest. */
export function postgresBinaries() {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [];
  if (fromConfig.status === 0) candidates.push(fromConfig.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    candidates.push(
      ...readdirSync(debian)
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(debian, v, 'bin')),
    );
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
}

/**
 * Starts the server and answers { adminUrl, stop }. `adminUrl` names its `postgres` database as the `postgres`
 * superuser; `stop()` shuts it down and removes its folder.
 */
export async function startThrowawayPostgres({ onOutput = () => undefined } = {}) {
  const bin = postgresBinaries();
  if (!bin) throw new Error("No PostgreSQL server programs found: install Debian's `postgresql` package.");
  const owner = postgresAccount('PostgreSQL');
  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-instructions'],
    { ...owner, encoding: 'utf8' },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);
  }
  const port = await freePort();
  const server = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'log_min_messages=warning',
    ],
    { ...owner, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk) => {
    output += chunk;
    onOutput(String(chunk));
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      // Fast shutdown: the folder is thrown away anyway.
      server.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`PostgreSQL stopped at start:\n${output}`);
    }
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`PostgreSQL did not answer within 30 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { adminUrl, port, dir, stop };
}
