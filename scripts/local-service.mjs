// What the scripts that start local services on loopback share (the cluster, its PostgreSQL and its PgBouncer).
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on now, on loopback. */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

/**
 * PostgreSQL and PgBouncer refuse to run as root: a script run as root starts them as the `postgres` account Debian's
 * packages make ({ uid, gid } for spawn); anyone else runs them as themselves ({}).
 */
export function postgresAccount(what) {
  if (process.getuid?.() !== 0) return {};
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(`${what} does not run as root, and there is no \`postgres\` account to run it as.`);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
