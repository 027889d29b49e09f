import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, newPage, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('partners', () => {
  it('a clinic adds a laboratory by its invitation code, the laboratory accepts, both see the partnership', async () => {
    const lab = await newPage(browser);
    await signIn(lab.page, 'lab');
    await lab.page.getByTestId('layout-sidebar').waitFor();
    await lab.page.goto('/own-space');
    const invitationCode = (await lab.page.getByTestId('own-invitation-code').innerText()).trim();
    expect(invitationCode).toMatch(/^[0-9A-F]{10}$/);

    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.getByTestId('menu-partners').click();
    await clinic.page.getByTestId('partner-add').click();
    await clinic.page.getByTestId('partner-add-code').fill(invitationCode);
    await clinic.page.getByTestId('partner-add-check').click();
    await clinic.page.getByTestId('partner-add-found').getByTestId('partner-add-apply').click();
    await clinic.page.getByTestId('partner-tab-toConfirm').click();
    await clinic.page.locator('[data-testid^="partner-row-"]').first().waitFor();

    await lab.page.getByTestId('menu-customers').click();
    await lab.page.getByTestId('partner-tab-toConfirm').click();
    const row = lab.page.locator('[data-testid^="partner-row-"]').first();
    await row.getByTestId('partner-accept').click();
    await row.waitFor({ state: 'detached' });
    await lab.page.getByTestId('partner-tab-mine').click();
    await lab.page.locator('[data-testid^="partner-row-"]').first().waitFor();

    await clinic.page.reload();
    await clinic.page.getByTestId('partner-tab-mine').click();
    const mine = clinic.page.locator('[data-testid^="partner-row-"]').first();
    await mine.waitFor();
    expect(await mine.innerText()).toContain('Precision Dental Lab');
    await lab.context.close();
    await clinic.context.close();
  });

  it('tells a dealer that only clinic and laboratory administrators manage partners', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'dealer');
    await page.getByTestId('layout-sidebar').waitFor();
    expect(await page.getByTestId('menu-partners').count()).toBe(0);
    await page.goto('/partner-management');
    await page.getByTestId('no-permission').waitFor();
    await context.close();
  });
});
