// Several processes behind the balancer (docs/operations.md, "Several processes behind a balancer"), on the same
// PostgreSQL server:
// 1. Throughput of a realistic mix of calls through HAProxy with one portal process, then with two, same run, with
//    the CPU time each part took per call (portal processes, HAProxy, PostgreSQL's backends, the load generator).
//    On two cores the gain is bounded: the database and the balancer share them with the portal.
// 2. Failover: the same mix on 32 connections while one of two processes is killed with -9; the calls that failed
//    (and whether they had begun before the kill) and the longest call begun after it.
import pg from 'pg';
import { startCluster } from '../scripts/cluster-lib.mjs';
import { cpuAccount, load, percentile, sleep } from './portal-lib.mjs';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function post(url, path, body, token) {
  const res = await fetch(`${url}/api/v2/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  return { status: res.status, code: json.code, data: json.data };
}

/** A clinic's day in calls: lists and pages read much more often than cases are made. */
function mix(url, token, codes) {
  const calls = [
    [40, () => post(url, 'case/list', { pageNum: 1, pageSize: 20 }, token)],
    [30, (i) => post(url, 'case/detail', { caseCode: codes[i % codes.length] }, token)],
    [15, () => post(url, 'order/list', { pageNum: 1, pageSize: 20 }, token)],
    [10, () => post(url, 'user/info', {}, token)],
    [5, (i) => post(url, 'case/create', { name: `Mix ${i}`, patientName: 'Bench Patient' }, token)],
  ];
  const wheel = calls.flatMap(([weight, fn]) => Array(weight).fill(fn));
  return async (i) => {
    const res = await wheel[i % wheel.length](i);
    if (res.code !== 200) throw new Error(`mix: ${res.status} ${res.code}`);
  };
}

async function site(processes) {
  const cluster = await startCluster({
    processes,
    database: `portal_bench_cluster${processes}`,
    dropDatabaseOnStop: true,
    env: { LOGIN_RATE_LIMIT_PER_MINUTE: '10000', SEED_DEMO: 'true' },
  });
  const login = await post(cluster.url, 'login', { account: 'clinic', password: 'Dental#2026', saveLogin: true });
  const token = login.data.accessToken;
  const codes = [];
  for (let i = 0; i < 20; i++)
    codes.push(
      (await post(cluster.url, 'case/create', { name: `Seed ${i}`, patientName: 'Bench Patient' }, token)).data
        .caseCode,
    );
  return { cluster, token, codes, call: mix(cluster.url, token, codes) };
}

async function throughput(processes) {
  const { cluster, call } = await site(processes);
  try {
    await load(call, { concurrency: CONNECTIONS, seconds: 3 });
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const backends = (
      await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
    ).rows.map((r) => r.pid);
    await db.end();
    const { portals, haproxy } = cluster.pids();
    const cpu = cpuAccount({ portal: portals, haproxy: [haproxy], postgres: backends, bench: [process.pid] });
    const r = await load(call, { concurrency: CONNECTIONS, seconds: SECONDS });
    const { ms } = cpu.stop();
    const perCall = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, v / r.count]));
    return { ...r, perCall };
  } finally {
    await cluster.stop();
  }
}

async function failover() {
  const { cluster, call } = await site(2);
  try {
    await load(call, { concurrency: CONNECTIONS, seconds: 3 });
    const calls = [];
    let n = 0;
    let running = true;
    const worker = async () => {
      while (running) {
        const began = performance.now();
        let ok = true;
        await call(n++).catch(() => (ok = false));
        calls.push({ began, ended: performance.now(), ok });
      }
    };
    const workers = Array.from({ length: CONNECTIONS }, worker);
    await sleep(2000);
    const killedAt = performance.now();
    await cluster.kill(0);
    const deadAt = performance.now();
    await sleep(6000);
    running = false;
    await Promise.all(workers);
    const failed = calls.filter((c) => !c.ok);
    const after = calls.filter((c) => c.began >= deadAt);
    const stall = Math.max(...after.map((c) => c.ended - c.began));
    const sorted = after.map((c) => c.ended - c.began).sort((a, b) => a - b);
    return {
      total: calls.length,
      failed: failed.length,
      inFlight: failed.filter((c) => c.began < deadAt && c.ended >= killedAt).length,
      stall,
      p95: percentile(sorted, 95),
    };
  } finally {
    await cluster.stop();
  }
}

const fmtCpu = (c) =>
  `CPU per call: portal ${c.portal.toFixed(2)} ms, HAProxy ${c.haproxy.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, load generator ${c.bench.toFixed(2)}`;

export async function clusterBench() {
  const one = await throughput(1);
  const two = await throughput(2);
  const killed = await failover();
  return [
    [
      `cluster: a clinic's mix through HAProxy, two processes (${CONNECTIONS} connections)`,
      `${two.rps.toFixed(0)} calls/s, p50 ${two.p50.toFixed(1)} ms, p95 ${two.p95.toFixed(1)} ms; ${fmtCpu(two.perCall)}`,
      `one process: ${one.rps.toFixed(0)} calls/s, p50 ${one.p50.toFixed(1)} ms, p95 ${one.p95.toFixed(1)} ms; ${fmtCpu(one.perCall)}`,
      'measured',
    ],
    [
      `cluster: kill -9 of one of two processes under ${CONNECTIONS} connections of the mix`,
      `${killed.failed} of ${killed.total} calls failed (${killed.inFlight} of them in flight on the killed process); longest call begun after the kill ${killed.stall.toFixed(0)} ms, p95 ${killed.p95.toFixed(1)} ms`,
      'goal: only calls in flight fail, longest stall ≤ 2 s',
      killed.failed === killed.inFlight && killed.stall <= 2000 ? 'met' : 'missed',
    ],
  ];
}
