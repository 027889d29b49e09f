// Webhook deliveries as an integrator receives them: a clinic's endpoint on loopback subscribed to case.created, and
// a burst of cases made through the API. Measured: signed deliveries per second into the receiver, and each case's
// delay from its commit (the API's answer) to its delivery. Baseline in the same run: the same number of signed POSTs
// (HMAC-SHA256 per Standard Webhooks) sent straight from this process to the same receiver, as fast as it takes them.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { rmSync } from 'node:fs';
import { apiClient, freshDatabase, login, percentile, startPortal } from './portal-lib.mjs';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 500);
const CONCURRENCY = 16;
const now = () => performance.timeOrigin + performance.now();

/** A loopback receiver that notes when each body arrives, keyed by what `keyOf` reads in it. */
async function receiver(keyOf) {
  const arrived = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const key = keyOf(Buffer.concat(chunks).toString('utf8'));
      if (key && !arrived.has(key)) arrived.set(key, now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    arrived,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Runs `fn(i)` for i < count, `CONCURRENCY` at a time. */
async function pool(count, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

async function until(test, timeoutMs) {
  const t0 = performance.now();
  while (!test()) {
    if (performance.now() - t0 > timeoutMs) throw new Error('webhook bench: deliveries did not all arrive');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const fmt = (d) => {
  const s = [...d].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms`;
};

export async function webhooksBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_webhooks');
  const portal = await startPortal(
    { start, waitFor, freePort },
    { DATABASE_URL: database.url, WEBHOOK_ALLOW_LOOPBACK: 'true' },
  );
  try {
    const clinic = apiClient(portal.base, await login(portal.base, 'clinic'));

    // The portal: cases made through the API, each delivered to the clinic's endpoint.
    const hooks = await receiver((body) => JSON.parse(body).data?.caseCode);
    await clinic('webhook/create', { url: hooks.url, events: ['case.created'] });
    const committed = new Map();
    const t0 = now();
    await pool(EVENTS, async (i) => {
      const { caseCode } = await clinic('case/create', { name: `Hook bench ${i}`, patientName: `Hook ${i}` });
      committed.set(caseCode, now());
    });
    await until(() => [...committed.keys()].every((k) => hooks.arrived.has(k)), 120_000);
    const last = Math.max(...hooks.arrived.values());
    const perSecond = EVENTS / ((last - t0) / 1000);
    const delays = [...committed].map(([k, t]) => hooks.arrived.get(k) - t);
    await hooks.close();

    // The baseline: this process signs and posts the same count to a receiver of the same kind.
    const direct = await receiver((body) => JSON.parse(body).data?.n);
    const secret = randomBytes(32);
    const posted = new Map();
    const b0 = now();
    await pool(EVENTS, async (n) => {
      const body = JSON.stringify({ type: 'case.created', timestamp: new Date().toISOString(), data: { n: `k${n}` } });
      const id = `msg_${randomBytes(12).toString('hex')}`;
      const ts = Math.floor(Date.now() / 1000);
      const sig = createHmac('sha256', secret).update(`${id}.${ts}.${body}`).digest('base64');
      const sent = now();
      await fetch(direct.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(ts),
          'webhook-signature': `v1,${sig}`,
        },
        body,
      });
      posted.set(`k${n}`, sent);
    });
    const directLast = Math.max(...direct.arrived.values());
    const directPerSecond = EVENTS / ((directLast - b0) / 1000);
    const directDelays = [...posted].map(([k, t]) => direct.arrived.get(k) - t);
    await direct.close();

    return [
      [
        `webhooks: signed deliveries per second to a loopback receiver (${EVENTS} cases, ${CONCURRENCY} at a time)`,
        `${perSecond.toFixed(0)}/s (cases made and delivered in ${((last - t0) / 1000).toFixed(1)} s)`,
        `signed POSTs straight from the bench: ${directPerSecond.toFixed(0)}/s`,
        'measured',
      ],
      [
        'webhooks: a case committed (the API answer) → its delivery at the receiver',
        fmt(delays),
        `a signed POST straight to the receiver: ${fmt(directDelays)}`,
        'measured',
      ],
    ];
  } finally {
    await stop(portal.child);
    rmSync(portal.dataDir, { recursive: true, force: true });
    // BENCH_KEEP=1 keeps the database (portal_bench_webhooks) for a look at the deliveries' own times.
    await (process.env.BENCH_KEEP === '1' ? database.keep() : database.drop());
  }
}
