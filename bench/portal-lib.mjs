// Helpers shared by the benchmarks: the portal's API as the clinic, tus uploads through tus-js-client's
// Node build, synthetic scans, RSS sampling from /proc, and the closed-loop latency load of the list benchmarks.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import pg from 'pg';
import { Upload } from 'tus-js-client';

export const ROOT = resolve(import.meta.dirname, '..');
export const MB = 1024 * 1024;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts the built server on a fresh data folder (seeded with the demo accounts) and waits for its first 200. */
export async function startPortal({ start, waitFor, freePort }, extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // PUBLIC_URL: signed file links point at 127.0.0.1 (the default names localhost, another origin for the browser).
  const child = start(['apps/server/dist/main.js'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    ...extraEnv,
  });
  try {
    await waitFor(`${origin}/api/v2/common/monitor`, child);
  } catch (err) {
    child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return { child, port, origin, base: `${origin}/api/v2`, dataDir };
}

/** Debian's Chromium, headless, with the flags this machine's browser tests use (never a downloaded browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Playwright's Chromium on CHROMIUM_PATH. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Signs a browser page in as a demo account through the login form, and waits for the portal's menu. */
export async function signInPage(page, origin, account = 'clinic', password = 'Dental#2026') {
  await page.goto(`${origin}/login`);
  await page.fill('[data-testid=login-account]', account);
  await page.fill('[data-testid=login-password]', password);
  await page.click('[data-testid=login-submit]');
  await page.waitForSelector('[data-testid=layout-sidebar]');
}

/** A new, empty PostgreSQL database for one benchmark (dropped first if a run left it), and how to drop it after. */
export async function freshDatabase(adminUrl, name) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
    /** Leaves the database for a look after the run (BENCH_KEEP=1). */
    async keep() {
      await admin.end();
    },
  };
}

/** A tiny client for the JSON API; throws on anything but code 200. */
export function apiClient(base, token) {
  return async (path, body = {}) => {
    const res = await fetch(`${base}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (json.code !== 200) throw new Error(`${path}: ${json.msg} (${json.code})`);
    return json.data;
  };
}

export async function login(base, account = 'clinic', password = 'Dental#2026') {
  // Right after the first 200 the seed may still be running: retry for a while.
  for (let i = 0; ; i++) {
    try {
      const data = await apiClient(base)('login', { account, password });
      return data.accessToken;
    } catch (err) {
      if (i >= 100) throw err;
      await sleep(200);
    }
  }
}

/** The demo uploads two cases in the background after start: wait until they exist and their viewer files are prepared. */
export async function waitDemoQuiet(api, timeoutMs = 90_000) {
  const t0 = performance.now();
  for (;;) {
    const list = await api('case/list', { pageNum: 1, pageSize: 20 });
    if (list.total >= 2) {
      const details = await Promise.all(list.list.map((c) => api('case/detail', { caseCode: c.caseCode })));
      const files = details.flatMap((d) => d.files);
      if (files.length >= 6 && files.every((f) => f.viewerStatus !== 'pending' && f.uploadTag === 'finished')) return;
    }
    if (performance.now() - t0 > timeoutMs) throw new Error('demo cases did not settle in time');
    await sleep(500);
  }
}

/** Uploads one file into a case through tus (the scanner client's way); resolves with its size and upload id once the server has finished it. */
export function tusUpload(base, token, path, meta, { chunkSize = 8 * MB, filename = basename(path) } = {}) {
  const size = statSync(path).size;
  return new Promise((ok, fail) => {
    const upload = new Upload(createReadStream(path), {
      endpoint: `${base}/files/tus`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename, ...meta },
      uploadSize: size,
      chunkSize,
      retryDelays: [],
      onError: fail,
      onSuccess: () => ok({ size, id: upload.url.split('/').pop() }),
    });
    upload.start();
  });
}

/** Writes upper/lower .stl/.ply and bite.stl with packages/mesh's CLI (TypeScript, through tsx). */
export function generateScans(outDir, triangles, seed = 1) {
  return new Promise((ok, fail) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/mesh/src/generate-cli.ts',
        '--out',
        outDir,
        '--triangles',
        String(triangles),
        '--seed',
        String(seed),
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok(out) : fail(new Error(`generate-cli exited with ${code}`))));
  });
}

export function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Samples a process's resident memory every `everyMs`; stop() gives the samples' maximum. */
export function sampleRss(pid, everyMs = 200) {
  let max = 0;
  let count = 0;
  const take = () => {
    try {
      const v = rssBytes(pid);
      count += 1;
      if (v > max) max = v;
    } catch {}
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { max, count };
    },
  };
}

/** Average RSS over a quiet second: the "before" figure. */
export async function settledRss(pid) {
  let sum = 0;
  for (let i = 0; i < 5; i++) {
    sum += rssBytes(pid);
    await sleep(200);
  }
  return sum / 5;
}

export const fmtMB = (b) => `${(b / MB).toFixed(1)} MB`;

export const BENCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Closed-loop load: `concurrency` loops call `fn(n)` back to back for `seconds` (n counts calls across all
 * loops, for rotating over users). Latencies in ms.
 */
export async function load(fn, { concurrency = 32, seconds = BENCH_SECONDS } = {}) {
  const latencies = [];
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await fn(n++);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
  };
}

export const fmtLoad = (r) => `p95 ${r.p95.toFixed(1)} ms, p50 ${r.p50.toFixed(1)} ms, ${r.rps.toFixed(0)} req/s`;

/**
 * POSTs JSON to the API over keep-alive connections (at most `maxSockets`); resolves with `data`,
 * rejects on anything but code 200. `close()` ends the connections.
 */
export function keepAlivePoster(base, maxSockets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const post = (path, body, token) =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const headers = {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(data),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      };
      const req = http.request(`${base}/${path}`, { method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          try {
            const json = JSON.parse(text);
            if (json.code === 200) return resolve(json.data);
          } catch {}
          reject(new Error(`${path}: ${text.slice(0, 300)}`));
        });
      });
      req.on('error', reject);
      req.end(data);
    });
  post.close = () => agent.destroy();
  return post;
}

/** The index names a query plan's nodes use, e.g. "Index Scan using cases_list_idx", or 'NO INDEX'. */
export const planIndexes = (plan) =>
  (plan.match(/Index (Only )?Scan (Backward )?using (\w+)|Bitmap Index Scan on (\w+)/g) ?? []).join(', ') || 'NO INDEX';

/** A process's CPU time in ms: the scheduler's exact run time (/proc/PID/schedstat), else utime + stime; null once it has ended. */
function cpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {}
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // USER_HZ = 100
  } catch {
    return null;
  }
}
function machineTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { total, busy: total - f[3] - f[4] };
}

/**
 * CPU time while a measurement runs, per group of processes (e.g. { server: [pid], postgres: [pids] }), and
 * what the rest of the machine used meanwhile. stop() gives { ms: { group: CPU ms }, others: CPUs busy
 * outside the groups on average (0 … cores), cores }.
 */
export function cpuAccount(groups) {
  const cores = availableParallelism();
  const m0 = machineTicks();
  const t0 = new Map(
    Object.values(groups)
      .flat()
      .map((p) => [p, cpuMs(p)]),
  );
  // A process that ended meanwhile (an idle pooled connection closed, say) counts for nothing.
  const used = (p) => {
    const [a, b] = [t0.get(p), cpuMs(p)];
    return a === null || b === null ? 0 : b - a;
  };
  return {
    stop() {
      const m1 = machineTicks();
      const ms = Object.fromEntries(
        Object.entries(groups).map(([g, pids]) => [g, pids.reduce((s, p) => s + used(p), 0)]),
      );
      const oursTicks = Object.values(ms).reduce((s, v) => s + v, 0) / 10; // /proc/stat counts in USER_HZ = 100
      return { ms, others: Math.max(0, ((m1.busy - m0.busy - oursTicks) / (m1.total - m0.total)) * cores), cores };
    },
  };
}

/** The session setting the server's pool gives each connection (apps/server/src/platform/db.ts). */
export const SERVER_SESSION = 'SET plan_cache_mode = force_generic_plan';

/**
 * The plan the server gets: its statements are named prepared statements planned once per connection (generic).
 * Prepare, run six times, then EXPLAIN (ANALYZE, BUFFERS) the seventh.
 */
export async function preparedPlan(db, name, sql, params) {
  await db.query(SERVER_SESSION);
  await db.query(`DEALLOCATE ALL`);
  await db.query(`PREPARE ${name} AS ${sql}`);
  const args = params.map((p) => (p === null ? 'NULL' : typeof p === 'number' ? String(p) : `'${p}'`)).join(', ');
  for (let i = 0; i < 6; i++) await db.query(`EXECUTE ${name}(${args})`);
  const lines = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE ${name}(${args})`)).rows.map(
    (r) => r['QUERY PLAN'],
  );
  const [{ generic_plans: generic }] = (
    await db.query(`SELECT generic_plans FROM pg_prepared_statements WHERE name = $1`, [name])
  ).rows;
  return { lines, generic: Number(generic) > 0, text: lines.join('\n') };
}

/**
 * A closed-loop load that also tells the CPU time per request of the load generator, the server and the
 * database's backends, and how much CPU the rest of the machine took meanwhile: they all share its cores.
 */
export async function measuredLoad({ db, dbName, serverPid }, fn, opts) {
  const backends = (await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [dbName])).rows.map(
    (r) => r.pid,
  );
  const cpu = cpuAccount({ bench: [process.pid], server: serverPid ? [serverPid] : [], postgres: backends });
  const r = await load(fn, opts);
  const { ms, others, cores } = cpu.stop();
  return { ...r, cpu: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, v / r.count])), others, cores };
}

/**
 * The bare proxy baseline (bench/bare-list-server.mjs) for one statement: `list(values)` asks it for the rows. It runs
 * beside the portal, which stays started: only one of them is under load at a time.
 */
export async function startBareList({ start, waitFor, freePort }, { databaseUrl, sql }) {
  const port = await freePort();
  const child = start(['bench/bare-list-server.mjs'], {
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    BARE_SQL: sql,
    BARE_SESSION: SERVER_SESSION,
  });
  await waitFor(`http://127.0.0.1:${port}/ready`, child);
  const post = keepAlivePoster(`http://127.0.0.1:${port}`, 32);
  return { child, list: (values) => post('list', { values }), close: () => post.close() };
}

/**
 * A list's goals, held against the same statements sent directly in the same run (absolute times do not survive a
 * change of machine): throughput ≥ 0.7× direct, p95 ≤ 1.5× direct, and under 0.3 ms of server CPU per request.
 */
export function listVerdict(api, direct, bare) {
  const throughput = api.rps / direct.rps;
  const p95 = api.p95 / direct.p95;
  const server = api.cpu.server ?? 0;
  const met = throughput >= 0.7 && p95 <= 1.5 && server < 0.3;
  const ceiling = bare
    ? `; bare proxy ${(bare.rps / direct.rps).toFixed(2)}× direct, p95 ${(bare.p95 / direct.p95).toFixed(2)}×; portal ${(api.rps / bare.rps).toFixed(2)}× bare proxy`
    : '';
  return `${met ? 'met' : 'MISSED'}: throughput ${throughput.toFixed(2)}× direct (goal ≥ 0.7), p95 ${p95.toFixed(2)}× (goal ≤ 1.5), server CPU ${server.toFixed(2)} ms (goal < 0.3)${ceiling}`;
}

const fmtCpu = (r) =>
  `CPU/request: ${Object.entries(r.cpu)
    .filter(([, v]) => v > 0.005)
    .map(([k, v]) => `${k} ${v.toFixed(2)} ms`)
    .join(', ')}`;
export const fmtMeasured = (r) =>
  `${fmtLoad(r)}; ${fmtCpu(r)}; other processes ${r.others.toFixed(1)} of ${r.cores} CPUs`;

/**
 * Sign-in keys for users a benchmark wrote in bulk with SQL (the portal claims them as it makes a user): their account
 * names and emails are plain ASCII, whose keys are their lower case.
 */
export async function signInKeysForBulkUsers(db) {
  await db.query(`
    INSERT INTO sign_in_identifiers (identifier, user_id, kind)
    SELECT lower(u.account), u.id, 'account' FROM users u
     WHERE NOT EXISTS (SELECT 1 FROM sign_in_identifiers i WHERE i.user_id = u.id)
    UNION ALL
    SELECT lower(u.email), u.id, 'email' FROM users u
     WHERE NOT EXISTS (SELECT 1 FROM sign_in_identifiers i WHERE i.user_id = u.id)
    ON CONFLICT DO NOTHING`);
}
