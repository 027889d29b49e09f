import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haproxyInstalled, startCluster, type Cluster } from '../scripts/cluster-lib.mjs';
import { PASSWORD, launch, newPage, signIn } from './support.js';

/**
 * A browser on a site of two processes behind HAProxy (docs/operations.md, "Several processes behind a balancer"):
 * signed in through the balancer, it stays signed in while each process is restarted in turn and while one is killed,
 * never sees a 502 or 503, and the live updates of a change made through either process reach its open screen.
 */
let cluster: Cluster | undefined;
let browser: Browser;

beforeAll(async () => {
  if (!haproxyInstalled()) return;
  cluster = await startCluster({
    database: 'portal_cluster_e2e',
    dropDatabaseOnStop: true,
    env: { LOGIN_RATE_LIMIT_PER_MINUTE: '500' },
  });
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await cluster?.stop();
});

async function call(path: string, body: Record<string, unknown>, token?: string) {
  const res = await fetch(`${cluster!.url}/api/v2/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}

/** The API answers the page got that would sign a user out or fail a screen: 401, 502, 503. */
function watchFailures(page: Page) {
  const seen: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/v2/') && [401, 502, 503].includes(r.status())) seen.push(`${r.status()} ${r.url()}`);
  });
  return seen;
}

const liveUp = (page: Page) => page.locator('[data-testid="layout-header"][data-live="up"]').waitFor();

describe.runIf(haproxyInstalled())('the site behind its balancer', () => {
  it('keeps a browser signed in through a rolling restart and a kill -9, with live updates from either process', async () => {
    const { context, page } = await newPage(browser, cluster!.url);
    const failures = watchFailures(page);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/case-management');
    await page.locator('[data-testid^="case-link-"]').first().waitFor();
    await liveUp(page);
    const login = await call('login', { account: 'clinic', password: PASSWORD, saveLogin: true });
    const token = login.data.accessToken as string;

    // Each process in turn: stopped, started again; the open list is told of a case made meanwhile.
    for (const i of [0, 1]) {
      await cluster!.restart(i);
      const name = `Rolling ${i} ${Date.now().toString(36)}`;
      expect((await call('case/create', { name, patientName: 'Rolling Restart' }, token)).code).toBe(200);
      await expect.poll(() => page.getByText(name).count(), { timeout: 30_000, intervals: [500] }).toBeGreaterThan(0);
    }

    // A process killed outright: the next screen and its calls are served by the other.
    await cluster!.kill(0);
    await page.getByTestId('layout-sidebar').getByText('Orders').click();
    await page.waitForURL(/\/order-management/);
    await page.getByTestId('layout-sidebar').waitFor();
    const name = `After kill ${Date.now().toString(36)}`;
    expect((await call('case/create', { name, patientName: 'Rolling Restart' }, token)).code).toBe(200);
    await page.goto('/case-management');
    await expect.poll(() => page.getByText(name).count(), { timeout: 30_000, intervals: [500] }).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).not.toBe('/login');
    expect(failures).toEqual([]);

    await cluster!.restart(0);
    await context.close();
  }, 180_000);
});
