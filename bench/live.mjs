// Live updates, server side (issue: live updates over one socket):
// - 10,000 open, authenticated sockets on one portal process: resident memory per socket;
// - one event (a case the clinic creates) to 1,000 subscribed sockets: from the API call to the last socket's
//   delivery, p50/p95 over ROUNDS rounds.
// Baseline in the same run: the same clients against a bare `ws` server that sends a frame to every socket on
// POST /emit (no database, no authentication, no filtering). The clients live in a process of their own.
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  apiClient,
  fmtMB,
  freshDatabase,
  login,
  percentile,
  settledRss,
  sleep,
  startPortal,
  waitDemoQuiet,
} from './portal-lib.mjs';

const SOCKETS = Number(process.env.BENCH_LIVE_SOCKETS ?? 10_000);
const FANOUT = 1_000;
const ROUNDS = 30;
const GOAL_P95_MS = 100;
const now = () => performance.timeOrigin + performance.now();

/** The clients' process, and a reader of its answers in order. */
export function clientsProcess() {
  const child = fork(resolve(import.meta.dirname, 'live-clients.mjs'), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox = [];
  let wake = null;
  child.on('message', (m) => {
    inbox.push(m);
    wake?.();
  });
  const next = async () => {
    while (!inbox.length) await new Promise((r) => (wake = r));
    const m = inbox.shift();
    if (m.error) throw new Error(`live clients: ${m.error}`);
    return m;
  };
  return {
    child,
    next,
    ask: async (msg) => {
      child.send(msg);
      return next();
    },
  };
}

/** Opens the sockets, weighs them, keeps FANOUT of them, and times ROUNDS events from `emit` to the last delivery. */
async function measure({ pid, url, origin, token, emit }) {
  const clients = clientsProcess();
  try {
    const before = await settledRss(pid);
    const opened = await clients.ask({ cmd: 'open', url, origin, token, count: SOCKETS });
    await sleep(1000);
    const after = await settledRss(pid);
    await clients.ask({ cmd: 'keep', count: FANOUT });
    await sleep(500);
    const delays = [];
    for (let i = 0; i < ROUNDS; i++) {
      await clients.ask({ cmd: 'arm', kind: 'case.changed' });
      const t0 = now();
      await emit(i);
      const { last } = await clients.next();
      delays.push(last - t0);
      await sleep(100);
    }
    delays.sort((a, b) => a - b);
    return { perSocket: (after - before) / opened.opened, openMs: opened.ms, delays };
  } finally {
    clients.child.kill('SIGTERM');
  }
}

const fmtDelays = (d) => `p50 ${percentile(d, 50).toFixed(1)} ms, p95 ${percentile(d, 95).toFixed(1)} ms`;

/** The portal on one database (the embedded one, or a fresh PostgreSQL database): its sockets, weighed and timed. */
async function portalRun({ start, waitFor, stop, freePort }, databaseUrl) {
  const limit = String(SOCKETS + 100);
  const portal = await startPortal(
    { start, waitFor, freePort },
    {
      LIVE_SOCKETS_PER_USER: limit,
      LIVE_WAITING_PER_ADDRESS: limit,
      ACCESS_TOKEN_TTL_SECONDS: '3600',
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    },
  );
  try {
    const token = await login(portal.base, 'clinic');
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);
    return await measure({
      pid: portal.child.pid,
      url: `${portal.origin.replace(/^http/, 'ws')}/ws`,
      origin: portal.origin,
      token,
      emit: (i) => api('case/create', { name: `Live ${i}`, patientName: `Live Bench ${i}` }),
    });
  } finally {
    await stop(portal.child);
    rmSync(portal.dataDir, { recursive: true, force: true });
  }
}

export async function liveBench({ adminUrl, start, waitFor, stop, freePort }) {
  // The bare floor first.
  const barePort = await freePort();
  const bare = start(['bench/bare-ws-server.mjs'], { PORT: String(barePort) });
  let floor;
  try {
    await waitFor(`http://127.0.0.1:${barePort}/`, bare);
    floor = await measure({
      pid: bare.pid,
      url: `ws://127.0.0.1:${barePort}/ws`,
      origin: `http://127.0.0.1:${barePort}`,
      token: 'none',
      emit: () => fetch(`http://127.0.0.1:${barePort}/emit`, { method: 'POST' }).then((r) => r.text()),
    });
  } finally {
    await stop(bare);
  }
  const runs = [['embedded database', await portalRun({ start, waitFor, stop, freePort })]];
  const database = await freshDatabase(adminUrl, 'portal_bench_live').catch(() => null);
  if (database) {
    try {
      runs.push(['PostgreSQL', await portalRun({ start, waitFor, stop, freePort }, database.url)]);
    } finally {
      await database.drop();
    }
  }
  return runs.flatMap(([where, live]) => {
    const p95 = percentile(live.delays, 95);
    return [
      [
        `live (${where}): ${SOCKETS} authenticated sockets on one process, memory per socket`,
        `${(live.perSocket / 1024).toFixed(1)} KB/socket (${fmtMB(live.perSocket * SOCKETS)} in all; opened in ${(live.openMs / 1000).toFixed(1)} s)`,
        `bare ws: ${(floor.perSocket / 1024).toFixed(1)} KB/socket (opened in ${(floor.openMs / 1000).toFixed(1)} s)`,
        'figure only',
      ],
      [
        `live (${where}): one event to ${FANOUT} subscribed sockets, API call → last delivery (${ROUNDS} rounds)`,
        fmtDelays(live.delays),
        `bare ws POST /emit → last delivery: ${fmtDelays(floor.delays)}`,
        p95 <= GOAL_P95_MS ? `met (goal p95 ≤ ${GOAL_P95_MS} ms)` : `MISSED (goal p95 ≤ ${GOAL_P95_MS} ms)`,
      ],
    ];
  });
}
