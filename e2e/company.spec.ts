import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, confirmFromMailbox, launch, newPage, PASSWORD, register, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Picks an option of a searchable select by typing part of its name. */
async function pick(page: Page, testId: string, typed: string, option: string) {
  const select = page.getByTestId(testId);
  await select.click();
  await select.locator('input').fill(typed);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

describe('a clinic’s own organization', () => {
  it('picks its address country → state → city and sees it saved; the administrator closes the account and is signed out', async () => {
    const stamp = Date.now().toString(36);
    const org = `Sourire ${stamp}`;
    const account = `sourire${stamp}`;
    const email = `sourire-${stamp}@example.test`;
    const { page } = await newPage(browser);
    await register(page, 'clinic', { org, account, email });
    await confirmFromMailbox(page, email);
    await signIn(page, account);
    await page.getByTestId('layout-sidebar').waitFor();

    await page.goto('/own-space?tab=organization');
    await page.getByTestId('own-company').waitFor();
    await expect.poll(() => page.getByTestId('company-name').inputValue()).toBe(org);
    await pick(page, 'company-country', 'Fran', 'France');
    await pick(page, 'company-state', 'de-France', 'Île-de-France');
    await pick(page, 'company-city', 'Paris', 'Paris');
    await page.getByTestId('company-postalCode').fill('75011');
    await page.getByTestId('company-address').fill('12 rue Oberkampf');
    await page.getByTestId('company-save').click();
    await page.locator('.ant-message-success').waitFor();

    // Saved: the server answers it, and the page shows it again after a reload.
    const token = await apiLogin(account);
    const info = (await api('company/companyInfo', {}, token)).data;
    expect(info).toMatchObject({
      countryId: 'FR',
      country: 'France',
      stateId: 'FR-IDF',
      cityId: 'FR-75C',
      city: 'Paris',
      postalCode: '75011',
    });
    await page.reload();
    await page.getByTestId('company-city').getByText('Paris').waitFor();
    await page.getByTestId('company-state').getByText('Île-de-France').waitFor();

    // Closing: the name typed again (the button stays off until it matches), then the password.
    await page.getByTestId('company-close-open').click();
    const confirm = page.getByTestId('company-close-confirm');
    await page.getByTestId('company-close-name').fill('Sourire');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('company-close-name').fill(org);
    await confirm.click();
    await page.getByTestId('password-prompt-input').fill(PASSWORD);
    await page.getByTestId('password-prompt-ok').click();
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-error').waitFor();

    // Everyone is out: the other session too, and signing in is refused.
    expect((await api('user/info', {}, token)).code).toBe(402);
    expect((await api('login', { account, password: PASSWORD })).code).toBe(2082);
  }, 120_000);
});
