import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoText, sqlIsoTime } from '../src/platform/db.js';
import { Jobs } from '../src/platform/jobs.js';
import { testDbKind } from './db-url.js';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('platform', () => {
  it('reports health including the database', async () => {
    const res = await h.call('common/monitor', { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ status: 'ok', database: 'ok' });
    for (const probe of ['common/ready', 'common/live']) {
      const answer = await h.call(probe, { method: 'GET' });
      expect([answer.status, answer.data]).toEqual([200, { status: 'ok' }]);
    }
  });

  it.runIf(testDbKind() === 'postgres')(
    'plans prepared statements once on every pooled PostgreSQL connection',
    async () => {
      // Five at once: the pool holds up to five connections here, each opened with the session setting.
      const settings = await Promise.all(
        Array.from({ length: 5 }, () =>
          h.db.transaction((tx) =>
            tx.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode, pg_sleep(0.05)`),
          ),
        ),
      );
      expect(settings.map(([row]) => row!.mode)).toEqual(Array(5).fill('force_generic_plan'));
    },
  );

  it('writes instants in SQL exactly as the driver and toISOString would, whatever the session time zone', async () => {
    const instants = [
      '2026-03-29 01:59:59.999999+00', // a cut, not a rounding, of the microseconds
      '2026-11-24 21:47:45.1236+00',
      '1999-12-31 23:00:00-05', // across a year, from another zone
      '2024-02-29 00:00:00.5+00',
    ];
    const rows = await h.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL TimeZone = 'Pacific/Chatham'`);
      return tx.query<{ driver: Date; text: string; none: string | null }>(
        `SELECT t AS driver, ${sqlIsoTime('t')} AS text, ${sqlIsoTime('NULL::timestamptz')} AS none
           FROM unnest($1::timestamptz[]) t`,
        [instants],
      );
    });
    expect(rows.map((r) => r.text)).toEqual(rows.map((r) => r.driver.toISOString()));
    expect(rows.map((r) => r.text)).toEqual([
      '2026-03-29T01:59:59.999Z',
      '2026-11-24T21:47:45.123Z',
      '2000-01-01T04:00:00.000Z',
      '2024-02-29T00:00:00.500Z',
    ]);
    expect(rows.every((r) => r.none === null)).toBe(true);
    expect(rows.map((r) => isoText(r.text))).toEqual(rows.map((r) => isoText(r.driver)));
  });

  it('works a burst at its full concurrency after one wake-up, not one more job per poll', async () => {
    // The poll would start one more drain a minute: only the fan-out from the first claim can reach four at once.
    const jobs = new Jobs(h.db, h.app.log, { pollMs: 60_000, concurrency: 4 });
    let running = 0;
    let most = 0;
    let finished = 0;
    const gates: Array<() => void> = [];
    jobs.handle('burstTest', async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((r) => gates.push(r));
      running -= 1;
      finished += 1;
    });
    await jobs.enqueueMany(
      'burstTest',
      Array.from({ length: 6 }, (_, n) => ({ n })),
      h.db,
    );
    jobs.start();
    jobs.wakeUp();
    await expect.poll(() => running, { timeout: 5000 }).toBe(4);
    // Until every job ran: a drain may still be claiming the last one when the others are done.
    while (finished < 6) {
      gates.splice(0).forEach((open) => open());
      await new Promise((r) => setTimeout(r, 5));
    }
    await jobs.stop();
    expect(most).toBe(4);
    const [left] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE kind = 'burstTest' AND status <> 'done'`,
    );
    expect(Number(left!.n)).toBe(0);
  });

  it('puts back a job whose claim was on its way when the runner stopped', async () => {
    let claimArrived!: () => void;
    const arrived = new Promise<void>((r) => (claimArrived = r));
    let letClaimThrough!: () => void;
    const held = new Promise<void>((r) => (letClaimThrough = r));
    // The claim statement is held until the runner has been told to stop.
    const db = {
      ...h.db,
      query: async <T>(sql: string, params?: unknown[]) => {
        if (sql.includes(`SET status = 'running'`)) {
          claimArrived();
          await held;
        }
        return h.db.query<T>(sql, params);
      },
    };
    const jobs = new Jobs(db, h.app.log, { pollMs: 60_000, concurrency: 1 });
    const ran: unknown[] = [];
    jobs.handle('lateClaim', async (p) => void ran.push(p));
    await jobs.enqueue('lateClaim', { n: 1 }, h.db);
    jobs.start();
    jobs.wakeUp();
    await arrived;
    const stopping = jobs.stop();
    letClaimThrough();
    await stopping;
    expect(ran).toEqual([]);
    const [job] = await h.db.query<{ status: string; attempts: number; claimed_by: string | null }>(
      `SELECT status, attempts, claimed_by FROM jobs WHERE kind = 'lateClaim'`,
    );
    expect(job).toEqual({ status: 'queued', attempts: 0, claimed_by: null });
  });

  it('claims no job once stopping: stop waits for the running one, and the next stays queued', async () => {
    const jobs = new Jobs(h.db, h.app.log, { pollMs: 10, concurrency: 1 });
    let release!: () => void;
    const ran: number[] = [];
    jobs.handle('stopTest', async (p) => {
      ran.push(Number(p.n));
      if (p.n === 1) await new Promise<void>((r) => (release = r));
    });
    await jobs.enqueue('stopTest', { n: 1 });
    await jobs.enqueue('stopTest', { n: 2 });
    jobs.start();
    jobs.wakeUp();
    while (!ran.length) await new Promise((r) => setTimeout(r, 5));
    const stopping = jobs.stop();
    release();
    await stopping;
    await new Promise((r) => setTimeout(r, 50)); // a draining loop would have claimed the second by now
    expect(ran).toEqual([1]);
    const states = await h.db.query<{ n: string; status: string }>(
      `SELECT payload->>'n' AS n, status FROM jobs WHERE kind = 'stopTest' ORDER BY id`,
    );
    expect(states.map((r) => [r.n, r.status])).toEqual([
      ['1', 'done'],
      ['2', 'queued'],
    ]);
  });

  it('refuses a query that escapes its transaction, at once, and keeps the database usable', async () => {
    // On the single-connection PGlite such a query used to wait forever for the transaction waiting for it.
    await expect(h.db.transaction(() => h.db.query('SELECT 1'))).rejects.toThrow(/pass the transaction/);
    await expect(h.db.transaction(() => h.db.transaction(async () => 1))).rejects.toThrow(/pass the transaction/);
    // Work a transaction leaves running may use the database once it has ended.
    let later: Promise<unknown> = Promise.resolve();
    await h.db.transaction(async (tx) => {
      later = new Promise((r) => setTimeout(r, 10)).then(() => h.db.query('SELECT 1 AS one'));
      return tx.query('SELECT 1');
    });
    await expect(later).resolves.toEqual([{ one: 1 }]);
  });

  it('serves the application config without trailing slashes', async () => {
    const res = await h.call('app_config/get');
    expect(res.code).toBe(200);
    expect(res.data.apiEndpoint).toBe('http://portal.test/api/v2');
    expect(res.data.wsEndpoint).toBe('ws://portal.test/ws');
    expect(res.data.themeCfgJson.defaultTheme).toBe('light');
    for (const key of [
      'agreement',
      'appmanager',
      'appName',
      'pageTagName',
      'isInternationalSite',
      'copyright',
      'supportUrl',
      'registerShowVersion',
    ]) {
      expect(res.data).toHaveProperty(key);
    }
  });

  it('issues a captcha and draws it as SVG; an unknown id is an invalid link', async () => {
    const init = await h.call('common/captcha/init', { method: 'GET' });
    expect(init.data.captchaId).toMatch(/^[0-9a-f]{32}$/);
    const img = await h.app.inject({ url: `/api/v2/common/captcha/draw/${init.data.captchaId}` });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toContain('image/svg+xml');
    expect(img.body).toContain('<svg');
    const missing = await h.app.inject({ url: '/api/v2/common/captcha/draw/nope' });
    expect(missing.json().code).toBe(2021);
  });

  it('answers unknown paths with the catalogue 404', async () => {
    const res = await h.call('no/such/call');
    expect(res.status).toBe(404);
    expect(res.code).toBe(404);
  });

  it('refuses malformed JSON and oversized bodies with 400-class codes, never 500', async () => {
    const bad = await h.app.inject({
      method: 'POST',
      url: '/api/v2/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(400);
    const big = await h.app.inject({
      method: 'POST',
      url: '/api/v2/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account: 'x'.repeat(400_000), password: 'y' }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe(413);
    const media = await h.app.inject({
      method: 'POST',
      url: '/api/v2/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(media.statusCode).toBe(415);
    expect(media.json().code).toBe(415);
  });

  it('sets security headers, a content security policy and a request id; no CORS by default', async () => {
    const res = await h.app.inject({ url: '/api/v2/common/monitor', headers: { origin: 'http://evil.test' } });
    // API answers are never rendered: nothing may load from them and nothing may frame them.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: '/api/v2/login',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // Pages get the full policy.
    const page = await h.app.inject({ url: '/api/docs/' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['strict-transport-security']).toBeTruthy();
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('answers 503 from the health check when the database is gone', async () => {
    const broken = await createHarness();
    await broken.db.close();
    const res = await broken.call('common/monitor', { method: 'GET' });
    expect([res.status, res.code]).toEqual([503, 503]);
    // A balancer takes the process out (not ready) but does not restart it (still live).
    const ready = await broken.call('common/ready', { method: 'GET' });
    expect([ready.status, ready.code]).toEqual([503, 503]);
    const live = await broken.call('common/live', { method: 'GET' });
    expect([live.status, live.data]).toEqual([200, { status: 'ok' }]);
    await broken.app.close();
  });

  it('answers in the language of the lang header', async () => {
    const de = await h.call('login', { body: { account: 'nobody-here', password: 'x' }, lang: 'de' });
    expect(de.code).toBe(1003);
    const en = await h.call('login', { body: { account: 'nobody-here', password: 'x' } });
    expect(en.msg).toBe("This account doesn't exist");
    expect(de.msg).not.toBe(en.msg);
  });

  it('serves Swagger UI', async () => {
    const res = await h.app.inject({ url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});
