// A patient opening a shared case on a phone: Chromium's CPU slowed 4× and the network at 20 Mbit/s with 40 ms
// latency, a 390 × 844 screen. Time from navigation to the first painted 3D frame of a demo case's scans, through
// its share link (no sign-in) and, as the baseline in the same run, through the signed-in case detail page (the
// session already made, the scans opened as soon as their button shows). The median of 3 runs each.
// Also the share page's first load: the JS and CSS, gzipped, a visitor's browser fetches before the 3D viewer's code,
// against the signed-in case detail page's in the same run.
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { apiClient, launchChromium, login, signInPage, sleep, startPortal, waitDemoQuiet } from './portal-lib.mjs';

const RUNS = 3;
const CPU_SLOWDOWN = 4;
const NETWORK = { offline: false, latency: 40, downloadThroughput: 20e6 / 8, uploadThroughput: 20e6 / 8 };
const PHONE = { width: 390, height: 844 };
const TIMEOUT_MS = 180_000;

// From the first script on: polls the viewer's canvas and records when it first shows a painted scan.
const PAINT_PROBE = `(() => {
  const b = (window.__phone = { paintedAt: null });
  const copy = document.createElement('canvas');
  const timer = setInterval(() => {
    const gl = document.querySelector('canvas[data-testid=viewer-canvas]');
    if (!gl || !gl.width || !gl.height) return;
    copy.width = gl.width; copy.height = gl.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(gl, 0, 0);
    const d = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 16)
      if (Math.max(Math.abs(d[i] - d[0]), Math.abs(d[i + 1] - d[1]), Math.abs(d[i + 2] - d[2])) > 30) n++;
    if (n > 100) { b.paintedAt = performance.now(); clearInterval(timer); }
  }, 100);
})();`;

/**
 * The JS and CSS a cold browser fetches for a page until `ready` shows and the network is idle, cut where the 3D
 * viewer's code starts loading (the page marks it 'viewer:code'; three.js and the viewer's controls come after):
 * what the page needs before the viewer.
 */
async function firstLoad(browser, { storageState, url, ready }) {
  const context = await browser.newContext({ storageState });
  try {
    const page = await context.newPage();
    const bodies = new Map();
    page.on('response', (res) => {
      const type = res.request().resourceType();
      if (type === 'script' || type === 'stylesheet')
        bodies.set(
          res.url(),
          res.body().catch(() => Buffer.alloc(0)),
        );
    });
    await page.goto(url);
    await page.waitForSelector(ready);
    await page.waitForLoadState('networkidle');
    const { viewerAt, started } = await page.evaluate(() => ({
      viewerAt: performance.getEntriesByName('viewer:code')[0]?.startTime ?? null,
      started: performance.getEntriesByType('resource').map((e) => ({ url: e.name, at: e.startTime })),
    }));
    const before = started.filter((r) => bodies.has(r.url) && (viewerAt === null || r.at < viewerAt));
    const sizes = await Promise.all(before.map(async (r) => gzipSync(await bodies.get(r.url)).length));
    if (process.env.BENCH_VERBOSE)
      before.forEach((r, i) =>
        console.info(`${(sizes[i] / 1024).toFixed(1).padStart(7)} KB  ${new URL(r.url).pathname}`),
      );
    return { kb: sizes.reduce((a, b) => a + b, 0) / 1024, files: before.length, viewer: viewerAt !== null };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One cold visit on a slowed phone: seconds from navigation to the first painted 3D frame. */
async function firstFrame(browser, { storageState, url, open }) {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, storageState });
  try {
    const page = await context.newPage();
    await page.addInitScript(PAINT_PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'commit' });
    if (open) await page.click(open, { timeout: TIMEOUT_MS });
    await page.waitForFunction(() => window.__phone.paintedAt !== null, null, { polling: 250, timeout: TIMEOUT_MS });
    // performance.now() counts from the navigation's start.
    return (await page.evaluate(() => window.__phone.paintedAt)) / 1000;
  } finally {
    await context.close();
  }
}

export async function sharePhoneBench({ start, waitFor, stop, freePort }) {
  let portal = null;
  let browser = null;
  try {
    portal = await startPortal({ start, waitFor, freePort });
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);
    // The demo case with the most scans ready for the viewer.
    const cases = (await api('case/list', { pageSize: 100 })).list;
    let demo = null;
    for (const c of cases.filter((x) => x.fileCount > 0)) {
      const detail = await api('case/detail', { caseCode: c.caseCode });
      const ready = detail.files.filter((f) => f.kind === 'model' && f.viewerStatus === 'ready').length;
      if (ready > (demo?.ready ?? 0)) demo = { caseCode: c.caseCode, ready };
    }
    if (!demo) throw new Error('no demo case with scans ready for the viewer');
    const share = await api('share/create', { resourceType: 'case', resourceCode: demo.caseCode, expiresInDays: 1 });
    const shareUrl = new URL(share.url);

    browser = await launchChromium();
    // A signed-in browser's stored session, made once at full speed (the baseline measures the page, not the sign-in).
    const signing = await browser.newContext();
    const page = await signing.newPage();
    await signInPage(page, portal.origin);
    const storageState = await signing.storageState();
    await signing.close();

    const shareLoad = await firstLoad(browser, {
      url: `${portal.origin}${shareUrl.pathname}${shareUrl.search}`,
      ready: '[data-testid=share-content]',
    });
    const detailLoad = await firstLoad(browser, {
      storageState,
      url: `${portal.origin}/case-management/detail/${demo.caseCode}`,
      ready: '[data-testid=file-view-models]',
    });
    if (!shareLoad.viewer) throw new Error('the share page did not fetch the 3D viewer');

    const shared = [];
    const detail = [];
    for (let i = 0; i < RUNS; i++) {
      shared.push(await firstFrame(browser, { url: `${portal.origin}${shareUrl.pathname}${shareUrl.search}` }));
      detail.push(
        await firstFrame(browser, {
          storageState,
          url: `${portal.origin}/case-management/detail/${demo.caseCode}`,
          open: '[data-testid=file-view-models]',
        }),
      );
      await sleep(200);
    }
    const s = median(shared);
    const d = median(detail);
    return [
      [
        'share page of a case, first load before the 3D viewer (JS+CSS gzip)',
        `${shareLoad.kb.toFixed(1)} KB in ${shareLoad.files} files`,
        `signed-in case detail, same run: ${detailLoad.kb.toFixed(1)} KB in ${detailLoad.files} files`,
        shareLoad.kb <= 120 ? 'goal ≤ 120 KB met' : 'goal ≤ 120 KB MISSED',
      ],
      [
        `shared case on a phone (CPU ${CPU_SLOWDOWN}× slower, 20 Mbit/s, 40 ms): first 3D frame, ${demo.ready} scans`,
        `median ${s.toFixed(2)} s (${shared.map((x) => x.toFixed(2)).join(', ')})`,
        `signed-in case detail, same phone: median ${d.toFixed(2)} s (${detail.map((x) => x.toFixed(2)).join(', ')})`,
        s <= d ? 'the share page is as fast or faster' : `the share page is ${(s / d).toFixed(2)}× slower`,
      ],
    ];
  } finally {
    await browser?.close().catch(() => {});
    if (portal) {
      await stop(portal.child);
      rmSync(portal.dataDir, { recursive: true, force: true });
    }
  }
}
