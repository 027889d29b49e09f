// Opening a case with a 1,000,000-triangle binary STL (about 50 MB) and a 500,000-vertex coloured PLY in the
// portal's viewer, on loopback and on an emulated 100 Mbit/s link: bytes of model data, time from the click to the
// first painted frame, and the longest main-thread block. Baseline in the same run: a plain page that fetches the
// two original files and parses them with three.js's STLLoader/PLYLoader on the main thread (bench/viewer-baseline.html).
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import {
  apiClient,
  fmtMB,
  generateScans,
  launchChromium,
  login,
  ROOT,
  signInPage,
  sleep,
  startPortal,
  tusUpload,
  waitDemoQuiet,
} from './portal-lib.mjs';

const TRIANGLES = Number(process.env.BENCH_VIEWER_TRIANGLES ?? 1_000_000);
const RUN_TIMEOUT = 120_000;
const CONDITIONS = [
  { name: 'loopback', net: null, goal: 2 },
  {
    name: '100 Mbit/s',
    net: { offline: false, latency: 5, downloadThroughput: 100e6 / 8, uploadThroughput: 100e6 / 8 },
    goal: 5,
  },
];

// Installed before any page script: long tasks, the click's time, and a pixel poll of the viewer canvas.
// Each poll is its own task and is timed, so a poll that itself blocks (the read-back waits for the software
// rasteriser) is recognised and not blamed on the page.
const INIT_SCRIPT = `(() => {
  const b = (window.__bench = { longtasks: [], checks: [], clickAt: null, paintedAt: null, stop: false });
  // Errors the decode worker reports reach the console, so a failed run says why.
  const W = window.Worker;
  if (W) window.Worker = class extends W {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => { if (e.data && e.data.type === 'error') console.error('viewer worker: ' + JSON.stringify(e.data)); });
      this.addEventListener('error', (e) => console.error('viewer worker failed: ' + e.message));
    }
  };
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  document.addEventListener('click', (e) => {
    if (b.clickAt !== null || !e.target.closest || !e.target.closest('[data-testid=file-view-models],[data-testid=baseline-open]')) return;
    b.clickAt = performance.now();
    const c2 = document.createElement('canvas');
    let ctx = null;
    const timer = setInterval(() => {
      if (b.stop) return clearInterval(timer);
      const gl = document.querySelector('canvas[data-testid=viewer-canvas]');
      if (!gl || !gl.width || !gl.height) return;
      const t0 = performance.now();
      if (c2.width !== gl.width || c2.height !== gl.height || !ctx) {
        c2.width = gl.width; c2.height = gl.height;
        ctx = c2.getContext('2d', { willReadFrequently: true });
      }
      ctx.clearRect(0, 0, c2.width, c2.height);
      ctx.drawImage(gl, 0, 0);
      const d = ctx.getImageData(0, 0, c2.width, c2.height).data;
      const r = d[0], g = d[1], bl = d[2];
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.max(Math.abs(d[i] - r), Math.abs(d[i + 1] - g), Math.abs(d[i + 2] - bl)) > 30) n++;
      }
      const t1 = performance.now();
      b.checks.push([t0, t1 - t0, n]);
      if (n > 500 && b.paintedAt === null) b.paintedAt = t0;
    }, 50);
  }, true);
})();`;

function staticServer(www) {
  const routes = [
    ['/three/addons/', join(ROOT, 'node_modules/three/examples/jsm')],
    ['/three/', join(ROOT, 'node_modules/three/build')],
    ['/files/', www],
  ];
  const types = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.stl': 'application/octet-stream',
    '.ply': 'application/octet-stream',
  };
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = null;
    if (path === '/' || path === '/viewer-baseline.html') file = join(ROOT, 'bench/viewer-baseline.html');
    for (const [prefix, dir] of routes) {
      if (!file && path.startsWith(prefix)) {
        const rel = normalize(path.slice(prefix.length));
        if (!rel.startsWith('..')) file = join(dir, rel);
      }
    }
    let size = -1;
    try {
      size = file ? statSync(file).size : -1;
    } catch {}
    if (size < 0) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** One measured opening: the page is ready, the click starts the clock. */
async function measure(browser, { condition, prepare, clickSelector, isModelRequest, isComplete }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text().slice(0, 300)));
    page.on('pageerror', (e) => problems.push(String(e).slice(0, 300)));
    page.on('requestfailed', (r) => problems.push(`${r.url().replace(/\?.*/, '')} ${r.failure()?.errorText}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.url().replace(/\?.*/, '')} HTTP ${r.status()}`));
    await page.addInitScript(INIT_SCRIPT);
    await prepare(page);
    const requests = [];
    page.on('requestfinished', (req) => {
      if (isModelRequest(req.url()))
        requests.push(
          req.sizes().then((s) => ({ url: req.url(), bytes: s.responseBodySize + 0, timing: req.timing() })),
        );
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (condition.net) await cdp.send('Network.emulateNetworkConditions', condition.net);
    await page.click(clickSelector);
    let completeAt;
    try {
      const failed = await page
        .waitForFunction(
          () =>
            window.__bench.paintedAt !== null ||
            !!document.querySelector('[data-testid=viewer-error]') ||
            !!window.__baselineError,
          null,
          { polling: 200, timeout: RUN_TIMEOUT },
        )
        .then(() => page.evaluate(() => window.__bench.paintedAt === null));
      if (failed) throw new Error('the viewer showed an error');
      completeAt = await page
        .waitForFunction(isComplete, null, { polling: 200, timeout: RUN_TIMEOUT })
        .then((h) => h.jsonValue());
    } catch (err) {
      const state = await page
        .evaluate(() => ({ checks: window.__bench.checks.slice(-3), text: document.body.innerText.slice(-300) }))
        .catch(() => null);
      throw new Error(
        `${condition.name}: no painted frame / completion (${err.message.split('\n')[0]}); page state ${JSON.stringify(state)}; problems: ${problems.join(' | ')}`,
      );
    }
    await sleep(1500); // trailing work (shader compile, the second mesh's first frame) still counts as blocking
    const data = await page.evaluate(() => {
      window.__bench.stop = true;
      const gl = document.querySelector('canvas[data-testid=viewer-canvas]');
      let renderer = null;
      try {
        const c = document.createElement('canvas').getContext('webgl2');
        const ext = c.getExtension('WEBGL_debug_renderer_info');
        renderer = ext ? c.getParameter(ext.UNMASKED_RENDERER_WEBGL) : null;
      } catch {}
      return { ...window.__bench, canvas: gl ? [gl.width, gl.height] : null, renderer, now: performance.now() };
    });
    const files = await Promise.all(requests);
    const { clickAt, paintedAt } = data;
    const probe = data.checks.filter(([, dur]) => dur >= 40);
    const fromProbe = ([start, dur]) => probe.some(([t0, d]) => Math.abs(start - t0) < 5 && Math.abs(dur - d) < 10);
    const blocks = data.longtasks.filter(([start]) => start >= clickAt - 1);
    const pageBlocks = blocks.filter((lt) => !fromProbe(lt));
    return {
      bytes: files.reduce((s, f) => s + f.bytes, 0),
      files,
      firstFrame: (paintedAt - clickAt) / 1000,
      complete: (completeAt - clickAt) / 1000,
      longest: pageBlocks.reduce((m, [, d]) => Math.max(m, d), 0),
      longestProbe: probe.reduce((m, [, d]) => Math.max(m, d), 0),
      canvas: data.canvas,
      software: /swiftshader|llvmpipe|software/i.test(data.renderer ?? ''),
      topBlocks: pageBlocks
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([st, d]) => [+((st - clickAt) / 1000).toFixed(2), Math.round(d)]),
    };
  } finally {
    await context.close();
  }
}

export async function viewerBench({ start, waitFor, stop, freePort }) {
  const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-viewer-'));
  let portal = null;
  let browser = null;
  let server = null;
  try {
    // The scans: a 1M-triangle arch as binary STL (upper) and a ~1M-triangle, ~500k-vertex arch as coloured PLY (lower).
    const gen = join(tmp, 'gen');
    await generateScans(gen, TRIANGLES, 7);
    const www = join(tmp, 'www');
    mkdirSync(www);
    copyFileSync(join(gen, 'upper.stl'), join(www, 'upper.stl'));
    copyFileSync(join(gen, 'lower.ply'), join(www, 'lower.ply'));
    const originalBytes = statSync(join(www, 'upper.stl')).size + statSync(join(www, 'lower.ply')).size;

    portal = await startPortal({ start, waitFor, freePort });
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);
    const { caseCode } = await api('case/create', { name: 'Viewer bench', patientName: 'Bench Viewer' });
    await tusUpload(portal.base, token, join(www, 'upper.stl'), { caseCode, jaw: 'upper' });
    await tusUpload(portal.base, token, join(www, 'lower.ply'), { caseCode, jaw: 'lower' });
    const t0 = performance.now();
    let files = [];
    for (;;) {
      files = (await api('case/detail', { caseCode })).files;
      if (files.length === 2 && files.every((f) => f.viewerStatus !== 'pending')) break;
      if (performance.now() - t0 > 120_000) throw new Error('viewer files still pending after 120 s');
      await sleep(500);
    }
    const prepareSeconds = (performance.now() - t0) / 1000;
    if (!files.every((f) => f.viewerStatus === 'ready'))
      throw new Error(`viewer preparation: ${files.map((f) => `${f.name} ${f.viewerStatus}`).join(', ')}`);

    server = await staticServer(www);
    const baselineOrigin = `http://127.0.0.1:${server.address().port}`;
    browser = await launchChromium();

    const openApp = async (page) => {
      await signInPage(page, portal.origin);
      await page.goto(`${portal.origin}/case-management/detail/${caseCode}`);
      await page.waitForSelector('[data-testid=file-view-models]');
      await sleep(500);
    };
    const rows = [];
    let size = null;
    for (const condition of CONDITIONS) {
      const app = await measure(browser, {
        condition,
        prepare: openApp,
        clickSelector: '[data-testid=file-view-models]',
        isModelRequest: (u) => u.includes('/api/v2/file/'),
        // Both meshes handed to three.js (the worker has fetched and decoded both), or an error shown.
        isComplete: () => {
          const added = performance.getEntriesByName('viewer:addMesh');
          if (added.length >= 2) return added[1].startTime + added[1].duration;
          return document.querySelector('[data-testid=viewer-error]') ? performance.now() : false;
        },
      });
      size ??= app.canvas;
      const base = await measure(browser, {
        condition,
        prepare: async (page) => {
          await page.goto(`${baselineOrigin}/viewer-baseline.html?w=${size?.[0] ?? 1052}&h=${size?.[1] ?? 468}`);
          await page.waitForFunction(() => window.__baselineReady === true);
        },
        clickSelector: '[data-testid=baseline-open]',
        isModelRequest: (u) => u.includes('/files/'),
        isComplete: () => window.__baselineDone ?? (window.__baselineError ? performance.now() : false),
      });
      const kinds = app.files
        .filter((f) => !f.url.includes('downloadGrant'))
        .map((f) => (f.url.includes('/file/viewer/') ? 'compact' : 'original'));
      console.error(
        `[viewer] ${condition.name}: app ${JSON.stringify({ ...app, files: app.files.map((f) => [f.url.replace(/\?.*/, '').replace(/.*\/api\/v2\//, ''), f.bytes, Math.round(f.timing.responseEnd - f.timing.requestStart)]) })}`,
      );
      console.error(
        `[viewer] ${condition.name}: baseline ${JSON.stringify({ ...base, files: base.files.map((f) => [f.url.replace(/.*\/files\//, ''), f.bytes, Math.round(f.timing.responseEnd - f.timing.requestStart)]) })}`,
      );
      const share = app.bytes / base.bytes;
      const speedup = base.firstFrame / app.firstFrame;
      const soft = [
        app.software
          ? 'Chromium renders with SwiftShader (no GPU): drawing 1M triangles and synchronous GL calls wait on a software rasteriser, so first-frame and block figures are pessimistic'
          : '',
        app.longestProbe >= 40 || base.longestProbe >= 40
          ? `pixel read-backs of up to ${app.longestProbe.toFixed(0)} ms (app) / ${base.longestProbe.toFixed(0)} ms (baseline) were the probe's own and not counted`
          : '',
      ]
        .filter(Boolean)
        .map((s) => `; ${s}`)
        .join('');
      rows.push([
        `viewer: open 1M-tri STL + 500k-vert PLY (${fmtMB(originalBytes)}), ${condition.name}`,
        `${fmtMB(app.bytes)} (${kinds.join('+') || 'none'}), first frame ${app.firstFrame.toFixed(2)} s, both meshes ${app.complete.toFixed(2)} s, longest block ${app.longest.toFixed(0)} ms`,
        `plain three.js: ${fmtMB(base.bytes)}, first frame ${base.firstFrame.toFixed(2)} s, longest block ${base.longest.toFixed(0)} ms`,
        [
          `bytes ${(share * 100).toFixed(1)}% of original ${share <= 0.1 ? 'met' : 'MISSED'} (goal ≤ 10%)`,
          `first frame ${speedup.toFixed(1)}× sooner ${speedup >= condition.goal ? 'met' : 'MISSED'} (goal ≥ ${condition.goal}×)`,
          `longest block ${app.longest <= 50 ? 'met' : 'MISSED'} (goal ≤ 50 ms)${soft}`,
        ].join('; '),
      ]);
    }
    rows.push([
      'viewer: server-side compact preparation of the two files',
      `${prepareSeconds.toFixed(1)} s after upload`,
      '—',
      'info (background job)',
    ]);
    return rows;
  } finally {
    await browser?.close().catch(() => {});
    if (server)
      await new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      });
    if (portal) {
      await stop(portal.child);
      rmSync(portal.dataDir, { recursive: true, force: true });
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}
