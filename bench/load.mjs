// `npm run load`: the built server on PostgreSQL under a realistic mix of calls from many connections at once.
// It creates a fresh database (dropped at the end), starts `apps/server/dist/main.js` on it, seeds clinics,
// laboratories, thousands of cases and orders and a few files, then runs `--connections` closed loops for
// `--duration` seconds, each picking its next call by weight with real identifiers. It reports errors (non-2xx
// answers, refused actions, transport failures), p50/p95/p99 per call, throughput, and the server's resident
// memory sampled every second from /proc. Not part of CI: needs a build and PostgreSQL on 127.0.0.1:5432.
//
//   npm run load -- --connections 200 --duration 60 [--clinics 4 --labs 3 --cases 1500 --orders 1000]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { fmtMB, percentile, ROOT, rssBytes, signInKeysForBulkUsers, sleep } from './portal-lib.mjs';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    clinics: { type: 'string', default: '4' },
    labs: { type: 'string', default: '3' },
    cases: { type: 'string', default: '1500' }, // per clinic
    orders: { type: 'string', default: '1000' }, // per clinic, on its first cases
    database: {
      type: 'string',
      default: process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const CONNECTIONS = Number(args.connections);
const SECONDS = Number(args.duration);
const CLINICS = Number(args.clinics);
const LABS = Number(args.labs);
const CASES = Number(args.cases);
const ORDERS = Math.min(Number(args.orders), CASES);
const USERS_PER_ORG = 3;
const FILES_PER_CLINIC = 10;
const PASSWORD = 'Load#Test2026';
// Every sign-in comes from 127.0.0.1: the per-address limit is raised to its maximum for the run.
const LOGIN_LIMIT = 10_000;

/** The mix, by weight: what a working day of clinics and laboratories asks most. */
const MIX = [
  ['case list', 18],
  ['case detail', 14],
  ['order list', 14],
  ['order detail', 12],
  ['dashboard', 8],
  ['download', 10],
  ['upload', 5],
  ['order action', 8],
  ['sign-in', 3],
];
const WEIGHT = MIX.reduce((s, [, w]) => s + w, 0);
const pick = (list) => list[Math.floor(Math.random() * list.length)];
function pickCall() {
  let r = Math.random() * WEIGHT;
  for (const [name, w] of MIX) if ((r -= w) < 0) return name;
  return MIX[0][0];
}

const freePort = () =>
  new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => ok(p));
    });
  });

/** A refused or failed call, with the label it is counted under. */
class CallError extends Error {
  constructor(label) {
    super(label);
    this.label = label;
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
function request(url, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(new CallError(`transport ${err.code ?? err.message}`)));
    });
    req.on('error', (err) => reject(new CallError(`transport ${err.code ?? err.message}`)));
    req.end(body);
  });
}

/** POSTs JSON to the API; answers `data`, throws on a non-2xx answer or an envelope code other than 200. */
async function api(base, path, body, token) {
  const json = Buffer.from(JSON.stringify(body ?? {}));
  const res = await request(`${base}/${path}`, {
    headers: {
      'content-type': 'application/json',
      'content-length': json.length,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: json,
  });
  if (res.status < 200 || res.status > 299)
    throw new CallError(`HTTP ${res.status} ${res.body.toString().slice(0, 120)}`);
  const envelope = JSON.parse(res.body.toString());
  if (envelope.code !== 200) throw new CallError(`code ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** A small upload through tus in one request (creation-with-upload), as the web app sends small files. */
async function tusUpload(base, token, caseCode, bytes, filename) {
  const meta = `filename ${Buffer.from(filename).toString('base64')},caseCode ${Buffer.from(caseCode).toString('base64')}`;
  const res = await request(`${base}/files/tus`, {
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': bytes.length,
      'upload-metadata': meta,
      'content-type': 'application/offset+octet-stream',
      'content-length': bytes.length,
    },
    body: bytes,
  });
  if (res.status !== 201 || Number(res.headers['upload-offset']) !== bytes.length)
    throw new CallError(`HTTP ${res.status} upload ${res.body.toString().slice(0, 120)}`);
}

/** A scanner's own format (stored as it is), a few KB. */
function smallScan(size) {
  const bytes = randomBytes(size);
  bytes.write('A3D scan data v1', 0);
  return bytes;
}

/** Organizations, users, partnerships, cases and orders, set-based, consistent as the server would leave them. */
async function seed(db) {
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await db.query(
    `INSERT INTO organizations (code, name, type, region, review_status, status)
     SELECT 'loadc' || g, 'Load Clinic ' || g, 2, 'us', 1, 1 FROM generate_series(1, $1) g
     UNION ALL SELECT 'loadl' || g, 'Load Lab ' || g, 3, 'us', 1, 1 FROM generate_series(1, $2) g`,
    [CLINICS, LABS],
  );
  await db.query(
    `INSERT INTO users (user_code, account, email, display_name, organization_id, role_id, status, is_org_admin, password_hash)
     SELECT 'u' || o.code || 'n' || k, o.code || 'n' || k, o.code || 'n' || k || '@load.dental-portal.test', o.name || ' user ' || k,
            o.id, r.id, 1, k = 1, $2
       FROM organizations o JOIN roles r ON r.code = CASE o.type WHEN 2 THEN 'clinic_admin' ELSE 'lab_admin' END,
            generate_series(1, $1) k
      WHERE o.code ~ '^load[cl][0-9]+$'`,
    [USERS_PER_ORG, passwordHash],
  );
  await db.query(`INSERT INTO agreement_read_logs (user_id, agreement_type, version)
    SELECT u.id, a.type, a.version FROM users u CROSS JOIN agreements a WHERE u.account ~ '^load[cl][0-9]+n'`);
  await signInKeysForBulkUsers(db);
  await db.query(
    `INSERT INTO partnerships (code, clinic_organization_id, lab_organization_id, status, initiator_organization_id)
     SELECT 'loadp' || c.code || l.code, c.id, l.id, 1, c.id
       FROM organizations c, organizations l WHERE c.code ~ '^loadc[0-9]+$' AND l.code ~ '^loadl[0-9]+$'`,
  );
  // Case g of clinic c: scanned over the last year; its first ORDERS cases were ordered over the last 60 days, most
  // orders still pending (fresh for the laboratories' actions), the others further on.
  await db.query(
    `INSERT INTO cases (code, organization_id, name, patient_name, patient_id, scan_date, treatments, status, created_at)
     SELECT 'loadcase' || c.code || '-' || g, c.id, 'Case ' || g,
            (ARRAY['Anna','Ben','Clara','David','Eva','Felix','Greta','Hugo','Ida','Jonas'])[1 + g % 10] || ' ' ||
            (ARRAY['Keller','Lang','Maier','Novak','Olsen','Petit','Quinn','Roth','Schulz','Vogt'])[1 + (g / 10) % 10],
            'P-' || g, now() - make_interval(days => g % 365), ARRAY[(ARRAY['Crown','Veneer','Inlay','Bridge'])[1 + g % 4]],
            'uploaded', now() - make_interval(days => g % 365)
       FROM organizations c, generate_series(1, $1) g WHERE c.code ~ '^loadc[0-9]+$'`,
    [CASES],
  );
  await db.query(
    `INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types,
                         teeth, status, requested_delivery_date, tracking_number, created_at, updated_at)
     SELECT 'loadorder' || c.code || '-' || g, c.id, p.lab_organization_id, p.id, k.id, 'restoration', ARRAY['Crown'],
            '[{"number": 11, "shade": "A2", "material": "Zirconia", "crownType": "Full contour"}]'::jsonb, s.status,
            (now() + interval '10 days')::date, CASE WHEN s.status IN ('shipped', 'completed') THEN 'TRK' || g END,
            now() - make_interval(days => g % 60), now() - make_interval(days => g % 60)
       FROM organizations c
       JOIN generate_series(1, $1) g ON true
       JOIN cases k ON k.code = 'loadcase' || c.code || '-' || g
       JOIN LATERAL (SELECT id, lab_organization_id FROM partnerships WHERE clinic_organization_id = c.id
                      ORDER BY id OFFSET g % $2 LIMIT 1) p ON true
       JOIN LATERAL (SELECT CASE WHEN g % 10 < 7 THEN 'pending' WHEN g % 10 = 7 THEN 'accepted' WHEN g % 10 = 8 THEN 'shipped'
                                 ELSE 'completed' END AS status) s ON true
      WHERE c.code ~ '^loadc[0-9]+$'`,
    [ORDERS, LABS],
  );
  await db.query(`UPDATE cases k SET status = CASE o.status WHEN 'pending' THEN 'sent' WHEN 'completed' THEN 'completed'
                    ELSE 'accepted' END FROM orders o WHERE o.case_id = k.id`);
  await db.query('VACUUM ANALYZE');
  const orgs = (await db.query(`SELECT id, code, type FROM organizations WHERE code ~ '^load[cl][0-9]+$' ORDER BY id`))
    .rows;
  // One client: one query at a time.
  const side = async (type) => {
    const out = [];
    for (const o of orgs.filter((org) => org.type === type)) {
      const column = type === 2 ? 'clinic_organization_id' : 'lab_organization_id';
      out.push({
        id: Number(o.id),
        code: o.code,
        accounts: Array.from({ length: USERS_PER_ORG }, (_, k) => `${o.code}n${k + 1}`),
        cases: (await db.query('SELECT code FROM cases WHERE organization_id = $1', [o.id])).rows.map((r) => r.code),
        orders: (await db.query(`SELECT code, status FROM orders WHERE ${column} = $1 ORDER BY id`, [o.id])).rows,
      });
    }
    return out;
  };
  return { clinics: await side(2), labs: await side(3) };
}

function startServer(env) {
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const problems = { errors: 0, warnings: 0, last: [] };
  let pending = '';
  child.stderr.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level === '40') problems.warnings += 1;
      else if (!level || Number(level) >= 50) {
        problems.errors += 1;
        problems.last = [...problems.last.slice(-4), line.slice(0, 300)];
      }
    }
  });
  return { child, problems };
}

async function main() {
  const admin = new pg.Client({ connectionString: args.database });
  await admin.connect();
  const dbName = `portal_load_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(args.database);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-load-'));
  let server;
  let db;
  const cleanUp = async () => {
    agent.destroy();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
    await db?.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  try {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const base = `${origin}/api/v2`;
    server = startServer({
      NODE_ENV: 'production',
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      LOGIN_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT),
    });
    for (let i = 0; ; i++) {
      if (server.child.exitCode !== null) throw new Error(`the server stopped: ${server.problems.last.join('\n')}`);
      const ok = await fetch(`${base}/common/monitor`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error('the server did not start');
      await sleep(100);
    }
    const pid = server.child.pid;

    db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    let t = performance.now();
    const world = await seed(db);
    const orderCount = world.clinics.reduce((s, c) => s + c.orders.length, 0);
    console.log(
      `seeded ${CLINICS} clinics, ${LABS} laboratories, ${CLINICS * CASES} cases, ${orderCount} orders, ` +
        `${(CLINICS + LABS) * USERS_PER_ORG} users in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    // Every user signs in once; the loops use these sessions (sign-in itself is one of the calls measured).
    t = performance.now();
    const tokens = new Map();
    for (const org of [...world.clinics, ...world.labs])
      for (const account of org.accounts)
        tokens.set(account, (await api(base, 'login', { account, password: PASSWORD, saveLogin: false })).accessToken);
    // A few files per clinic to download, uploaded the way files arrive.
    for (const clinic of world.clinics) {
      clinic.files = [];
      for (let i = 0; i < FILES_PER_CLINIC; i++) {
        const caseCode = clinic.cases[i];
        await tusUpload(base, tokens.get(clinic.accounts[0]), caseCode, smallScan(20 * 1024), `scan-${i}.a3d`);
        const detail = await api(base, 'case/detail', { caseCode }, tokens.get(clinic.accounts[0]));
        clinic.files.push(...detail.files.map((f) => f.fileCode));
      }
    }
    // The laboratories' fresh orders, by how far they went, so each action finds an order it applies to.
    for (const lab of world.labs)
      lab.queue = {
        accept: lab.orders.filter((o) => o.status === 'pending').map((o) => o.code),
        ready: lab.orders.filter((o) => o.status === 'accepted').map((o) => o.code),
        ship: [],
      };
    console.log(
      `signed in ${tokens.size} users and uploaded ${CLINICS * FILES_PER_CLINIC} files in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    /** One call of the mix for loop `n`, which acts for a clinic user and a laboratory user. */
    const calls = {
      'sign-in': async (clinic) =>
        api(base, 'login', { account: pick(clinic.accounts), password: PASSWORD, saveLogin: false }),
      'case list': (clinic, token) =>
        api(base, 'case/list', { pageNum: 1 + Math.floor(Math.random() * 5), pageSize: 20 }, token),
      'case detail': (clinic, token) => api(base, 'case/detail', { caseCode: pick(clinic.cases) }, token),
      'order list': (clinic, token, lab, labToken) =>
        Math.random() < 0.5
          ? api(base, 'order/list', { pageNum: 1 + Math.floor(Math.random() * 3), pageSize: 20 }, token)
          : api(base, 'order/list', { pageNum: 1 + Math.floor(Math.random() * 3), pageSize: 20 }, labToken),
      'order detail': (clinic, token, lab, labToken) =>
        Math.random() < 0.5
          ? api(base, 'order/detail', { orderCode: pick(clinic.orders).code }, token)
          : api(base, 'order/detail', { orderCode: pick(lab.orders).code }, labToken),
      dashboard: (clinic, token, lab, labToken) =>
        api(base, 'user/indexDashboard', {}, Math.random() < 0.5 ? token : labToken),
      download: async (clinic, token) => {
        const grant = await api(base, 'file/downloadGrant', { fileCode: pick(clinic.files) }, token);
        const res = await request(grant.url, { method: 'GET' });
        if (res.status !== 200 || res.body.length !== 20 * 1024) throw new CallError(`HTTP ${res.status} download`);
      },
      upload: (clinic, token) =>
        tusUpload(base, token, pick(clinic.cases), smallScan(4 * 1024 + Math.floor(Math.random() * 4096)), 'note.a3d'),
      'order action': async (clinic, token, lab, labToken) => {
        // Ship what is ready, mark ready what was accepted, accept what is pending; each order taken by one loop.
        const q = lab.queue;
        const action =
          q.ship.length && Math.random() < 0.4 ? 'ship' : q.ready.length && Math.random() < 0.5 ? 'ready' : 'accept';
        const code = (q[action].length ? q[action] : q.accept).shift();
        if (!code) throw new CallError('no fresh order left');
        const done = await api(
          base,
          'order/action',
          { orderCodes: [code], action, ...(action === 'ship' ? { trackingNumber: `TRK-${code}` } : {}) },
          labToken,
        );
        const result = done.results[0];
        if (!result.ok) throw new CallError(`refused ${action}: ${result.code} ${result.msg}`);
        if (action === 'accept') q.ready.push(code);
        else if (action === 'ready') q.ship.push(code);
      },
    };

    const stats = new Map(MIX.map(([name]) => [name, { latencies: [], errors: new Map() }]));
    const rss = [];
    const sample = () => rss.push(rssBytes(pid));
    const before = rssBytes(pid);
    const l0 = loadavg()[0];
    console.log(
      `\n${CONNECTIONS} connections for ${SECONDS} s (sign-in limit raised to ${LOGIN_LIMIT}/min through ` +
        `LOGIN_RATE_LIMIT_PER_MINUTE: every connection comes from 127.0.0.1); load average before ${l0.toFixed(1)}`,
    );
    sample();
    const sampler = setInterval(sample, 1000);
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, n) => {
        const clinic = world.clinics[n % CLINICS];
        const lab = world.labs[n % LABS];
        const token = tokens.get(clinic.accounts[n % USERS_PER_ORG]);
        const labToken = tokens.get(lab.accounts[n % USERS_PER_ORG]);
        while (performance.now() < end) {
          const name = pickCall();
          const s = stats.get(name);
          const t0 = performance.now();
          try {
            await calls[name](clinic, token, lab, labToken);
            s.latencies.push(performance.now() - t0);
          } catch (err) {
            const label = err instanceof CallError ? err.label : `client ${err.message}`;
            s.errors.set(label, (s.errors.get(label) ?? 0) + 1);
          }
        }
      }),
    );
    clearInterval(sampler);
    sample();
    const l1 = loadavg()[0];
    await sleep(10_000);
    const rested = rssBytes(pid);

    // The report.
    const rows = [];
    let calls_ = 0;
    let errors = 0;
    for (const [name, s] of stats) {
      s.latencies.sort((a, b) => a - b);
      const failed = [...s.errors.values()].reduce((a, b) => a + b, 0);
      calls_ += s.latencies.length + failed;
      errors += failed;
      const ms = (p) => (s.latencies.length ? percentile(s.latencies, p).toFixed(1) : '-');
      rows.push({
        call: name,
        calls: s.latencies.length + failed,
        'calls/s': ((s.latencies.length + failed) / SECONDS).toFixed(1),
        errors: failed,
        'p50 ms': ms(50),
        'p95 ms': ms(95),
        'p99 ms': ms(99),
        'max ms': s.latencies.length ? s.latencies.at(-1).toFixed(0) : '-',
      });
    }
    console.table(rows);
    console.log(
      `${calls_} calls in ${SECONDS} s: ${(calls_ / SECONDS).toFixed(0)} calls/s (a download is a grant and a GET), ` +
        `${errors} errors; load average after ${l1.toFixed(1)} (the machine is shared)`,
    );
    for (const [name, s] of stats) for (const [label, n] of s.errors) console.log(`  error ${name}: ${n} × ${label}`);
    const max = Math.max(...rss);
    console.log(
      `server RSS: ${fmtMB(before)} before, over the run first ${fmtMB(rss[0])}, last ${fmtMB(rss.at(-1))}, ` +
        `max ${fmtMB(max)}, min ${fmtMB(Math.min(...rss))}; ${fmtMB(rested)} after 10 s at rest`,
    );
    console.log(
      `  every 5 s: ${rss
        .filter((_, i) => i % 5 === 0)
        .map((b) => (b / 1024 / 1024).toFixed(0))
        .join(' ')} MB`,
    );
    console.log(
      `server log: ${server.problems.errors} errors, ${server.problems.warnings} warnings` +
        (server.problems.last.length ? `; last errors:\n  ${server.problems.last.join('\n  ')}` : ''),
    );
    process.exitCode = errors ? 1 : 0;
  } finally {
    await cleanUp();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
