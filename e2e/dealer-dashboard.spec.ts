import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The number a dashboard figure shows, once it shows one. */
async function stat(page: Page, key: string) {
  const el = page.getByTestId(`dashboard-stat-${key}`);
  await el.waitFor();
  return Number((await el.innerText()).replace(/\D/g, ''));
}

const statusCount = (d: { byStatus: { status: string; count: number }[] }, status: string) =>
  d.byStatus.find((r) => r.status === status)?.count ?? 0;

describe("a dealer's and an OEM's dashboards", () => {
  it('the demo dealer sees its scanners counted, and a figure opens the scanner list with its rows', async () => {
    // What the server counts for the demo dealer (seed: ten of the OEM's twelve scanners are sold through it).
    const figures = (await api('dashboard/devices', { period: '30d' }, await apiLogin('dealer'))).data;
    expect(figures.total).toBe(10);

    const { page, context } = await newPage(browser);
    await signIn(page, 'dealer');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('menu-dashboard').click();
    await page.getByTestId('dashboard-dealer').waitFor();
    // The welcome card stays above the figures.
    await page.getByTestId('dashboard-generic').waitFor();
    expect(await stat(page, 'total')).toBe(10);
    expect(await stat(page, 'activatedThisMonth')).toBe(figures.activatedThisMonth);
    expect(await stat(page, 'warrantyEndingSoon')).toBe(figures.warrantyEndingSoon);
    expect(await stat(page, 'lowBattery')).toBe(figures.lowBattery);
    expect(await stat(page, 'clinicsServed')).toBe(1);
    expect(await page.getByTestId('dashboard-stat-importedThisMonth').count()).toBe(0);
    for (const status of ['Activated', 'InActiveted', 'Disabled'])
      expect(await stat(page, `status-${status}`)).toBe(statusCount(figures, status));
    let byLimit = 0;
    for (const limit of [1, 2, 3]) byLimit += await stat(page, `limit-${limit}`);
    expect(byLimit).toBe(10);
    // Activations per day, over the period the selector picks.
    await page.getByTestId('dashboard-chart-activations').locator('[data-testid="trend-line"]').waitFor();
    await page.getByTestId('dashboard-period-90d').click();
    await expect.poll(() => page.getByTestId('dashboard-chart-activations-total').getAttribute('data-total')).toBe('6');

    // The scanner list filters by serial number or name only, so a figure opens it unfiltered: the tab in the
    // address, no other parameter, and the dealer's ten scanners in it.
    await page.getByTestId('dashboard-link-status-Activated').click();
    await page.waitForURL((url) => url.pathname === '/own-space');
    expect(new URL(page.url()).search).toBe('?tab=scanners');
    await page.getByTestId('device-panel').waitFor();
    const rows = page.locator('[data-testid^="device-row-"]');
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(10);
    // Among them the activated ones the figure counted.
    const activated = rows.locator('.ant-tag').getByText('Activated', { exact: true });
    await expect.poll(() => activated.count()).toBe(statusCount(figures, 'Activated'));
    await context.close();
  });

  it('the demo OEM sees all its twelve scanners and this month’s imports', async () => {
    const figures = (await api('dashboard/devices', {}, await apiLogin('oem'))).data;
    const { page, context } = await newPage(browser);
    await signIn(page, 'oem');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('menu-dashboard').click();
    await page.getByTestId('dashboard-oem').waitFor();
    expect(await stat(page, 'total')).toBe(12);
    expect(await stat(page, 'importedThisMonth')).toBe(figures.importedThisMonth);
    expect(await page.getByTestId('dashboard-stat-clinicsServed').count()).toBe(0);
    await page.getByTestId('dashboard-link-total').click();
    await page.waitForURL((url) => url.pathname === '/own-space' && url.search === '?tab=scanners');
    await expect.poll(() => page.locator('[data-testid^="device-row-"]').count()).toBe(10);
    await context.close();
  });
});
