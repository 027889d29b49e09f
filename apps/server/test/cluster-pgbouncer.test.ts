import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyInstalled, startCluster, type Cluster } from '../../../scripts/cluster-lib.mjs';
import { pgbouncerInstalled } from '../../../scripts/pgbouncer.mjs';
import { postgresDb, type Db } from '../src/platform/db.js';
import { postgresAdminUrl, testDbKind } from './db-url.js';
import { createUser, PASSWORD } from './harness.js';
import { clusterCaller } from './cluster-call.js';
import { LiveClient } from './live-client.js';

/**
 * The site through PgBouncer in transaction mode (docs/operations.md, "Behind PgBouncer"): a connection is the
 * portal's for one transaction only, so nothing may rely on a session. Statements are not prepared by name, no
 * session setting is made, the advisory lock that orders events is a transaction's, and LISTEN connects directly.
 * Each part that would break behind a pooler is exercised here: sign-in, writes in transactions, a job, events heard
 * by a socket on the other process, a keyed write's replay.
 */
describe.skipIf(testDbKind() !== 'postgres' || !haproxyInstalled() || !pgbouncerInstalled())(
  'two processes through PgBouncer in transaction mode',
  () => {
    let cluster: Cluster;
    let db: Db;
    const sockets: LiveClient[] = [];

    beforeAll(async () => {
      cluster = await startCluster({
        adminUrl: postgresAdminUrl(),
        database: `portal_pgb_${randomBytes(6).toString('hex')}`,
        dropDatabaseOnStop: true,
        pgbouncer: true,
        env: { SEED_DEMO: 'false', NODE_ENV: 'test' },
      });
      db = postgresDb(cluster.databaseUrl, 2);
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await db?.close();
      await cluster?.stop();
    }, 60_000);

    const call = clusterCaller(() => cluster.url);

    it('signs in, writes, runs a job, replays a keyed write and pushes events across processes', async () => {
      const user = await createUser(db);
      const login = await call('login', { account: user.account, password: PASSWORD, saveLogin: true });
      expect(login.code, login.msg).toBe(200);
      const token = login.data.accessToken as string;

      const a = new LiveClient(cluster.url);
      const b = new LiveClient(cluster.url);
      sockets.push(a, b);
      await a.auth(token);
      await b.auth(token);
      expect(new Set([a, b].map((s) => s.upgradeHeaders['x-served-by']))).toEqual(new Set(['portal1', 'portal2']));

      // Many statements on both processes, each of them the same text: a named prepared statement would meet a
      // connection that never saw it.
      const codes: string[] = [];
      for (let i = 0; i < 12; i++) {
        const made = await call('case/create', { name: `Pooled ${i}`, patientName: 'Pia Holm' }, token);
        expect(made.code, made.msg).toBe(200);
        codes.push(made.data.caseCode as string);
        expect((await call('case/detail', { caseCode: made.data.caseCode }, token)).code).toBe(200);
      }
      for (const socket of [a, b])
        await socket.until(
          () => socket.events.find((e) => e.kind === 'case.changed' && e.subject === codes.at(-1)),
          'the last case event on both processes',
        );

      // A job (the export's packing) claimed and run through the pooler.
      const exported = await call('export/create', { caseCodes: codes.slice(0, 2), types: ['stl'] }, token);
      expect(exported.code, exported.msg).toBe(200);
      const deadline = Date.now() + 20_000;
      let status = exported.data.status as number;
      while ([0, 5].includes(status) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 300));
        status = (await call('export/status', { exportCode: exported.data.exportCode }, token)).data.status as number;
      }
      expect([0, 5]).not.toContain(status);

      // A keyed write and its replay.
      const first = await call('case/create', { name: 'Keyed pooled', patientName: 'Pia Holm' }, token, 'pooled-key-1');
      const again = await call('case/create', { name: 'Keyed pooled', patientName: 'Pia Holm' }, token, 'pooled-key-1');
      expect(again.replayed).toBe('true');
      expect(again.data.caseCode).toBe(first.data.caseCode);
    }, 90_000);
  },
);
