// Live updates as a clinic sees them (issue: live updates over one socket):
// - from a laboratory's action committed (the API's answer) to the clinic's order-list row showing the new status,
//   with TABS tabs open: on one process, and with the tabs split over two processes on one PostgreSQL;
// - the server's requests per idle signed-in tab per minute.
// Baseline in the same run: the same tabs with the socket refused (the page falls back to polling, as every page
// did before the socket existed).
import { rmSync } from 'node:fs';
import {
  apiClient,
  freshDatabase,
  launchChromium,
  login,
  percentile,
  signInPage,
  sleep,
  startPortal,
  waitDemoQuiet,
} from './portal-lib.mjs';

const TABS = Number(process.env.BENCH_LIVE_TABS ?? 50);
const IDLE_SECONDS = Number(process.env.BENCH_LIVE_IDLE_SECONDS ?? 60);
const ORDERS = 2;
const STEPS = [
  ['accept', 'accepted', {}],
  ['ready', 'ready', {}],
  ['ship', 'shipped', { trackingNumber: 'BENCH-1' }],
];
const now = () => performance.timeOrigin + performance.now();
const fmt = (d) => {
  const s = [...d].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms (n=${s.length})`;
};

/** In the page: resolves with the epoch time at which the row first shows the status. */
function whenRowShows({ code, status }) {
  return new Promise((resolve) => {
    const sel = `[data-testid="order-row-${code}"][data-status="${status}"]`;
    if (document.querySelector(sel)) return resolve(0);
    const mo = new MutationObserver(() => {
      if (!document.querySelector(sel)) return;
      mo.disconnect();
      resolve(performance.timeOrigin + performance.now());
    });
    mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

/** Opens the tabs of one signed-in browser context on the order list; `refuseSocket` makes them poll. */
async function openTabs(browser, origin, count, refuseSocket) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (refuseSocket) await context.routeWebSocket(/\/ws$/, (ws) => ws.close());
  let apiRequests = 0;
  context.on('request', (r) => {
    if (r.url().includes('/api/')) apiRequests += 1;
  });
  const first = await context.newPage();
  await signInPage(first, origin);
  const pages = [first];
  for (let i = 1; i < count; i++) pages.push(await context.newPage());
  await Promise.all(pages.map((p) => p.goto(`${origin}/order-management`)));
  await Promise.all(pages.map((p) => p.waitForSelector('[data-testid^=order-row-]', { timeout: 60_000 })));
  return { context, pages, requests: () => apiRequests };
}

/** The laboratory takes the orders through accept, ready and ship; each tab's delay to show each step. */
async function timeSteps(lab, orderCodes, pages) {
  const delays = [];
  for (const orderCode of orderCodes) {
    for (const [action, status, extra] of STEPS) {
      const marks = pages.map((p) => p.evaluate(whenRowShows, { code: orderCode, status }));
      await sleep(300 + Math.random() * 1500);
      await lab('order/action', { orderCodes: [orderCode], action, ...extra });
      const t0 = now();
      const times = await Promise.all(marks);
      for (const t of times) delays.push(Math.max(0, t - t0));
    }
  }
  return delays;
}

export async function liveRepaintBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_repaint');
  const portals = [];
  let browser = null;
  try {
    portals.push(await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url }));
    const clinic = apiClient(portals[0].base, await login(portals[0].base, 'clinic'));
    const lab = apiClient(portals[0].base, await login(portals[0].base, 'lab'));
    await waitDemoQuiet(clinic);
    portals.push(await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url, SEED_DEMO: 'false' }));
    const labCode = (await lab('user/info')).organization.code;
    const partnerCode = (await clinic('partner/list', { tab: 'mine', pageSize: 100 })).list.find(
      (p) => p.organization.code === labCode,
    ).partnerCode;
    const newOrders = async (label) => {
      const codes = [];
      for (let i = 0; i < ORDERS; i++) {
        const { caseCode } = await clinic('case/create', {
          name: `${label} ${i}`,
          patientName: `Repaint ${label} ${i}`,
        });
        const sent = await clinic('order/create', {
          caseCodes: [caseCode],
          partnerCode,
          orderType: 'restoration',
          workTypes: ['Crown'],
          teeth: [{ number: 16, shade: 'A2' }],
        });
        codes.push(sent.list[0].orderCode);
      }
      return codes;
    };

    browser = await launchChromium();
    const results = {};
    for (const mode of ['live', 'polling']) {
      const codes = await newOrders(mode);
      const tabs = await openTabs(browser, portals[0].origin, TABS, mode === 'polling');
      const before = tabs.requests();
      await sleep(IDLE_SECONDS * 1000);
      const idle = (tabs.requests() - before) / TABS / (IDLE_SECONDS / 60);
      const delays = await timeSteps(lab, codes, tabs.pages);
      await tabs.context.close();
      results[mode] = { idle, delays };
    }
    // Two processes: half the tabs on each, the laboratory acting through the first.
    const codes = await newOrders('two');
    const half = Math.ceil(TABS / 2);
    const a = await openTabs(browser, portals[0].origin, half, false);
    const b = await openTabs(browser, portals[1].origin, TABS - half, false);
    const two = await timeSteps(lab, codes, [...a.pages, ...b.pages]);
    await a.context.close();
    await b.context.close();

    const p95 = (d) =>
      percentile(
        [...d].sort((x, y) => x - y),
        95,
      );
    const verdict = (d, goal) => (p95(d) <= goal ? `met (goal p95 ≤ ${goal} ms)` : `MISSED (goal p95 ≤ ${goal} ms)`);
    return [
      [
        `live: laboratory action → clinic's order-list row repainted, ${TABS} tabs, one process`,
        fmt(results.live.delays),
        `socket refused (polling): ${fmt(results.polling.delays)}`,
        verdict(results.live.delays, 100),
      ],
      [
        `live: the same with the tabs on two processes (one PostgreSQL)`,
        fmt(two),
        `socket refused (polling), one process: ${fmt(results.polling.delays)}`,
        verdict(two, 150),
      ],
      [
        `live: API requests per idle signed-in tab per minute (order list open, ${IDLE_SECONDS} s)`,
        results.live.idle.toFixed(2),
        `socket refused (polling): ${results.polling.idle.toFixed(2)}`,
        results.live.idle < 1 ? 'met (goal < 1)' : 'MISSED (goal < 1)',
      ],
    ];
  } finally {
    await browser?.close().catch(() => {});
    for (const p of portals) {
      await stop(p.child);
      rmSync(p.dataDir, { recursive: true, force: true });
    }
    await database.drop();
  }
}
