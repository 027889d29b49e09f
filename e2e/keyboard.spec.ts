import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, PASSWORD } from './support.js';

/**
 * The main journey by keyboard alone: sign in, open a case, view its scans in 3D, send it to a laboratory. Every step
 * is reached with Tab (and Shift+Tab) and done with Enter, Space, Escape, arrows and typing; the mouse is never used.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Presses Tab until the focused element matches `selector` (within `max` presses) and says how many it took. */
async function tabTo(page: Page, selector: string, max = 150): Promise<number> {
  for (let presses = 0; presses <= max; presses++) {
    const there = await page.evaluate(
      (s) => Boolean(document.activeElement?.matches(s) || document.activeElement?.closest(s)),
      selector,
    );
    if (there) return presses;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} was not reached within ${max} presses of Tab`);
}

/** In an open select (focused), moves with the arrow keys to the option holding `text` and chooses it. */
async function chooseOption(page: Page, text: string) {
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 60; i++) {
    const active = await page.evaluate(
      () =>
        document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-active')
          ?.textContent,
    );
    if (active?.trim() === text) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no option "${text}" reached with the arrow keys`);
}

describe('by keyboard alone', () => {
  it('signs in, opens a case, views its scans in 3D and sends it to the laboratory', async () => {
    const stamp = Date.now().toString(36);
    const token = await apiLogin('clinic');
    const labToken = await apiLogin('lab');
    const labName = (await api('user/info', {}, labToken)).data.organization.name as string;
    // A case with scans: the demo clinic's case the scanner uploaded, found by its patient.
    const demo = await api('case/list', { pageSize: 50, keyword: 'Emma Schmidt' }, token);
    const scanned = (demo.data.list as Array<{ caseCode: string; name: string; fileCount: number }>).find(
      (c) => c.fileCount > 0,
    )!;
    const patient = `Keyboard ${stamp}`;
    await api('case/create', { name: 'Crown 16', patientName: patient, treatments: ['Crown'] }, token);

    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await tabTo(page, '[data-testid="login-account"]');
    await page.keyboard.type('clinic');
    await tabTo(page, '[data-testid="login-password"]');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByTestId('layout-sidebar').waitFor();

    // The case list from the menu, then the scanned case by its name.
    await tabTo(page, '[data-testid="menu-cases"]');
    await page.keyboard.press('Enter');
    await page.getByTestId('case-list').waitFor();
    await tabTo(page, `[data-testid="case-link-${scanned.caseCode}"]`, 150);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/case-management/detail/${scanned.caseCode}`));

    // Its scans in 3D, then back with Escape.
    await page.locator('[data-testid^="file-open-"]:not([disabled])').first().waitFor();
    await tabTo(page, '[data-testid^="file-open-"]:not([disabled])', 150);
    await page.keyboard.press('Enter');
    await page.getByTestId('viewer-canvas').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('viewer-canvas').waitFor({ state: 'detached' });

    // The new case through the list's search, then "Send to lab".
    await tabTo(page, '[data-testid="menu-cases"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '[data-testid="case-search"]');
    await page.keyboard.type(patient);
    await page.keyboard.press('Enter');
    const link = page.locator('[data-testid^="case-link-"]', { hasText: 'Crown 16' });
    await page.locator('[data-testid="case-list"] tbody tr', { hasText: patient }).waitFor();
    const caseCode = (await link.first().getAttribute('data-testid'))!.replace('case-link-', '');
    await tabTo(page, `[data-testid="case-link-${caseCode}"]`, 150);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/case-management/detail/${caseCode}`));
    await tabTo(page, '[data-testid="send-to-lab"]', 150);
    await page.keyboard.press('Enter');
    await page.getByTestId('send-dialog').waitFor();

    // The laboratory (preselected when it is the only one), tooth 16 read from the case's name, shade A2.
    const chosen = await page.getByTestId('send-lab').innerText();
    if (!chosen.includes(labName)) {
      await tabTo(page, '[data-testid="send-lab"]');
      await chooseOption(page, labName);
    }
    await page.getByTestId('tooth-16').and(page.locator('[data-state]')).waitFor();
    await tabTo(page, '[data-testid="tooth-16-shade"]', 200);
    await chooseOption(page, 'A2');
    await page.getByTestId('tooth-16-shade').getByText('A2', { exact: true }).waitFor();
    await tabTo(page, '[data-testid="send-submit"]', 200);
    await page.keyboard.press('Enter');
    await page.getByTestId('send-done').waitFor();

    // The order exists, for that laboratory, with tooth 16 in A2.
    const orders = await api('order/list', { pageSize: 50 }, token);
    const order = (orders.data.list as Array<{ orderCode: string; caseCode: string; lab: { name: string } }>).find(
      (o) => o.caseCode === caseCode,
    )!;
    expect(order.lab.name).toBe(labName);
    const detail = await api('order/detail', { orderCode: order.orderCode }, token);
    expect(detail.data.teeth).toEqual([expect.objectContaining({ number: 16, shade: 'A2' })]);
    await context.close();
  }, 180_000);
});
