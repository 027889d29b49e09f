// Lighthouse (performance, accessibility, best practices) on the login page, the dashboard and a case detail, in
// Debian's Chromium, Lighthouse's desktop preset with its simulated throttling. Goal: each score ≥ 90. The baseline in
// the same run is Lighthouse's score of a bare static page served by the same server (the placeholder privacy page),
// which shows what this machine's load does to the performance score.
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { apiClient, CHROMIUM_ARGS, CHROMIUM_PATH, login, startPortal, waitDemoQuiet } from './portal-lib.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const GOAL = 90;

export async function lighthouseBench({ start, waitFor, stop, freePort }) {
  const portal = await startPortal({ start, waitFor, freePort });
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);
    const caseCode = (await api('case/list', { pageNum: 1, pageSize: 1 })).list[0].caseCode;
    const page = await browser.newPage();
    const audit = async (path) => {
      const result = await lighthouse(
        `${portal.origin}${path}`,
        {
          output: 'json',
          logLevel: 'error',
          onlyCategories: CATEGORIES,
          // Keeps the signed-in session between audits (the page signs in once, below).
          disableStorageReset: true,
        },
        // Lighthouse's desktop preset: its screen and user agent, and its desktop throttling (40 ms, 10 Mbit/s, CPU
        // as is). A form factor alone would keep the default phone throttling (150 ms, 1.6 Mbit/s, CPU 4× slower).
        desktopConfig,
        page,
      );
      const audits = result.lhr.audits;
      const ms = (id) => `${(audits[id].numericValue / 1000).toFixed(1)} s`;
      return {
        ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(result.lhr.categories[c].score * 100)])),
        metrics: `FCP ${ms('first-contentful-paint')}, LCP ${ms('largest-contentful-paint')}, TBT ${Math.round(audits['total-blocking-time'].numericValue)} ms, CLS ${audits['cumulative-layout-shift'].numericValue.toFixed(2)}`,
      };
    };
    const baseline = await audit('/legal/privacy.html');
    const scores = { '/login': await audit('/login') };
    // Signs in the way a person does, then audits the signed-in screens.
    await page.goto(`${portal.origin}/login`);
    await page.waitForSelector('[data-testid="login-account"]');
    await page.type('[data-testid="login-account"]', 'clinic');
    await page.type('[data-testid="login-password"]', 'Dental#2026');
    await Promise.all([page.waitForNavigation(), page.click('[data-testid="login-submit"]')]);
    scores['/dashboard'] = await audit('/dashboard');
    scores['case detail'] = await audit(`/case-management/detail/${caseCode}`);
    const fmt = (s) => `${CATEGORIES.map((c) => `${c} ${s[c]}`).join(', ')} (${s.metrics})`;
    return Object.entries(scores).map(([where, s]) => [
      `Lighthouse ${where} (desktop)`,
      fmt(s),
      `static page: ${fmt(baseline)}`,
      CATEGORIES.every((c) => s[c] >= GOAL) ? `met (goal ≥ ${GOAL} each)` : `MISSED (goal ≥ ${GOAL} each)`,
    ]);
  } finally {
    await browser.close();
    await stop(portal.child);
  }
}
