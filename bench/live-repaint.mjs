// Live updates as a clinic sees them:
// - from a laboratory's action committed (the API's answer) to the clinic's order-list row showing the new status,
//   with TABS tabs open: MEASURED_TABS of them drawn and timed in Chromium, the others signed-in sockets in a process
//   of their own (each person's tab runs on their own computer; the server carries all of them); on one process,
//   then with the tabs and sockets split over two processes on one PostgreSQL; then, for context, with all TABS tabs
//   drawn by one Chromium on this machine, where every repaint waits for the others' on the same cores;
// - the server's requests per idle signed-in tab per minute.
// Baseline in the same run: the timed tabs with the socket refused (the page falls back to polling, as every page
// did before the socket existed). Each figure also says when the socket frame reached the tab.
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
import { clientsProcess } from './live.mjs';

const TABS = Number(process.env.BENCH_LIVE_TABS ?? 50);
const IDLE_SECONDS = Number(process.env.BENCH_LIVE_IDLE_SECONDS ?? 60);
const ORDERS = 2;
/** The tabs drawn and timed in Chromium; the rest of TABS are sockets (see `otherTabs`). */
const MEASURED_TABS = Number(process.env.BENCH_LIVE_MEASURED_TABS ?? 4);
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

/** In the page, before its code: notes when each socket frame arrives (to split a delay into socket and page). */
function noteFrames() {
  const Native = window.WebSocket;
  window.__frames = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) =>
        window.__frames.push([performance.timeOrigin + performance.now(), String(e.data)]),
      );
    }
  };
}

/**
 * In the page: resolves with the epoch time at which the row first shows the status, and the time the socket frame
 * that carried it arrived (0 when polling brought it).
 */
function whenRowShows({ code, status }) {
  const framesBefore = window.__frames?.length ?? 0;
  const frameTime = () =>
    (window.__frames ?? []).slice(framesBefore).find(([, d]) => d.includes(code) && d.includes(status))?.[0] ?? 0;
  return new Promise((resolve) => {
    const sel = `[data-testid="order-row-${code}"][data-status="${status}"]`;
    if (document.querySelector(sel)) return resolve({ shown: 0, frame: 0 });
    const mo = new MutationObserver(() => {
      if (!document.querySelector(sel)) return;
      mo.disconnect();
      resolve({ shown: performance.timeOrigin + performance.now(), frame: frameTime() });
    });
    mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

/** Opens the tabs of one signed-in browser context on the order list; `refuseSocket` makes them poll. */
async function openTabs(browser, origin, count, refuseSocket) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (refuseSocket) await context.routeWebSocket(/\/ws$/, (ws) => ws.close());
  else await context.addInitScript(noteFrames);
  let apiRequests = 0;
  context.on('request', (r) => {
    if (r.url().includes('/api/')) apiRequests += 1;
  });
  const first = await context.newPage();
  await signInPage(first, origin);
  const pages = [first];
  for (let i = 1; i < count; i++) pages.push(await context.newPage());
  // Ten at a time: fifty pages loading at once on two cores outlast any time-out.
  for (let i = 0; i < pages.length; i += 10) {
    const batch = pages.slice(i, i + 10);
    await Promise.all(batch.map((p) => p.goto(`${origin}/order-management`, { timeout: 120_000 })));
    await Promise.all(batch.map((p) => p.waitForSelector('[data-testid^=order-row-]', { timeout: 120_000 })));
  }
  return { context, pages, requests: () => apiRequests };
}

/** The laboratory takes the orders through accept, ready and ship; each tab's delay to show each step. */
async function timeSteps(lab, orderCodes, pages) {
  const delays = [];
  const socket = [];
  for (const orderCode of orderCodes) {
    for (const [action, status, extra] of STEPS) {
      const marks = pages.map((p) => p.evaluate(whenRowShows, { code: orderCode, status }));
      await sleep(300 + Math.random() * 1500);
      await lab('order/action', { orderCodes: [orderCode], action, ...extra });
      const t0 = now();
      const times = await Promise.all(marks);
      for (const { shown, frame } of times) {
        delays.push(Math.max(0, shown - t0));
        if (frame) socket.push(Math.max(0, frame - t0));
      }
    }
  }
  return Object.assign(delays, { socket });
}

export async function liveRepaintBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_repaint');
  const portals = [];
  let browser = null;
  try {
    // Every tab and socket here comes from one address and one account; people's tabs come from many.
    const env = { DATABASE_URL: database.url, LIVE_SOCKETS_PER_USER: '500', LIVE_WAITING_PER_ADDRESS: '500' };
    portals.push(await startPortal({ start, waitFor, freePort }, env));
    const clinic = apiClient(portals[0].base, await login(portals[0].base, 'clinic'));
    const lab = apiClient(portals[0].base, await login(portals[0].base, 'lab'));
    await waitDemoQuiet(clinic);
    portals.push(await startPortal({ start, waitFor, freePort }, { ...env, SEED_DEMO: 'false' }));
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
    // The tabs beyond the measured ones are sockets signed in as the clinic, in a process of their own: the server
    // carries all of them, while the browser draws only the tabs timed (each person's tab has its own computer).
    const otherTabs = async (split) => {
      const clients = clientsProcess();
      for (const [portal, count] of split) {
        // Signed in on the process itself (each keeps its own signing key here), and fresh: tokens expire.
        const clinicToken = await login(portal.base, 'clinic');
        if (count > 0)
          await clients.ask({
            cmd: 'open',
            url: `ws://127.0.0.1:${portal.port}/ws`,
            origin: portal.origin,
            token: clinicToken,
            count,
          });
      }
      return { close: () => clients.child.kill() };
    };
    const measured = Math.min(MEASURED_TABS, TABS);
    const results = {};
    for (const mode of ['live', 'polling']) {
      const codes = await newOrders(mode);
      const tabs = await openTabs(browser, portals[0].origin, measured, mode === 'polling');
      const others = mode === 'live' ? await otherTabs([[portals[0], TABS - measured]]) : null;
      const before = tabs.requests();
      await sleep(IDLE_SECONDS * 1000);
      const idle = (tabs.requests() - before) / measured / (IDLE_SECONDS / 60);
      const delays = await timeSteps(lab, codes, tabs.pages);
      others?.close();
      await tabs.context.close();
      results[mode] = { idle, delays };
    }
    // Two processes: the sockets and the timed tabs on both, the laboratory acting through the first.
    const twoCodes = await newOrders('two');
    const onA = Math.floor(measured / 2);
    const a = await openTabs(browser, portals[0].origin, onA, false);
    const b = await openTabs(browser, portals[1].origin, measured - onA, false);
    const half = Math.floor((TABS - measured) / 2);
    const twoOthers = await otherTabs([
      [portals[0], half],
      [portals[1], TABS - measured - half],
    ]);
    const two = await timeSteps(lab, twoCodes, [...a.pages, ...b.pages]);
    twoOthers.close();
    await a.context.close();
    await b.context.close();
    // Every tab in this one browser: each repaint then waits for the others' on this machine's cores.
    const sharedCodes = await newOrders('shared');
    const all = await openTabs(browser, portals[0].origin, TABS, false);
    const shared = await timeSteps(lab, sharedCodes, all.pages);
    await all.context.close();

    const p95 = (d) =>
      percentile(
        [...d].sort((x, y) => x - y),
        95,
      );
    const verdict = (d, goal) => (p95(d) <= goal ? `met (goal p95 ≤ ${goal} ms)` : `MISSED (goal p95 ≤ ${goal} ms)`);
    const withFrame = (d) => `${fmt(d)}; its frame in the tab: ${fmt(d.socket)}`;
    const who = `${TABS} tabs (${measured} timed in Chromium, ${TABS - measured} as signed-in sockets)`;
    return [
      [
        `live: laboratory action → clinic's order-list row repainted, ${who}, one process`,
        withFrame(results.live.delays),
        `socket refused (polling), ${measured} tabs: ${fmt(results.polling.delays)}`,
        verdict(results.live.delays, 100),
      ],
      [
        `live: the same with the tabs and sockets on two processes (one PostgreSQL)`,
        withFrame(two),
        `socket refused (polling), one process: ${fmt(results.polling.delays)}`,
        verdict(two, 150),
      ],
      [
        `live: the same, all ${TABS} tabs drawn by one Chromium on this machine (their repaints share its cores)`,
        withFrame(shared),
        `socket refused (polling), ${measured} tabs: ${fmt(results.polling.delays)}`,
        'context (CPU-bound: not a goal)',
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
