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

describe('a dentist prescribing', () => {
  it('sends a bridge 14–16 in VITA A2 from a case in under ten actions, and the order shows the bridge', async () => {
    const stamp = Date.now().toString(36);
    const clinicToken = await apiLogin('clinic');
    const labToken = await apiLogin('lab');
    const labName = (await api('user/info', {}, labToken)).data.organization.name as string;
    // A case of the demo clinic, as its scanner files them: a crown-and-pontic treatment, no teeth in the name.
    const made = await api(
      'case/create',
      { name: `Bridge ${stamp}`, patientName: `Nora Lind ${stamp}`, treatments: ['Crown', 'Pontic'] },
      clinicToken,
    );
    expect(made.code).toBe(200);
    const caseCode = made.data.caseCode as string;

    const { page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto(`/case-management/detail/${caseCode}`);

    // Every click and key the dentist makes, counted.
    let actions = 0;
    const act = async (step: () => Promise<unknown>) => {
      actions++;
      await step();
    };
    const option = (p: Page, label: string) =>
      p
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: label })
        .first();

    await act(() => page.getByTestId('send-to-lab').click());
    await page.getByTestId('send-dialog').waitFor();
    // The order type follows the treatments; the work types are the case's.
    await page.getByTestId('send-order-type').getByText('Restoration').waitFor();
    // The demo clinic may have more than one laboratory by now (other journeys add theirs): the dentist picks it.
    await act(() => page.getByTestId('send-lab').click());
    await act(() => option(page, labName).click());

    // Each tooth is a button named by its number: click 14, Shift-click 16, join them as a bridge.
    const chart = page.getByTestId('tooth-chart');
    await act(() => chart.getByRole('button', { name: 'Tooth 14', exact: true }).click());
    await act(() => chart.getByRole('button', { name: 'Tooth 16', exact: true }).click({ modifiers: ['Shift'] }));
    await act(() => page.getByTestId('teeth-bridge').click());
    expect(await page.getByTestId('tooth-14').getAttribute('data-state')).toBe('abutment');
    expect(await page.getByTestId('tooth-15').getAttribute('data-state')).toBe('pontic');
    expect(await page.getByTestId('tooth-16').getAttribute('data-state')).toBe('abutment');
    await page.getByTestId('bridge-16-15-14').waitFor();
    // Tooth 16 is 3 in Universal: the chart and the tooth table say which numbering they show.
    expect(await chart.getByTestId('tooth-chart-numbering').textContent()).toBe('Numbering: FDI');
    await page.getByRole('columnheader', { name: 'Tooth (FDI)' }).first().waitFor();

    // One shade for the whole bridge, from the VITA classical guide.
    await act(() => page.getByTestId('tooth-shade-all').click());
    await act(() => option(page, 'A2').click());
    await page.getByTestId('tooth-16-shade').getByText('A2', { exact: true }).waitFor({ timeout: 5000 });
    await act(() => page.getByTestId('send-submit').click());
    // Under a loaded suite the answer and the result dialog (after the send dialog left the history) may take a while.
    await page.getByTestId('send-done').getByText('Order sent', { exact: true }).waitFor({ timeout: 60_000 });
    expect(actions).toBeLessThan(10);

    await page.getByTestId('send-open-order').click();
    await page.getByTestId('order-teeth').waitFor();
    // The order shows the same drawing, read only, and the units in the table.
    expect(await page.getByTestId('tooth-15').getAttribute('data-state')).toBe('pontic');
    await page.getByTestId('bridge-16-15-14').waitFor();
    expect(await page.getByTestId('order-tooth-unit-14').innerText()).toBe('Abutment');
    expect(await page.getByTestId('order-tooth-unit-15').innerText()).toBe('Pontic');
    expect(await page.getByTestId('order-tooth-16').innerText()).toContain('A2');

    const orders = await api('order/list', { pageNum: 1, pageSize: 20 }, clinicToken);
    const order = orders.data.list.find((o: { caseCode: string }) => o.caseCode === caseCode);
    const detail = await api('order/detail', { orderCode: order.orderCode }, clinicToken);
    expect(detail.data.teeth).toEqual([
      { number: 16, unit: 'abutment', bridgeGroup: 1, shade: 'A2' },
      { number: 15, unit: 'pontic', bridgeGroup: 1, shade: 'A2' },
      { number: 14, unit: 'abutment', bridgeGroup: 1, shade: 'A2' },
    ]);

    // On a phone the order page, chart included, fits the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('tooth-chart').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 })
      .toBeLessThanOrEqual(390);
  });
});
