import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, LOGIN_CAPTCHA_AFTER_FAILURES } from '@portal/contracts';
import { haproxyInstalled, startCluster, type Cluster } from '../../../scripts/cluster-lib.mjs';
import { postgresDb, type Db } from '../src/platform/db.js';
import { postgresAdminUrl, testDbKind } from './db-url.js';
import { createUser, PASSWORD } from './harness.js';
import { clusterCaller } from './cluster-call.js';
import { LiveClient } from './live-client.js';
import { binaryStl } from './uploads.js';

/**
 * `npm run cluster`'s site (docs/operations.md, "Several processes behind a balancer"): two built servers on one
 * PostgreSQL database and one S3-compatible store behind HAProxy. Every request goes through the balancer; its
 * `X-Served-By` header names the process that answered.
 */
/** The per-minute sign-in budget of one address (every request here comes from 127.0.0.1). */
const LOGIN_LIMIT = 30;

describe.skipIf(testDbKind() !== 'postgres' || !haproxyInstalled())('two processes behind HAProxy', () => {
  let cluster: Cluster;
  let db: Db;
  const sockets: LiveClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster({
      adminUrl: postgresAdminUrl(),
      database: `portal_cluster_${randomBytes(6).toString('hex')}`,
      dropDatabaseOnStop: true,
      env: { SEED_DEMO: 'false', NODE_ENV: 'test', LOGIN_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT) },
    });
    db = postgresDb(cluster.databaseUrl, 2);
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await db?.close();
    await cluster?.stop();
  }, 60_000);

  const call = clusterCaller(() => cluster.url);
  /** Calls through the balancer until `name` answers one (it is back in rotation); every call must succeed. */
  async function rejoins(name: string, token: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await call('user/info', {}, token);
      expect(res.code).toBe(200);
      if (res.servedBy === name) return;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  async function signIn() {
    const user = await createUser(db);
    const res = await call('login', { account: user.account, password: PASSWORD, saveLogin: true });
    expect(res.code).toBe(200);
    return { ...user, token: res.data.accessToken as string, servedBy: res.servedBy };
  }

  it('a sign-in on one process holds on the other', async () => {
    const user = await signIn();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call('user/info', {}, user.token));
    expect(answers.map((a) => [a.status, a.code])).toEqual(Array(4).fill([200, 200]));
    expect(new Set([user.servedBy, ...answers.map((a) => a.servedBy)])).toEqual(new Set(['portal1', 'portal2']));
    expect(answers.some((a) => a.servedBy !== user.servedBy)).toBe(true);
  });

  it('a tus upload begun on one process goes on at its offset on the other; the stored file is whole', async () => {
    const { token } = await signIn();
    const caseCode = (await call('case/create', { name: 'Scan', patientName: 'Ida Lund' }, token)).data
      .caseCode as string;
    const bytes = binaryStl(20_000, 5);
    const half = 500_000;
    const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
    const meta = (o: Record<string, string>) =>
      Object.entries(o)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(',');
    const created = await fetch(`${cluster.url}/api/v2/files/tus`, {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': String(bytes.length),
        'upload-metadata': meta({ caseCode, filename: 'arch.stl' }),
      },
    });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location')!, cluster.url).toString();
    const patch = (offset: number, body: Buffer) =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(body),
      });
    const first = await patch(0, bytes.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(half));
    // Round robin: the next call goes to the other process, which learns the offset from the shared stores.
    const second = await patch(half, bytes.subarray(half));
    expect(second.status).toBe(204);
    expect(second.headers.get('upload-offset')).toBe(String(bytes.length));
    expect(second.headers.get('x-served-by')).not.toBe(first.headers.get('x-served-by'));

    const files = (await call('case/detail', { caseCode }, token)).data.files as Array<{
      fileCode: string;
      size: number;
    }>;
    expect(files.map((f) => f.size)).toEqual([bytes.length]);
    const grant = (await call('file/downloadGrant', { fileCode: files[0]!.fileCode }, token)).data as { url: string };
    const link = grant.url.startsWith('http') ? grant.url : `${cluster.url}${grant.url}`;
    const downloaded = Buffer.from(await (await fetch(link)).arrayBuffer());
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(downloaded)).toBe(sha(bytes));
  });

  it('failed sign-ins count across processes: the captcha is asked for after the third, wherever it landed', async () => {
    const user = await createUser(db);
    const failures = [];
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER_FAILURES; i++)
      failures.push(await call('login', { account: user.account, password: 'wrong-password-1', saveLogin: false }));
    expect(failures.every((f) => f.code === ERRORS.INVALID_PASSWORD.code)).toBe(true);
    expect(new Set(failures.map((f) => f.servedBy))).toEqual(new Set(['portal1', 'portal2']));
    // The right password now needs the captcha, on either process.
    for (let i = 0; i < 2; i++) {
      const next = await call('login', { account: user.account, password: PASSWORD, saveLogin: false });
      expect(next.code).toBe(ERRORS.CAPTCHA_REQUIRED.code);
    }
  });

  it('a socket on one process hears of a change made through the other', async () => {
    const user = await signIn();
    const a = new LiveClient(cluster.url);
    const b = new LiveClient(cluster.url);
    sockets.push(a, b);
    await a.auth(user.token);
    await b.auth(user.token);
    const takenBy = [a, b].map((s) => s.upgradeHeaders['x-served-by']);
    expect(new Set(takenBy)).toEqual(new Set(['portal1', 'portal2']));

    const made = await call('case/create', { name: 'Live', patientName: 'Ida Lund' }, user.token);
    expect(made.code).toBe(200);
    const caseCode = made.data.caseCode as string;
    const elsewhere = [a, b][takenBy.findIndex((p) => p !== made.servedBy)]!;
    await elsewhere.until(
      () => elsewhere.events.find((e) => e.kind === 'case.changed' && e.subject === caseCode),
      'the case event on the other process',
    );
  });

  it('kill -9 of one process under load: no 503, every call begun after it succeeds, and the process rejoins', async () => {
    const user = await signIn();
    const results: Array<{ began: number; ended: number; status: number; code?: number; servedBy: string | null }> = [];
    let running = true;
    const worker = async () => {
      while (running) {
        const began = Date.now();
        try {
          const res = await call('user/info', {}, user.token);
          results.push({ began, ended: Date.now(), status: res.status, code: res.code, servedBy: res.servedBy });
        } catch {
          results.push({ began, ended: Date.now(), status: 0, servedBy: null });
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((r) => setTimeout(r, 1000));
    const killedAt = Date.now();
    await cluster.kill(0);
    const deadAt = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    running = false;
    await Promise.all(workers);

    expect(results.some((r) => r.began < killedAt && r.servedBy === 'portal1')).toBe(true);
    expect(results.filter((r) => r.status === 503)).toEqual([]);
    const after = results.filter((r) => r.began >= deadAt);
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((r) => r.status !== 200 || r.code !== 200)).toEqual([]);
    expect(after.every((r) => r.servedBy === 'portal2')).toBe(true);
    // Calls that were in flight on the killed process may fail (a write may have committed there): only those.
    const failed = results.filter((r) => r.status !== 200);
    expect(failed.every((r) => r.began < deadAt && r.ended >= killedAt)).toBe(true);
    const stall = Math.max(...after.map((r) => r.ended - r.began));
    expect(stall).toBeLessThan(2000);

    await cluster.restart(0);
    await rejoins('portal1', user.token);
  }, 60_000);

  it('kill -9 under keyed writes: each key is applied at most once, and only writes in flight are left unknown', async () => {
    const user = await signIn();
    const outcome = new Map<string, number>();
    let running = true;
    let n = 0;
    const worker = async () => {
      while (running) {
        const key = `cluster-write-${n++}`;
        // A failed attempt is sent again with its key, as a client would, until it is answered.
        for (let attempt = 0; attempt < 5; attempt++) {
          const res = await call('case/create', { name: key, patientName: 'Failover' }, user.token, key).catch(() => ({
            status: 0,
            code: 0,
          }));
          outcome.set(key, res.code);
          if (res.code === 200 || res.code === ERRORS.IDEMPOTENCY_PENDING.code) break;
          await new Promise((r) => setTimeout(r, 300));
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.kill(0);
    await new Promise((r) => setTimeout(r, 3000));
    running = false;
    await Promise.all(workers);

    const made = await db.query<{ name: string; n: number }>(
      `SELECT name, count(*)::int AS n FROM cases WHERE patient_name = 'Failover' GROUP BY name`,
    );
    const applied = new Map(made.map((r) => [r.name, r.n]));
    expect([...applied.values()].every((times) => times === 1)).toBe(true);
    const answered = [...outcome].filter(([, code]) => code === 200);
    expect(answered.length).toBeGreaterThan(20);
    for (const [key] of answered) expect(applied.get(key), key).toBe(1);
    // Keys whose first attempt a dead process had begun: their outcome is unknown, never applied twice; at most the
    // writes in flight on the killed process.
    const unknown = [...outcome].filter(([, code]) => code !== 200);
    expect(unknown.every(([, code]) => code === ERRORS.IDEMPOTENCY_PENDING.code)).toBe(true);
    expect(unknown.length).toBeLessThanOrEqual(8);

    await cluster.restart(0);
    await rejoins('portal1', user.token);
  }, 60_000);

  it('with every process down, a call waits for the first one back instead of getting a 503', async () => {
    const user = await signIn();
    await Promise.all([cluster.kill(0), cluster.kill(1)]);
    // Both out of rotation: two failed health checks a second apart.
    await new Promise((r) => setTimeout(r, 3000));
    const began = Date.now();
    const waiting = call('user/info', {}, user.token);
    await cluster.restart(1);
    const res = await waiting;
    expect([res.status, res.code, res.servedBy]).toEqual([200, 200, 'portal2']);
    expect(Date.now() - began).toBeLessThan(30_000);
    await cluster.restart(0);
    await rejoins('portal1', user.token);
  }, 60_000);

  it("the per-minute sign-in budget of an address is the site's, not each process's", async () => {
    // The shared budget is counted in windows of whole minutes: start with enough of this one left.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
    const statuses: Array<{ status: number; servedBy: string | null }> = [];
    // Each process alone would let LOGIN_LIMIT through; the site lets through at most that many in all.
    for (let i = 0; i <= LOGIN_LIMIT; i++) {
      const res = await call('login', { account: `nobody-${i}`, password: 'wrong-password-1', saveLogin: false });
      statuses.push({ status: res.status, servedBy: res.servedBy });
    }
    expect(new Set(statuses.map((s) => s.servedBy))).toEqual(new Set(['portal1', 'portal2']));
    expect(statuses.at(-1)!.status).toBe(429);
    expect(statuses.filter((s) => s.status !== 429).length).toBeLessThanOrEqual(LOGIN_LIMIT);
  }, 30_000);
});
