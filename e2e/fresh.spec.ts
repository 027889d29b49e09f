import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, demoOrder, launch, newPage, pickOption, signIn } from './support.js';

/** The order and case pages ask the server again this often while open (apps/web/src/lib/freshness.ts). */
const DETAIL_POLL_MS = 10_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The number a dashboard statistic shows. */
async function stat(page: Page, key: string) {
  const el = page.getByTestId(`dashboard-stat-${key}`);
  await el.waitFor();
  return Number((await el.innerText()).replace(/\D/g, ''));
}

/** The order page once it shows this status. */
const orderShows = (page: Page, status: string, timeout?: number) =>
  page.locator(`[data-testid="order-detail"][data-status="${status}"]`).waitFor({ timeout });

describe('a clinic and its laboratory side by side', () => {
  it('the clinic sees the laboratory move its order without reloading: no Cancel once accepted, fresh dashboard counts', async () => {
    const stamp = Date.now().toString(36);
    const { labToken, caseCode, orderCode } = await demoOrder({
      caseName: `Onlay ${stamp}`,
      patientName: `Fresh ${stamp}`,
      tooth: 26,
      workType: 'Inlay',
    });

    // The clinic reads its dashboard, then opens the order from it.
    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('dashboard-clinic').waitFor();
    await clinic.page.getByTestId(`dashboard-case-${caseCode}`).locator('[data-status="sent"]').waitFor();
    const before = {
      pending: await stat(clinic.page, 'pending'),
      shipped: await stat(clinic.page, 'shipped'),
      completed: await stat(clinic.page, 'completed'),
    };
    await clinic.page.getByTestId(`dashboard-order-${orderCode}`).getByRole('link', { name: orderCode }).click();
    await orderShows(clinic.page, 'pending');
    await clinic.page.locator('[data-testid="order-action-cancel"]:not([disabled])').waitFor();

    // The laboratory accepts it on its own screen.
    const lab = await newPage(browser);
    await signIn(lab.page, 'lab');
    await lab.page.getByTestId('layout-sidebar').waitFor();
    await lab.page.goto(`/order-management/detail/${orderCode}`);
    await lab.page.locator('[data-testid="order-action-accept"]:not([disabled])').click();
    await lab.page.getByTestId('order-accept-confirm').click();
    await orderShows(lab.page, 'accepted');

    // The clinic's window gets the focus back: the order is asked again at once, well before its next poll.
    const focused = Date.now();
    await clinic.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await orderShows(clinic.page, 'accepted', DETAIL_POLL_MS / 2);
    expect(Date.now() - focused).toBeLessThan(DETAIL_POLL_MS / 2);
    expect(await clinic.page.getByTestId('order-action-cancel').count()).toBe(0);

    // In production, the laboratory marks the crown as in milling; the clinic's chart and table show it.
    await pickOption(lab.page, 'order-tooth-stage-26', 'Milling');
    await expect
      .poll(() => lab.page.getByTestId('tooth-26').getAttribute('data-stage'), { timeout: 10_000 })
      .toBe('milling');
    await clinic.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await clinic.page.getByTestId('order-tooth-stage-26').getByText('Milling').waitFor({ timeout: DETAIL_POLL_MS });
    expect(await clinic.page.getByTestId('tooth-26').getAttribute('data-stage')).toBe('milling');
    await clinic.page.getByTestId('tooth-chart-legend-milling').waitFor();

    // The laboratory readies and ships it; the clinic's page, left alone, shows it within one poll.
    for (const [action, extra] of [
      ['ready', {}],
      ['ship', { trackingNumber: `DHL-${stamp}` }],
    ] as const) {
      const done = await api('order/action', { orderCodes: [orderCode], action, ...extra }, labToken);
      expect(done.data.results, action).toEqual([expect.objectContaining({ ok: true })]);
    }
    await orderShows(clinic.page, 'shipped', DETAIL_POLL_MS + 3_000);
    await clinic.page.getByTestId('order-tracking').getByText(`DHL-${stamp}`).waitFor();
    expect(await clinic.page.getByTestId('order-action-cancel').count()).toBe(0);

    // Back on the dashboard seconds after its last visit: the counts and the case's status are the current ones.
    await clinic.page.getByTestId('menu-dashboard').click();
    await clinic.page.getByTestId('dashboard-clinic').waitFor();
    await expect.poll(() => stat(clinic.page, 'shipped'), { timeout: 5_000 }).toBe(before.shipped + 1);
    expect(await stat(clinic.page, 'pending')).toBe(before.pending - 1);
    await clinic.page.getByTestId(`dashboard-case-${caseCode}`).locator('[data-status="shipped"]').waitFor();

    // The clinic confirms receipt; the dashboard counts it at once.
    await clinic.page.getByTestId(`dashboard-order-${orderCode}`).getByRole('link', { name: orderCode }).click();
    await clinic.page.locator('[data-testid="order-action-complete"]:not([disabled])').click();
    await clinic.page.getByTestId('order-complete-confirm').click();
    await orderShows(clinic.page, 'completed');
    expect(
      await clinic.page.locator('[data-testid^="order-action-"]:not([data-testid="order-action-remake"])').count(),
    ).toBe(0);
    await clinic.page.getByTestId('menu-dashboard').click();
    await expect.poll(() => stat(clinic.page, 'completed'), { timeout: 5_000 }).toBe(before.completed + 1);
    expect(await stat(clinic.page, 'shipped')).toBe(before.shipped);
    await clinic.page.getByTestId(`dashboard-case-${caseCode}`).locator('[data-status="completed"]').waitFor();

    await clinic.context.close();
    await lab.context.close();
  });
});
