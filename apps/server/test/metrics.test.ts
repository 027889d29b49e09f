import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { ConfigError, loadConfig } from '../src/config.js';
import { createHarness, type Harness } from './harness.js';
import { childDatabase, freePort, killChildServers, startChildServer } from './child-server.js';
import { newCase, side, type Side } from './fixtures.js';
import { LiveClient } from './live-client.js';
import { binaryStl, tusUpload } from './uploads.js';

/** Prometheus metrics (docs/operations.md, "Metrics"): what they measure, who may read them, what they never say. */
const ROOT = resolve(import.meta.dirname, '../../..');
const ALERTS = join(ROOT, 'ops/prometheus/alerts.yml');
const TOKEN = 'metrics-token-for-the-test-0123456789';
const PATIENT = 'Ingrid Metricsdottir';

/** One sample's value: `name{labels} value`, the labels matched as given (a subset, in any order). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}
/** Every value of a label across the exposition. */
const labelValues = (text: string, label: string) =>
  new Set([...text.matchAll(new RegExp(`[{,]${label}="((?:[^"\\\\]|\\\\.)*)"`, 'g'))].map((m) => m[1]!));

describe('metrics on the main port behind a bearer token', () => {
  let h: Harness;
  let base: string;
  let clinic: Side;
  let caseCode: string;
  let uploadUrl: string;
  let fileCode: string;
  const sockets: LiveClient[] = [];
  const scrape = async (authorization = `Bearer ${TOKEN}`) =>
    h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });

  beforeAll(async () => {
    h = await createHarness({ METRICS_TOKEN: TOKEN });
    base = await h.listen();
    clinic = await side(h, OrgType.Clinic);
    caseCode = await newCase(h, clinic, 'Metrics case', PATIENT);
    const stl = binaryStl(1000);
    uploadUrl = (await tusUpload(base, clinic.token, stl, { caseCode, filename: 'upper.stl', jaw: 'upper' }, 16 * 1024))
      .url;
    const detail = (await h.call('case/detail', { token: clinic.token, body: { caseCode } })).data;
    fileCode = detail.files[0].fileCode;
    // Addresses carrying codes: their route's pattern is measured, never the address.
    await h.app.inject({ method: 'GET', url: `/api/v2/file/download/${fileCode}` });
    await h.app.inject({ method: 'GET', url: `/api/v2/no-such-call/${caseCode}` });
    const live = new LiveClient(base);
    sockets.push(live);
    await live.auth(clinic.token);
    // A job ready for two minutes (of a kind no handler takes: it stays), and a mail waiting for five.
    await h.db.query(
      `INSERT INTO jobs (kind, payload, run_after, created_at) VALUES ('metricsProbe', '{}', now() - interval '2 minutes', now() - interval '2 minutes')`,
    );
    await h.db.query(
      `INSERT INTO mail_outbox (to_address, language, subject, body_text, status, created_at)
       VALUES ('someone@example.test', 'en', 'Waiting', 'text', 'pending', now() - interval '5 minutes')`,
    );
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await h.close();
  });

  it('refuses a scrape without the token, or with another', async () => {
    const none = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await scrape('Bearer not-the-token-at-all-0000000')).statusCode).toBe(401);
    expect((await scrape(`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`)).statusCode).toBe(401);
    expect(none.body).not.toContain('portal_');
  });

  it('measures requests per route pattern, sockets, the job queue, the mail outbox, uploads and the process', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toContain('# TYPE portal_http_request_duration_seconds histogram');
    expect(
      sample(text, 'portal_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v2/case/create',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      sample(text, 'portal_http_request_duration_seconds_bucket', {
        method: 'POST',
        route: '/api/v2/case/create',
        status_class: '2xx',
        le: '+Inf',
      }),
    ).toBe(1);
    expect(
      sample(text, 'portal_http_request_duration_seconds_count', { route: '/api/v2/file/download/:fileCode' }),
    ).toBe(1);
    expect(
      sample(text, 'portal_http_request_duration_seconds_count', { route: 'unmatched', status_class: '4xx' }),
    ).toBe(1);
    // tus: creation and the chunks, under their patterns.
    expect(
      sample(text, 'portal_http_request_duration_seconds_count', { method: 'PATCH', route: '/api/v2/files/tus/*' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portal_upload_bytes_received_total')).toBe(binaryStl(1000).length);

    expect(sample(text, 'portal_live_sockets')).toBe(1);
    expect(sample(text, 'portal_live_sockets_authenticated')).toBe(1);
    expect(sample(text, 'portal_job_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portal_job_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(110);
    expect(sample(text, 'portal_mail_outbox_unsent')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portal_mail_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(290);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    if (h.db.kind === 'postgres') expect(sample(text, 'portal_db_pool_max')).toBe(5);
    else expect(text).not.toContain('portal_db_pool_');

    // A socket that closes leaves the gauge.
    sockets[0]!.close();
    await expect.poll(async () => sample((await scrape()).body, 'portal_live_sockets'), { timeout: 5000 }).toBe(0);
  });

  it('never says a code, an id, a patient or an address in its labels', async () => {
    const text = (await scrape()).body;
    const uploadId = uploadUrl.split('/').pop()!;
    for (const secret of [caseCode, fileCode, uploadId, PATIENT, 'Metricsdottir', clinic.account, clinic.email, TOKEN])
      expect(text).not.toContain(secret);
    for (const route of labelValues(text, 'route')) expect(route, route).toMatch(/^(unmatched|\/[A-Za-z0-9_\-/.:*]*)$/);
    for (const method of labelValues(text, 'method'))
      expect(method).toMatch(/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|other)$/);
    for (const status of labelValues(text, 'status_class')) expect(status).toMatch(/^[1-5]xx$/);
  });
});

describe('metrics on a port of their own', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN });
  });
  afterAll(() => h.close());

  it('serves only /metrics there, with the token when one is set, and nothing on the main port', async () => {
    // The port itself is opened by main.ts after the app listens; here on a free one.
    const { port } = await h.app.metrics!.listen(0, '127.0.0.1', TOKEN);
    const url = `http://127.0.0.1:${port}`;
    const authorization = `Bearer ${TOKEN}`;
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const ok = await fetch(`${url}/metrics`, { headers: { authorization } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('portal_http_request_duration_seconds');
    expect((await fetch(`${url}/metrics/x`, { headers: { authorization } })).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST', headers: { authorization } })).status).toBe(405);
    expect((await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } })).statusCode).toBe(404);
  });
});

describe('metrics switched off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('has no /metrics at all when neither METRICS_PORT nor METRICS_TOKEN is set', async () => {
    expect(h.app.metrics).toBeUndefined();
    expect((await h.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const withToken = await h.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(withToken.statusCode).toBe(404);
  });

  it('refuses a metrics port bound beyond this machine without a token', () => {
    const env = { JWT_SECRET: 'x'.repeat(32), METRICS_PORT: '9464' };
    expect(() => loadConfig({ ...env, METRICS_HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ ...env, METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics).toMatchObject({
      port: 9464,
      host: '0.0.0.0',
    });
    expect(loadConfig(env).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: undefined });
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});

/** A program on the PATH (Debian's `prometheus` package puts both in /usr/bin). */
const onPath = (name: string) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find((p) => existsSync(p));
const PROMETHEUS = onPath('prometheus');
const PROMTOOL = onPath('promtool');
// Skipped only on a developer's machine without them: CI installs them (scripts/ensure-prometheus.sh).
const noPrometheus = !(PROMETHEUS && PROMTOOL) && !process.env.CI;

describe.skipIf(noPrometheus)('a real Prometheus scraping the built server', () => {
  let prometheus: ChildProcess | undefined;
  let scratch: string | undefined;
  afterEach(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((r) => prometheus!.once('exit', r));
      prometheus.kill('SIGTERM');
      await exited;
    }
    prometheus = undefined;
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    await killChildServers();
  });

  it('accepts the alert rules and the sample configuration', () => {
    expect(PROMTOOL, 'promtool is missing: run scripts/ensure-prometheus.sh').toBeDefined();
    const rules = spawnSync(PROMTOOL!, ['check', 'rules', ALERTS], { encoding: 'utf8' });
    expect(rules.status, rules.stdout + rules.stderr).toBe(0);
    const config = spawnSync(PROMTOOL!, ['check', 'config', join(ROOT, 'ops/prometheus/prometheus.yml')], {
      encoding: 'utf8',
    });
    expect(config.status, config.stdout + config.stderr).toBe(0);
  });

  it('scrapes the metrics port: the target is up and the request counts arrive', { timeout: 60_000 }, async () => {
    expect(PROMETHEUS, 'prometheus is missing: run scripts/ensure-prometheus.sh').toBeDefined();
    const db = await childDatabase();
    try {
      const metricsPort = await freePort();
      const server = await startChildServer(db, { METRICS_PORT: String(metricsPort) });
      // On its own port the metrics need no token (loopback only); the main port has none.
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
      const direct = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(direct.status).toBe(200);
      expect(await direct.text()).toContain('portal_job_queue_depth');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);

      scratch = mkdtempSync(join(tmpdir(), 'portal-prometheus-'));
      const config = join(scratch, 'prometheus.yml');
      writeFileSync(
        config,
        [
          'global:',
          '  scrape_interval: 1s',
          '  evaluation_interval: 1s',
          'rule_files:',
          `  - ${JSON.stringify(ALERTS)}`,
          'scrape_configs:',
          '  - job_name: portal',
          '    static_configs:',
          `      - targets: ['127.0.0.1:${metricsPort}']`,
          '',
        ].join('\n'),
      );
      const port = await freePort();
      let output = '';
      prometheus = spawn(
        PROMETHEUS!,
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(scratch, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prometheus.stdout!.on('data', (c) => (output += c));
      prometheus.stderr!.on('data', (c) => (output += c));
      const api = `http://127.0.0.1:${port}/api/v1`;
      const query = async (q: string) => {
        try {
          const res = await fetch(`${api}/query?query=${encodeURIComponent(q)}`);
          if (!res.ok) return [];
          const body = (await res.json()) as {
            data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
          };
          return body.data.result;
        } catch {
          return []; // not listening yet
        }
      };
      // Calls to count while Prometheus starts.
      const traffic = setInterval(() => void fetch(`${server.baseUrl}/api/v2/common/live`).catch(() => undefined), 200);
      try {
        await expect
          .poll(async () => (await query('up{job="portal"}'))[0]?.value[1], { timeout: 30_000, interval: 500 })
          .toBe('1');
        await expect
          .poll(
            async () =>
              (await query('portal_http_request_duration_seconds_count{route="/api/v2/common/live"}'))[0]?.value[1],
            { timeout: 15_000, interval: 500 },
          )
          .toBeDefined();
      } catch (err) {
        throw new Error(`${String(err)}\nprometheus said:\n${output.slice(-3000)}`);
      } finally {
        clearInterval(traffic);
      }
      // The rules loaded, and none fires on a healthy server.
      const rules = (await (await fetch(`${api}/rules`)).json()) as {
        data: { groups: Array<{ rules: Array<{ name: string; state?: string }> }> };
      };
      const loaded = rules.data.groups.flatMap((g) => g.rules);
      expect(loaded.map((r) => r.name)).toContain('PortalTargetDown');
      expect(loaded.filter((r) => r.state === 'firing').map((r) => r.name)).toEqual([]);

      // Prometheus keeps its scrape connection open: the server still stops at once, and cleanly.
      const started = Date.now();
      await server.stop();
      expect(server.child.exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await db.drop();
    }
  });
});
