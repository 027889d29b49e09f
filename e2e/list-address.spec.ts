import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, openSubmenuScreen, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const search = (page: Page) => new URL(page.url()).searchParams;

describe('lists kept in the address', () => {
  it('the user list, searched, sorted and on page 2, survives a reload and going back from another screen', async () => {
    // 21 users of the operator's own organization whose accounts share a beginning: one more than a page.
    const stamp = Date.now().toString(36);
    const token = await apiLogin('admin');
    const roles = await api('user/role/list', {}, token);
    const roleCode = (roles.data.list as Array<{ roleCode: string }>)[0]!.roleCode;
    const accounts = Array.from({ length: 21 }, (_, i) => `lst${stamp}${String(i + 1).padStart(2, '0')}`);
    for (const account of accounts) {
      const saved = await api(
        'user/save_or_update',
        { account, displayName: `Lister ${account}`, email: `${account}@example.test`, roleCode },
        token,
      );
      expect(saved.code).toBe(200);
    }

    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await page.getByTestId('layout-sidebar').waitFor();
    await openSubmenuScreen(page, 'account', 'users', '**/account/users');
    await page.getByTestId('user-list').waitFor();

    // Typing is not searching: the address changes with the search.
    const box = page.getByTestId('user-search').locator('input');
    await box.fill(`lst${stamp}`);
    expect(search(page).get('keyword')).toBeNull();
    await box.press('Enter');
    await expect.poll(() => search(page).get('keyword')).toBe(`lst${stamp}`);
    await page.locator(`[data-testid^="user-row-lst${stamp}"]`).first().waitFor();

    // By account, A to Z; the 21st is alone on page 2.
    const accountHeader = page.locator('.ant-table-thead th', { hasText: /^Account$/ });
    await accountHeader.click();
    await expect.poll(() => search(page).get('sortField')).toBe('account');
    expect(search(page).get('sortOrder')).toBe('asc');
    await page.getByTestId(`user-row-${accounts[0]}`).waitFor();
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => search(page).get('pageNum')).toBe('2');
    await page.getByTestId(`user-row-${accounts[20]}`).waitFor();
    // The search stays with the page (the address settles once the page's answer is shown); the rows settle on the
    // page's one row.
    await expect.poll(() => search(page).get('keyword')).toBe(`lst${stamp}`);
    await expect.poll(() => page.locator('[data-testid^="user-row-"]').count()).toBe(1);

    const expectPageTwo = async () => {
      await page.getByTestId(`user-row-${accounts[20]}`).waitFor();
      expect(await page.locator('[data-testid^="user-row-"]').count()).toBe(1);
      expect(await box.inputValue()).toBe(`lst${stamp}`);
      expect(await accountHeader.getAttribute('aria-sort')).toBe('ascending');
      expect(await page.locator('.ant-pagination-item-active').textContent()).toBe('2');
    };

    await page.reload();
    await expectPageTwo();

    // To another screen and back.
    await openSubmenuScreen(page, 'account', 'roles', '**/account/roles');
    await page.getByTestId('role-list').waitFor();
    await page.goBack();
    await expectPageTwo();

    // A link to a page past the end (rows removed since) opens the last page instead of an empty one.
    const pastTheEnd = new URL(page.url());
    pastTheEnd.searchParams.set('pageNum', '7');
    await page.goto(pastTheEnd.toString());
    await expectPageTwo();
    await expect.poll(() => search(page).get('pageNum')).toBe('2');

    // Searching, sorting and paging replaced the entry: one step back leaves the list.
    await page.goBack();
    await expectPageTwo();
    await page.goBack();
    await page.waitForURL((url) => url.pathname !== '/account/users');
    await context.close();
  });

  it('the scanner list keeps its search beside the own space tab, through a reload and back from another screen', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/own-space?tab=scanners');
    await page.getByTestId('device-row-SN-DEMO-0001').waitFor();

    await page.getByTestId('device-search').fill('SN-NOTHING');
    await page.getByTestId('device-search').press('Enter');
    await expect.poll(() => search(page).get('device.keyword')).toBe('SN-NOTHING');
    expect(search(page).get('tab')).toBe('scanners');
    await page.getByTestId('device-row-SN-DEMO-0001').waitFor({ state: 'detached' });

    await page.reload();
    await page.getByTestId('device-panel').waitFor();
    expect(await page.getByTestId('device-search').inputValue()).toBe('SN-NOTHING');
    await page.locator('.ant-empty').first().waitFor();
    expect(await page.getByTestId('device-row-SN-DEMO-0001').count()).toBe(0);

    await page.getByTestId('menu-partners').click();
    await page.getByTestId('partner-list').waitFor();
    await page.goBack();
    await page.getByTestId('device-panel').waitFor();
    expect(search(page).get('tab')).toBe('scanners');
    expect(await page.getByTestId('device-search').inputValue()).toBe('SN-NOTHING');

    // Cleared, the list is whole again and the address bare but for the tab.
    await page.getByTestId('device-search').fill('');
    await page.getByTestId('device-row-SN-DEMO-0001').waitFor();
    expect(new URL(page.url()).search).toBe('?tab=scanners');
    await context.close();
  });

  it('the partner list keeps its tab and search through a reload', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('menu-partners').click();
    await page.locator('[data-testid^="partner-row-"]', { hasText: 'Precision Dental Lab' }).waitFor();

    await page.getByTestId('partner-search').locator('input').fill('Precision');
    await page.getByTestId('partner-search').locator('input').press('Enter');
    await expect.poll(() => search(page).get('keyword')).toBe('Precision');
    await page.getByTestId('partner-tab-history').click();
    await expect.poll(() => search(page).get('tab')).toBe('history');

    await page.reload();
    await page.getByTestId('partner-list').waitFor();
    expect(await page.locator('.ant-tabs-tab-active').getByTestId('partner-tab-history').count()).toBe(1);
    expect(await page.getByTestId('partner-search').locator('input').inputValue()).toBe('Precision');
    await page.getByTestId('partner-tab-mine').click();
    await page.locator('[data-testid^="partner-row-"]', { hasText: 'Precision Dental Lab' }).waitFor();
    expect(search(page).get('tab')).toBeNull();
    await context.close();
  });
});
