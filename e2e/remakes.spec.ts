import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, demoOrder, launch, newPage, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('a remake', () => {
  it('is asked by the clinic of a shipped order, linked on both timelines, and counted on the laboratory scorecard', async () => {
    const stamp = Date.now().toString(36);
    // The demo laboratory ships a new order of the demo clinic.
    const { labToken, orderCode: original } = await demoOrder({
      caseName: `Crown ${stamp}`,
      patientName: `Remake ${stamp}`,
      tooth: 21,
      shade: 'A2',
    });
    for (const [action, extra] of [
      ['accept', {}],
      ['ready', {}],
      ['ship', { trackingNumber: `TRK-${stamp}` }],
    ] as const)
      expect((await api('order/action', { orderCodes: [original], action, ...extra }, labToken)).code).toBe(200);

    // The clinic asks for the remake on the order page: reason and note in a dialog; the new order opens.
    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.goto(`/order-management/detail/${original}`);
    await clinic.page.locator('[data-testid="order-detail"][data-confirmed="true"]').waitFor();
    await clinic.page.getByTestId('order-action-remake').click();
    await clinic.page.getByTestId('remake-reason').click();
    await clinic.page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Shade' })
      .click();
    await clinic.page.getByTestId('remake-note').fill('Too bright next to 11');
    await clinic.page.getByTestId('remake-confirm').click();
    const remakeOf = clinic.page.getByTestId('order-remake-of');
    await remakeOf.waitFor();
    expect(await remakeOf.innerText()).toContain(original);
    const remake = await clinic.page.getByTestId('order-detail').getAttribute('data-order-code');
    expect(remake).not.toBe(original);
    expect(await clinic.page.getByTestId('order-detail').getAttribute('data-status')).toBe('pending');
    await clinic.page
      .locator('[data-testid="order-event"][data-action="remake"]')
      .getByRole('link', { name: original })
      .waitFor();

    // The original's timeline names the remake, for the clinic (following the link) and for the laboratory.
    await remakeOf.getByRole('link', { name: original }).click();
    await clinic.page.locator(`[data-testid="order-detail"][data-order-code="${original}"]`).waitFor();
    await clinic.page
      .locator('[data-testid="order-event"][data-action="remakeRequested"]')
      .getByRole('link', { name: remake! })
      .waitFor();
    const lab = await newPage(browser);
    await signIn(lab.page, 'lab');
    await lab.page.getByTestId('layout-sidebar').waitFor();
    await lab.page.goto(`/order-management/detail/${original}`);
    await lab.page
      .locator('[data-testid="order-event"][data-action="remakeRequested"]')
      .getByRole('link', { name: remake! })
      .click();
    await lab.page.locator(`[data-testid="order-detail"][data-order-code="${remake}"]`).waitFor();
    expect(await lab.page.getByTestId('order-remake-of').innerText()).toContain(original);

    // The laboratory's own scorecard on its dashboard counts the remake under its reason.
    await lab.page.goto('/');
    const card = lab.page.getByTestId('own-scorecard');
    await card.locator('[data-testid="scorecard-reasons"] [data-reason="shade"]').waitFor();
    await card.getByTestId('scorecard-trend').waitFor();
    expect(await card.getByTestId('scorecard-remake-rate').innerText()).toMatch(/\d+\s?%/);

    await clinic.context.close();
    await lab.context.close();
  });
});
