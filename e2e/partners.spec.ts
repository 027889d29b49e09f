import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { joinAsLab, launch, newPage, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('partners', () => {
  it('a clinic adds a laboratory by its invitation code, the laboratory accepts, both see the partnership', async () => {
    // A laboratory new to the portal: the demo laboratory is the demo clinic's partner from the start.
    const stamp = Date.now().toString(36);
    const f = { org: `Harbor Dental Lab ${stamp}`, account: `harbor${stamp}`, email: `harbor-${stamp}@example.test` };
    const lab = await newPage(browser);
    await joinAsLab(lab.page, f);
    await lab.page.getByTestId('layout-sidebar').waitFor();
    await lab.page.goto('/own-space');
    const invitationCode = (await lab.page.getByTestId('own-invitation-code').innerText()).trim();
    expect(invitationCode).toMatch(/^[0-9A-F]{10}$/);

    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.getByTestId('menu-partners').click();
    // The demo laboratory is already there.
    await clinic.page.getByTestId('partner-tab-mine').click();
    await clinic.page.locator('[data-testid^="partner-row-"]', { hasText: 'Precision Dental Lab' }).waitFor();
    await clinic.page.getByTestId('partner-add').click();
    await clinic.page.getByTestId('partner-add-code').fill(invitationCode);
    await clinic.page.getByTestId('partner-add-check').click();
    await clinic.page.getByTestId('partner-add-found').getByTestId('partner-add-apply').click();
    await clinic.page.getByTestId('partner-tab-toConfirm').click();
    await clinic.page.locator('[data-testid^="partner-row-"]', { hasText: f.org }).waitFor();

    await lab.page.getByTestId('menu-customers').click();
    await lab.page.getByTestId('partner-tab-toConfirm').click();
    const row = lab.page.locator('[data-testid^="partner-row-"]').first();
    await row.getByTestId('partner-accept').click();
    await row.waitFor({ state: 'detached' });
    await lab.page.getByTestId('partner-tab-mine').click();
    await lab.page.locator('[data-testid^="partner-row-"]', { hasText: 'Bright Smile Dental Clinic' }).waitFor();

    await clinic.page.reload();
    await clinic.page.getByTestId('partner-tab-mine').click();
    await clinic.page.locator('[data-testid^="partner-row-"]', { hasText: f.org }).waitFor();
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
