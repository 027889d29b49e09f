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
    // What the server counts for the demo dealer: the twelve demo scanners it distributes (seed and demo scans).
    const figures = (await api('dashboard/devices', { period: '30d' }, await apiLogin('dealer'))).data;
    expect(figures.total).toBe(12);

    const { page, context } = await newPage(browser);
    await signIn(page, 'dealer');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('menu-dashboard').click();
    await page.getByTestId('dashboard-dealer').waitFor();
    // The welcome card stays above the figures.
    await page.getByTestId('dashboard-generic').waitFor();
    expect(await stat(page, 'total')).toBe(12);
    expect(await stat(page, 'activatedThisMonth')).toBe(figures.activatedThisMonth);
    expect(await stat(page, 'warrantyEndingSoon')).toBe(figures.warrantyEndingSoon);
    expect(await stat(page, 'lowBattery')).toBe(figures.lowBattery);
    expect(await stat(page, 'clinicsServed')).toBe(figures.clinicsServed);
    expect(await page.getByTestId('dashboard-stat-importedThisMonth').count()).toBe(0);
    // The demo's scanners keep transferring (Activated → DataTransferring → DataTransferred): those counts move while
    // the test runs; the others stay put. Every scanner has one status.
    let byStatus = 0;
    for (const status of ['Activated', 'DataTransferring', 'DataTransferred', 'InActiveted', 'Disabled', 'Canceled']) {
      const n = await stat(page, `status-${status}`);
      if (['InActiveted', 'Disabled', 'Canceled'].includes(status))
        expect(n, status).toBe(statusCount(figures, status));
      byStatus += n;
    }
    expect(byStatus).toBe(12);
    let byLimit = 0;
    for (const limit of [1, 2, 3]) byLimit += await stat(page, `limit-${limit}`);
    expect(byLimit).toBe(12);
    // Activations per day, over the period the selector picks.
    await page.getByTestId('dashboard-chart-activations').locator('[data-testid="trend-line"]').waitFor();
    const total90 = (await api('dashboard/devices', { period: '90d' }, await apiLogin('dealer'))).data.activations
      .total;
    await page.getByTestId('dashboard-period-90d').click();
    await expect
      .poll(() => page.getByTestId('dashboard-chart-activations-total').getAttribute('data-total'))
      .toBe(String(total90));

    // A figure opens the scanner list filtered as it counts: the filter in the address and on screen, and only the
    // disabled scanners listed, as many as the figure says.
    await page.getByTestId('dashboard-link-status-Disabled').click();
    await page.waitForURL((url) => url.pathname === '/own-space');
    expect(new URL(page.url()).searchParams.get('device.status')).toBe('Disabled');
    await page.getByTestId('device-panel').waitFor();
    await expect(page.getByTestId('device-filter-status').innerText()).resolves.toContain('Disabled');
    const rows = page.locator('[data-testid^="device-row-"]');
    await expect.poll(() => rows.count()).toBe(statusCount(figures, 'Disabled'));
    expect(statusCount(figures, 'Disabled')).toBeGreaterThan(0);
    expect(await rows.locator('.ant-tag').getByText('Disabled', { exact: true }).count()).toBe(await rows.count());

    // Clearing the filter lists the dealer's twelve scanners again (ten a page).
    await page.getByTestId('device-filter-status').hover();
    await page.getByTestId('device-filter-status').locator('.ant-select-clear').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('device.status')).toBeNull();
    await expect.poll(() => rows.count()).toBe(10);

    // The battery figure: the scanners below 80 %, each showing it.
    await page.goBack();
    await page.getByTestId('dashboard-dealer').waitFor();
    await page.getByTestId('dashboard-link-lowBattery').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('device.lowBattery')).toBe('true');
    expect(figures.lowBattery).toBeGreaterThan(0);
    await expect.poll(() => rows.count()).toBe(Math.min(10, figures.lowBattery));
    await context.close();
  });

  it('the demo OEM sees all its scanners, its dealer’s included, and this month’s imports', async () => {
    const figures = (await api('dashboard/devices', {}, await apiLogin('oem'))).data;
    const { page, context } = await newPage(browser);
    await signIn(page, 'oem');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('menu-dashboard').click();
    await page.getByTestId('dashboard-oem').waitFor();
    expect(await stat(page, 'total')).toBe(figures.total);
    expect(figures.total).toBeGreaterThanOrEqual(12);
    expect(await stat(page, 'importedThisMonth')).toBe(figures.importedThisMonth);
    expect(await page.getByTestId('dashboard-stat-clinicsServed').count()).toBe(0);
    // This month's imports open the scanners added this month.
    await page.getByTestId('dashboard-link-importedThisMonth').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('device.addedThisMonth')).toBe('true');
    await expect
      .poll(() => page.locator('[data-testid^="device-row-"]').count())
      .toBe(Math.min(10, figures.importedThisMonth));
    await context.close();
  });
});
