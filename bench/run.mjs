// `npm run bench`: the spine's benchmarks, each against a baseline measured in the same run.
// Needs a build (npm run build) and, for the PostgreSQL figures, a server on 127.0.0.1:5432.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { accountsBench } from './accounts.mjs';
import { casesListBench } from './cases-list.mjs';
import { orderListBench } from './order-list.mjs';
import { ordersBench } from './orders.mjs';
import { scorecardsBench } from './scorecards.mjs';
import { exportBench } from './export.mjs';
import { earlyRefusalBench } from './early-refusal.mjs';
import { meshCompactBench } from './mesh-compact.mjs';
import { reportPdfBench } from './report-pdf.mjs';
import { uploadBench } from './upload.mjs';
import { viewerBench } from './viewer.mjs';
import { freshDatabase, launchChromium, startPortal } from './portal-lib.mjs';
import { lighthouseBench } from './lighthouse.mjs';
import { sharePhoneBench } from './share-phone.mjs';
import { orderFreshBench } from './order-fresh.mjs';
import { liveBench } from './live.mjs';
import { liveRepaintBench } from './live-repaint.mjs';
import { webhooksBench } from './webhooks.mjs';
import { appsBench } from './apps.mjs';
import { auditBench } from './audit.mjs';
import { clusterBench } from './cluster.mjs';
import { backupBench } from './backup.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rows = [];

const freePort = () =>
  new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => ok(p));
    });
  });

async function waitFor(url, child, timeoutMs = 60_000) {
  const start = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited before answering ${url}`);
    try {
      const r = await fetch(url);
      if (r.status === 200) return performance.now() - start;
    } catch {}
    if (performance.now() - start > timeoutMs) throw new Error(`timeout waiting for ${url}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** BENCH_PROFILE=<folder>: each server the benchmarks start writes a CPU profile there when it stops. */
const PROFILE_ARGS = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];

function start(args, env) {
  return spawn(process.execPath, [...PROFILE_ARGS, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
async function stop(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

function cannon(opts) {
  return new Promise((ok, fail) =>
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, res) => (err ? fail(err) : ok(res))),
  );
}

async function bare() {
  const port = await freePort();
  const child = start(['bench/bare-server.mjs'], { PORT: String(port) });
  await waitFor(`http://127.0.0.1:${port}/bare`, child);
  return { child, url: `http://127.0.0.1:${port}/bare` };
}

// 1. The login page's first load: every JS and CSS file Chromium fetches to show /login, gzip.
async function loginBundle(baseUrl) {
  const browser = await launchChromium();
  const page = await browser.newPage();
  const assets = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet')
      assets.push(res.body().then((b) => ({ url: res.url(), raw: b.length, gz: gzipSync(b).length })));
  });
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
  await page.waitForSelector('[data-testid="login-submit"]');
  const files = await Promise.all(assets);
  await browser.close();
  const gz = files.reduce((s, f) => s + f.gz, 0);
  const raw = files.reduce((s, f) => s + f.raw, 0);
  rows.push([
    'login page first load, JS+CSS gzip',
    `${(gz / 1024).toFixed(1)} KB (${files.length} files, ${(raw / 1024).toFixed(0)} KB raw)`,
    'goal 200 KB',
    gz <= 200 * 1024 ? 'met' : 'MISSED',
  ]);
}

// 2. Start-up on an existing embedded database, to the first 200 from common/monitor.
async function startup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true' };
  let port = await freePort();
  let child = start(['apps/server/dist/main.js'], { ...env, PORT: String(port) });
  await waitFor(`http://127.0.0.1:${port}/api/v2/common/monitor`, child); // first start creates and seeds the database
  await stop(child);
  const times = [];
  for (let i = 0; i < 3; i++) {
    port = await freePort();
    const t0 = performance.now();
    child = start(['apps/server/dist/main.js'], { ...env, PORT: String(port) });
    await waitFor(`http://127.0.0.1:${port}/api/v2/common/monitor`, child);
    times.push(performance.now() - t0);
    await stop(child);
  }
  const baseline = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const b = await bare();
    baseline.push(performance.now() - t0);
    await stop(b.child);
  }
  rmSync(dataDir, { recursive: true, force: true });
  const median = (a) => a.sort((x, y) => x - y)[1];
  rows.push([
    'start-up to first 200 (existing embedded db)',
    `${(median(times) / 1000).toFixed(2)} s (median of 3)`,
    `bare Fastify process ${(median(baseline) / 1000).toFixed(2)} s`,
    median(times) <= 1000 ? 'met (goal ≤ 1 s)' : 'MISSED (goal ≤ 1 s)',
  ]);
}

// 3. API overhead with autocannon against a bare Fastify route, on PostgreSQL.
async function throughput() {
  const database = await freshDatabase(PG_ADMIN, 'portal_bench');
  const { child, base } = await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url });
  const login = await (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'clinic', password: 'Dental#2026', saveLogin: true }),
    })
  ).json();
  const token = login.data.accessToken;

  // Alternating rounds, averaged: the load generator shares the two cores with both servers.
  const b = await bare();
  await cannon({ url: b.url, duration: 2 }); // warm-up
  await cannon({ url: `${base}/common/monitor`, duration: 2 });
  const rounds = { bareGet: [], barePost: [], monitor: [], info: [] };
  for (let round = 0; round < 2; round++) {
    rounds.bareGet.push(await cannon({ url: b.url }));
    rounds.monitor.push(await cannon({ url: `${base}/common/monitor` }));
    rounds.barePost.push(await cannon({ url: b.url, method: 'POST' }));
    rounds.info.push(
      await cannon({
        url: `${base}/user/info`,
        method: 'POST',
        headers: { info: JSON.stringify({ accessToken: token, endPointClass: 'web' }) },
      }),
    );
  }
  await stop(b.child);
  const avg = (list) => ({
    requests: { average: list.reduce((s, r) => s + r.requests.average, 0) / list.length },
    latency: { p99: Math.max(...list.map((r) => r.latency.p99)) },
    errors: list.reduce((s, r) => s + r.errors, 0),
    non2xx: list.reduce((s, r) => s + r.non2xx, 0),
  });
  const [bareGet, barePost, monitor, info] = [
    avg(rounds.bareGet),
    avg(rounds.barePost),
    avg(rounds.monitor),
    avg(rounds.info),
  ];
  await stop(child);
  await database.drop();

  const errs = (r) => r.errors + r.non2xx;
  const ratio1 = monitor.requests.average / bareGet.requests.average;
  const ratio2 = info.requests.average / barePost.requests.average;
  rows.push([
    'GET common/monitor (PostgreSQL), 50 conn',
    `${monitor.requests.average.toFixed(0)} req/s, p99 ${monitor.latency.p99} ms, ${errs(monitor)} errors`,
    `bare ${bareGet.requests.average.toFixed(0)} req/s`,
    `ratio ${ratio1.toFixed(2)} (goal ≥ 0.5)`,
  ]);
  rows.push([
    'POST user/info authenticated (PostgreSQL), 50 conn',
    `${info.requests.average.toFixed(0)} req/s, p99 ${info.latency.p99} ms, ${errs(info)} errors`,
    `bare ${barePost.requests.average.toFixed(0)} req/s`,
    `ratio ${ratio2.toFixed(2)} (goal ≥ 0.5)`,
  ]);
}

async function bundle() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-web-'));
  const port = await freePort();
  const child = start(['apps/server/dist/main.js'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
  });
  await waitFor(`http://127.0.0.1:${port}/api/v2/common/monitor`, child);
  await loginBundle(`http://127.0.0.1:${port}`);
  await stop(child);
  rmSync(dataDir, { recursive: true, force: true });
}

async function main() {
  if (!existsSync(join(ROOT, 'apps/server/dist/main.js'))) throw new Error('Build first: npm run build');
  // BENCH_ONLY=bundle, startup, throughput, lighthouse, cases, orders, orderlist, scorecards, viewer, upload, export,
  // compact, refusal, accounts, reportpdf, sharephone, orderfresh, live, repaint, webhooks, apps, audit, cluster or backup
  // runs those parts (comma-separated).
  const parts = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((p) => p.trim())) : null;
  const want = (part) => !parts || parts.has(part);
  if (want('bundle')) await bundle();
  if (want('startup')) await startup();
  if (want('throughput')) await throughput();
  if (want('lighthouse')) rows.push(...(await lighthouseBench({ start, waitFor, stop, freePort })));
  if (want('cases')) rows.push(...(await casesListBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('orders')) rows.push(...(await ordersBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('orderlist')) rows.push(...(await orderListBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('scorecards')) rows.push(...(await scorecardsBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('viewer')) rows.push(...(await viewerBench({ start, waitFor, stop, freePort })));
  if (want('upload')) rows.push(...(await uploadBench({ start, waitFor, stop, freePort })));
  if (want('export')) rows.push(...(await exportBench({ start, waitFor, stop, freePort })));
  if (want('compact')) rows.push(...(await meshCompactBench()));
  if (want('refusal')) rows.push(...(await earlyRefusalBench({ start, waitFor, stop, freePort })));
  if (want('accounts')) rows.push(...(await accountsBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('reportpdf')) rows.push(...(await reportPdfBench({ start, waitFor, stop, freePort })));
  if (want('sharephone')) rows.push(...(await sharePhoneBench({ start, waitFor, stop, freePort })));
  if (want('orderfresh')) rows.push(...(await orderFreshBench({ start, waitFor, stop, freePort })));
  if (want('live')) rows.push(...(await liveBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('repaint')) rows.push(...(await liveRepaintBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('webhooks')) rows.push(...(await webhooksBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('apps')) rows.push(...(await appsBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('audit')) rows.push(...(await auditBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  if (want('cluster')) rows.push(...(await clusterBench()));
  if (want('backup')) rows.push(...(await backupBench({ adminUrl: PG_ADMIN, start, waitFor, stop, freePort })));
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), 8));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join(' | ');
  console.log(line(['benchmark', 'result', 'baseline (same run)', 'verdict']));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
