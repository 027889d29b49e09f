import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, joinAsLab, launch, mailedLink, newPage, signIn, pickOption as pick } from './support.js';

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

/** Runs a batch action on the order list for the given orders and waits until every row shows the status. */
async function batch(page: Page, orderCodes: string[], action: string, status: string, fill?: () => Promise<void>) {
  for (const code of orderCodes) await page.getByTestId(`order-row-${code}`).locator('input[type="checkbox"]').check();
  await page.getByTestId(`orders-batch-${action}`).click();
  if (fill) await fill();
  for (const code of orderCodes) {
    await page
      .getByTestId(`order-row-${code}`)
      .locator(`[data-testid="order-status"][data-status="${status}"]`)
      .waitFor();
  }
}

describe('a clinic and a laboratory', () => {
  it('find each other by email, exchange two orders from prescription to delivery, talk about them, and see them on their dashboards', async () => {
    const stamp = Date.now().toString(36);
    const f = { org: `Summit Dental Lab ${stamp}`, account: `summit${stamp}`, email: `summit-${stamp}@example.test` };

    // The clinic invites a laboratory that is not registered yet.
    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.getByTestId('menu-partners').click();
    await clinic.page.getByTestId('partner-invite').click();
    await clinic.page.getByTestId('partner-invite-email').fill(f.email);
    await clinic.page.getByTestId('partner-invite-submit').click();
    const link = new URL(await mailedLink(clinic.page, f.email, '/register\\?invitation='));

    // The laboratory registers through the link, confirms its address, is approved, signs in and confirms.
    const lab = await newPage(browser);
    await joinAsLab(lab.page, f, `${link.pathname}${link.search}`);
    await lab.page.getByTestId('partner-confirm-invitation').click();
    await lab.page.getByTestId('partner-invitation-confirmed').waitFor();

    // The clinic sends two new cases as one batch, with tooth items, from the case list.
    const clinicToken = await apiLogin('clinic');
    const cases: string[] = [];
    for (const name of ['Upper bridge', 'Lower crown']) {
      const made = await api('case/create', { name: `${name} ${stamp}`, patientName: `Journey ${stamp}` }, clinicToken);
      cases.push(made.data.caseCode);
    }
    await clinic.page.goto('/');
    const completedBefore = await stat(clinic.page, 'completed');
    await clinic.page.getByTestId('menu-cases').click();
    await clinic.page.getByTestId('case-search').fill(`Journey ${stamp}`);
    await clinic.page.getByTestId('case-search').press('Enter');
    for (const code of cases)
      await clinic.page.getByTestId(`case-row-${code}`).locator('input[type="checkbox"]').check();
    await clinic.page.getByTestId('send-to-lab').click();
    await clinic.page.getByTestId('send-dialog').waitFor();
    await pick(clinic.page, 'send-lab', f.org);
    await pick(clinic.page, 'send-order-type', 'Restoration');
    await pick(clinic.page, 'send-work-types', 'Crown');
    await clinic.page.keyboard.press('Escape');
    await clinic.page.getByTestId('tooth-16').click();
    await clinic.page.getByTestId('tooth-26').click();
    await pick(clinic.page, 'tooth-16-shade', 'A2');
    await clinic.page.getByTestId('tooth-16-material').fill('Zirconia');
    await pick(clinic.page, 'tooth-26-shade', 'A3');
    await clinic.page.getByTestId('send-submit').click();
    await clinic.page.getByTestId('send-done').waitFor();
    await clinic.page.getByTestId('send-open-list').click();
    await clinic.page.getByTestId('orders-table').waitFor();
    const orders = await api('order/list', { pageNum: 1, pageSize: 50 }, clinicToken);
    const sent = orders.data.list.filter((o: { caseCode: string }) => cases.includes(o.caseCode));
    expect(sent).toHaveLength(2);
    const codes = sent.map((o: { orderCode: string }) => o.orderCode) as string[];
    const prescription = (await api('order/detail', { orderCode: codes[0] }, clinicToken)).data;
    expect(prescription).toMatchObject({ orderType: 'restoration', workTypes: ['Crown'], sharePatientName: true });
    expect(prescription.teeth).toEqual([
      expect.objectContaining({ number: 16, shade: 'A2', material: 'Zirconia' }),
      expect.objectContaining({ number: 26, shade: 'A3' }),
    ]);

    // The laboratory accepts, starts, marks ready and ships both with a tracking number.
    await lab.page.goto('/');
    await lab.page.getByTestId('menu-orders').click();
    await lab.page.getByTestId('orders-table').waitFor();
    await batch(lab.page, codes, 'accept', 'accepted', () => lab.page.getByTestId('order-accept-confirm').click());
    await batch(lab.page, codes, 'startProcessing', 'accepted');
    // Still accepted, now in production: the next batch waits for that, not only for the status.
    for (const code of codes)
      await lab.page
        .getByTestId(`order-row-${code}`)
        .locator('[data-testid="order-status"][data-processing="true"]')
        .waitFor();
    await batch(lab.page, codes, 'ready', 'ready');
    await batch(lab.page, codes, 'ship', 'shipped', async () => {
      await lab.page.getByTestId('ship-tracking').fill(`DHL-${stamp}`);
      await lab.page.getByTestId('ship-confirm').click();
    });

    // The clinic sees it shipped, with its tooth items and the tracking number, and writes to the lab.
    await clinic.page.goto(`/order-management/detail/${codes[0]}`);
    await clinic.page.getByTestId('order-detail').waitFor();
    await clinic.page.getByTestId('order-tracking').getByText(`DHL-${stamp}`).waitFor();
    expect(await clinic.page.getByTestId('order-status').first().getAttribute('data-status')).toBe('shipped');
    expect(await clinic.page.getByTestId('tooth-chart').count()).toBeGreaterThan(0);
    await clinic.page.getByTestId('thread-input').fill('Arrived safely, thank you. Shade looks right.');
    await clinic.page.getByTestId('thread-send').click();
    await clinic.page.getByTestId('thread-message').getByText('Arrived safely').waitFor();

    // The laboratory is told (the bell counts it), reads and answers.
    await lab.page.reload();
    await lab.page.getByTestId('notification-count').waitFor();
    await lab.page.goto(`/order-management/detail/${codes[0]}`);
    await lab.page.getByTestId('thread-message').getByText('Arrived safely').waitFor();
    await lab.page.getByTestId('thread-input').fill('Glad to hear it!');
    await lab.page.getByTestId('thread-send').click();
    await clinic.page.getByTestId('thread-message').getByText('Glad to hear it!').waitFor({ timeout: 20_000 });

    // The clinic completes both from the list.
    await clinic.page.goto('/order-management');
    await batch(clinic.page, codes, 'complete', 'completed', () =>
      clinic.page.getByTestId('order-complete-confirm').click(),
    );

    // Both dashboards count them.
    await clinic.page.goto('/');
    await clinic.page.getByTestId('dashboard-clinic').waitFor();
    expect(await stat(clinic.page, 'completed')).toBe(completedBefore + 2);
    await clinic.page.getByTestId('dashboard-chart-accepted').waitFor();
    await lab.page.goto('/');
    await lab.page.getByTestId('dashboard-lab').waitFor();
    expect(await stat(lab.page, 'completed')).toBe(2);
    await clinic.context.close();
    await lab.context.close();
  });
});
