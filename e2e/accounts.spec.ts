import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  api,
  apiLogin,
  demoOrder,
  joinAsLab,
  launch,
  mailedLink,
  newPage,
  openSubmenuScreen,
  PASSWORD,
  signIn,
} from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The laboratory's side tells the menu changed: the app fetches its menu again when the tab becomes visible. */
async function tabBecomesVisible(page: Page) {
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
}

async function openAccountScreen(page: Page, menu: 'users' | 'roles') {
  await openSubmenuScreen(page, 'account', menu, `**/account/${menu}`);
}

/** Ticks or unticks entries of the role menu tree and saves. */
async function setRoleMenus(page: Page, roleName: string, tick: string[]) {
  await page.getByTestId('role-list').waitFor();
  // Other specs add roles to the same laboratory: the list is searched, as a person with many roles would.
  const search = page.getByTestId('role-list').locator('.ant-input-search input');
  await search.fill(roleName);
  await search.press('Enter');
  const row = page.locator('[data-testid^="role-row-"]', { hasText: roleName });
  await row.locator('[data-testid^="role-menus-"]').click();
  await page.getByTestId('role-menu-tree').waitFor();
  for (const code of tick) {
    await page
      .locator('.ant-tree-treenode', { has: page.getByTestId(`role-menu-${code}`) })
      .locator('.ant-tree-checkbox')
      .first()
      .click();
  }
  await page.getByTestId('role-menus-save').click();
  await page.getByTestId('role-menu-tree').waitFor({ state: 'detached' });
}

describe('a laboratory administrator', () => {
  it('adds a user with a role of its own; the user gets exactly its buttons, a wider role at once, and is signed out when disabled', async () => {
    const stamp = Date.now().toString(36);
    const roleName = `Packer ${stamp}`;
    const account = `packer${stamp}`;
    const email = `packer-${stamp}@example.test`;

    // An order ready to ship at the demo laboratory.
    const { labToken, orderCode } = await demoOrder({
      caseName: `Crown ${stamp}`,
      patientName: `Packer ${stamp}`,
      tooth: 16,
      shade: 'A2',
    });
    for (const action of ['accept', 'ready']) {
      const done = await api('order/action', { orderCodes: [orderCode], action }, labToken);
      expect(done.data.results).toEqual([expect.objectContaining({ ok: true })]);
    }

    // The administrator makes a role that accepts and produces, but does not ship.
    const admin = await newPage(browser);
    await signIn(admin.page, 'lab');
    await admin.page.getByTestId('layout-sidebar').waitFor();
    await openAccountScreen(admin.page, 'roles');
    await admin.page.getByTestId('role-add').click();
    await admin.page.getByTestId('role-name').fill(roleName);
    await admin.page.getByTestId('role-name-save').click();
    await setRoleMenus(admin.page, roleName, ['orders.accept', 'orders.produce', 'orderDetail']);

    // … and adds a user with it.
    await openAccountScreen(admin.page, 'users');
    await admin.page.getByTestId('user-add').click();
    await admin.page.getByTestId('user-form-account').fill(account);
    await admin.page.getByTestId('user-form-name').fill('Pat Packer');
    await admin.page.getByTestId('user-form-email').fill(email);
    await admin.page.getByTestId('user-form-role').click();
    await admin.page.locator('.ant-select-item-option', { hasText: roleName }).click();
    await admin.page.getByTestId('user-form-submit').click();
    await admin.page.getByTestId(`user-row-${account}`).waitFor();

    // The user sets a password from the mail and signs in.
    const link = new URL(await mailedLink(admin.page, email, '/set-pass/'));
    const staff = await newPage(browser);
    await staff.page.goto(link.pathname);
    await staff.page.getByTestId('reset-password-new').fill('Packer#2027x');
    await staff.page.getByTestId('reset-password-confirm').fill('Packer#2027x');
    await staff.page.getByTestId('reset-submit').click();
    await staff.page.getByTestId('reset-done').waitFor();
    await signIn(staff.page, account, 'Packer#2027x');
    // A new user reads the agreements first.
    await staff.page.getByTestId('agreements-accept').click();
    await staff.page.getByTestId('layout-sidebar').waitFor();
    await staff.page.getByTestId('menu-orders').click();
    await staff.page.getByTestId(`order-row-${orderCode}`).waitFor();
    // Production buttons, no ship button; and the API refuses shipping.
    await staff.page.getByTestId('orders-batch-accept').waitFor();
    expect(await staff.page.getByTestId('orders-batch-ship').count()).toBe(0);
    const staffToken = await apiLogin(account, 'Packer#2027x');
    const refused = await api(
      'order/action',
      { orderCodes: [orderCode], action: 'ship', trackingNumber: 'T-1' },
      staffToken,
    );
    expect(refused.code).toBe(1002);

    // The administrator widens the role; the user's open tab shows the button once its menu reloads.
    await openAccountScreen(admin.page, 'roles');
    await setRoleMenus(admin.page, roleName, ['orders.ship']);
    await tabBecomesVisible(staff.page);
    await staff.page.getByTestId('orders-batch-ship').waitFor();

    // Disabled: the user's open tab goes to the login page at its next call.
    await openAccountScreen(admin.page, 'users');
    await admin.page.getByTestId(`user-actions-${account}`).click();
    await admin.page.locator('.ant-dropdown-menu-item', { hasText: 'Disable' }).click();
    await admin.page.getByTestId('user-disable-confirm').click();
    await admin.page.getByTestId('password-prompt-input').fill(PASSWORD);
    await admin.page.getByTestId('password-prompt-ok').click();
    await admin.page
      .getByTestId(`user-row-${account}`)
      .locator('[data-testid="user-status"][data-status="2"]')
      .waitFor();
    await tabBecomesVisible(staff.page);
    await staff.page.waitForURL(/\/login/);

    await admin.context.close();
    await staff.context.close();
  });
});

describe('the super administrator', () => {
  it('disables an organization: its signed-in user is sent to login and told why, until it is enabled again', async () => {
    const stamp = Date.now().toString(36);
    const f = { org: `Ridge Lab ${stamp}`, account: `ridge${stamp}`, email: `ridge-${stamp}@example.test` };
    const lab = await newPage(browser);
    await joinAsLab(lab.page, f);
    await lab.page.getByTestId('layout-sidebar').waitFor();

    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    await openSubmenuScreen(admin.page, 'account', 'organizations', '**/account/organizations');
    await admin.page.getByTestId('organization-search').locator('input').fill(f.org);
    await admin.page.getByTestId('organization-search').locator('input').press('Enter');
    const row = admin.page.locator('[data-testid^="organization-row-"]', { hasText: f.org });
    // What the laboratory entered, in its detail.
    await row.locator('[data-testid^="organization-open-"]').click();
    await admin.page.getByTestId('organization-detail').getByText('Laboratory').first().waitFor();
    await admin.page.getByTestId('organization-detail-image-license').waitFor();
    await admin.page.keyboard.press('Escape');
    await admin.page.getByTestId('organization-detail').waitFor({ state: 'hidden' });
    await row.locator('[data-testid^="organization-disable-"]').click();
    await admin.page.getByTestId('organization-disable-confirm').click();
    await admin.page.getByTestId('password-prompt-input').fill(PASSWORD);
    await admin.page.getByTestId('password-prompt-ok').click();
    await admin.page.locator('[data-testid^="organization-row-"][data-status="2"]', { hasText: f.org }).waitFor();

    // The laboratory's open tab: its next call says why and goes to the login page, where sign-in says it again.
    await lab.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await lab.page
      .getByTestId('menu-dashboard')
      .click()
      .catch(() => undefined);
    await lab.page.waitForURL(/\/login/);
    await lab.page.getByTestId('login-error').getByText('The organization has been disabled').waitFor();
    expect((await api('login', { account: f.account, password: PASSWORD })).code).toBe(1006);

    // Enabled again, it signs in.
    await row.locator('[data-testid^="organization-enable-"]').click();
    await admin.page.locator('[data-testid^="organization-row-"][data-status="1"]', { hasText: f.org }).waitFor();
    expect((await api('login', { account: f.account, password: PASSWORD })).code).toBe(200);

    await admin.context.close();
    await lab.context.close();
  });
});
