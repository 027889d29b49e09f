import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { childDatabase, killChildServers, startChildServer } from './child-server.js';

/** The built server stopping (SIGTERM) while a client holds a request open. */
afterEach(() => killChildServers());

describe('shutdown', () => {
  it('cuts a stalled request after the grace period instead of waiting for it, and exits cleanly', async () => {
    const db = await childDatabase();
    try {
      const server = await startChildServer(db, { SHUTDOWN_GRACE_SECONDS: '1' });
      const { hostname, port } = new URL(server.baseUrl);
      // A request whose body never comes: its length is promised and a few bytes are sent.
      const socket = connect(Number(port), hostname);
      const cut = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        'POST /api/v2/login HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"acc',
      );
      // The server has the request (and its connection is not idle) once it answers something else meanwhile.
      expect((await fetch(`${server.baseUrl}/api/v2/common/monitor`)).status).toBe(200);

      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      server.child.kill('SIGTERM');
      // Without the cut, the server would wait for this body until Node's request timeout (five minutes).
      await cut;
      expect(await exited).toBe(0);
      expect(server.output()).toContain('cutting connections still open at shutdown');
    } finally {
      await db.drop();
    }
  });
});
