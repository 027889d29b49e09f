import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { api, apiLogin, demoOrder, launch, mailedLink, newPage, PASSWORD, signIn } from './support.js';

/**
 * Narrow roles see only what they hold (§2, §6): every screen their menu offers draws without a refused call, and no
 * guarded element of a permission they lack is on screen. Roles are made by the demo organizations' administrators.
 */
let browser: Browser;
let orderCode: string;
const stamp = Date.now().toString(36);
const NEW_PASSWORD = 'Narrow#2027x';

beforeAll(async () => {
  browser = await launch();
  orderCode = (await demoOrder({ caseName: `Role screens ${stamp}`, patientName: 'Ida Berg', tooth: 21 })).orderCode;
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A role of the administrator's organization with these menu entries, and a user holding it, made from the browser
 * behind `page` (so its demo mailbox may read the invitation); the user sets a password from the mail and signs in.
 */
async function narrowUser(page: Page, adminAccount: string, name: string, menuCodes: string[]) {
  const admin = await apiLogin(adminAccount);
  expect((await api('user/checkIdentity', { password: PASSWORD }, admin)).code).toBe(200);
  const role = await api('user/role/save_or_update', { name: `${name} ${stamp}` }, admin);
  expect(role.code).toBe(200);
  const allotted = await api('user/role/allotRolePermission', { roleCode: role.data.roleCode, menuCodes }, admin);
  expect(allotted.code).toBe(200);
  const account = `${name.toLowerCase().replace(/[^a-z]/g, '')}${stamp}`;
  const email = `${account}@example.test`;
  const saved = await page.request.post('/api/v2/user/save_or_update', {
    headers: { authorization: `Bearer ${admin}` },
    data: { account, displayName: name, email, roleCode: role.data.roleCode },
  });
  expect(((await saved.json()) as { code: number }).code).toBe(200);
  const link = new URL(await mailedLink(page, email, '/set-pass/'));
  await page.goto(link.pathname);
  await page.getByTestId('reset-password-new').fill(NEW_PASSWORD);
  await page.getByTestId('reset-password-confirm').fill(NEW_PASSWORD);
  await page.getByTestId('reset-submit').click();
  await page.getByTestId('reset-done').waitFor();
  await signIn(page, account, NEW_PASSWORD);
  // A new user reads the agreements first.
  await page.getByTestId('agreements-accept').click();
  return account;
}

/** Every API answer the page gets that refuses for want of a permission (1002, or the partner screens' own code). */
function watchRefusals(page: Page) {
  const refused: string[] = [];
  page.on('response', (res: Response) => {
    if (!res.url().includes('/api/v2/')) return;
    void res
      .json()
      .then((body: { code?: number }) => {
        if (body?.code === 1002 || res.status() === 403) refused.push(`${new URL(res.url()).pathname} ${body?.code}`);
      })
      .catch(() => {});
  });
  return refused;
}

/** The permissions the user's menu grants, as the web app gathers them. */
async function permissionsOf(account: string) {
  const token = await apiLogin(account, NEW_PASSWORD);
  const menu = await api('permission/listUserMenu', {}, token);
  const out = new Set<string>(menu.data.permissions ?? []);
  const walk = (items: Array<{ apiPermissions: string[]; children: unknown[] }>) =>
    items.forEach((i) => {
      i.apiPermissions.forEach((p) => out.add(p));
      walk(i.children as typeof items);
    });
  walk(menu.data.menus ?? menu.data);
  return out;
}

/** No guarded element of a permission the user lacks is on the page. */
async function expectOnlyHeld(page: Page, held: Set<string>, where: string) {
  const marks = await page
    .locator('[data-permission]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-permission') ?? ''));
  const lacking = marks.filter((m) => !held.has('*:*:*') && !m.split(' ').some((p) => held.has(p)));
  expect([where, lacking]).toEqual([where, []]);
}

/** Opens each screen of the sidebar (and each tab of the own space), waiting for its calls to end. */
async function visitEveryScreen(page: Page, held: Set<string>, refused: string[]) {
  await page.getByTestId('layout-sidebar').waitFor();
  const entries = await page
    .locator('[data-testid="layout-sidebar"] a[data-testid^="menu-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  expect(entries.length).toBeGreaterThan(0);
  for (const entry of entries) {
    await page.getByTestId(entry).click();
    await page.waitForLoadState('networkidle');
    await expectOnlyHeld(page, held, entry);
    if (entry === 'menu-ownSpace') {
      const tabs = await page
        .locator('[data-testid^="own-tab-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
      for (const tab of tabs) {
        await page.getByTestId(tab).click();
        await page.waitForLoadState('networkidle');
        await expectOnlyHeld(page, held, tab);
      }
    }
  }
  expect(refused).toEqual([]);
}

describe('a narrow role', () => {
  it('clinic front desk (dashboard and own space only): every screen draws without a refused call', async () => {
    const { page, context } = await newPage(browser);
    const refused = watchRefusals(page);
    const account = await narrowUser(page, 'clinic', 'Front desk', ['dashboard', 'ownSpace']);
    const held = await permissionsOf(account);
    expect(held.has('order:view')).toBe(false);
    await visitEveryScreen(page, held, refused);
    // A deep link outside the role is the no-permission page, not a screen of refused calls.
    await page.goto(`/order-management/detail/${orderCode}`);
    await page.getByTestId('no-permission').waitFor();
    await page.goto('/partner-management');
    await page.getByTestId('no-permission').waitFor();
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    // The watch sees a refused call when there is one (the partner list, which the order list asked before).
    const token = await apiLogin(account, NEW_PASSWORD);
    await page.evaluate(async (t) => {
      await fetch('/api/v2/partner/list', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
        body: JSON.stringify({ tab: 'mine' }),
      });
    }, token);
    await expect.poll(() => refused.length).toBe(1);
    await context.close();
  });

  it('laboratory order reader: lists and opens orders with the partner filter, no action, no export', async () => {
    const { page, context } = await newPage(browser);
    const refused = watchRefusals(page);
    const account = await narrowUser(page, 'lab', 'Order reader', ['orders', 'orderDetail']);
    const held = await permissionsOf(account);
    await visitEveryScreen(page, held, refused);
    await page.getByTestId('menu-orders').click();
    // The filter lists the clinics of the laboratory's orders without the customer screen.
    await page.getByTestId('orders-filter-partner').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('order-export').count()).toBe(0);
    expect(await page.locator('[data-testid^="orders-batch-"]').count()).toBe(0);
    await page.getByTestId(`order-link-${orderCode}`).click();
    await page.waitForURL(/\/order-management\/detail\//);
    await page.waitForLoadState('networkidle');
    await expectOnlyHeld(page, held, 'order detail');
    await page.goto('/case-management');
    await page.getByTestId('no-permission').waitFor();
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    await context.close();
  });

  it('clinic receiver (orders, order details, confirm receipt): the case is plain text, only its button shows', async () => {
    const { page, context } = await newPage(browser);
    const refused = watchRefusals(page);
    const account = await narrowUser(page, 'clinic', 'Receiver', ['orders', 'orderDetail', 'orders.complete']);
    const held = await permissionsOf(account);
    expect(held.has('order:complete')).toBe(true);
    await visitEveryScreen(page, held, refused);
    await page.getByTestId('menu-orders').click();
    await page.getByTestId('orders-batch-complete').waitFor();
    expect(await page.locator('[data-permission="order:complete"]').count()).toBe(1);
    expect(await page.getByTestId('order-export').count()).toBe(0);
    await page.getByTestId(`order-link-${orderCode}`).click();
    await page.waitForURL(/\/order-management\/detail\//);
    await page.waitForLoadState('networkidle');
    await expectOnlyHeld(page, held, 'order detail');
    // The role cannot open cases: the case is named, not linked.
    const kase = page.getByTestId('order-case');
    await kase.waitFor();
    expect(await kase.evaluate((e) => e.tagName)).toBe('SPAN');
    expect(refused).toEqual([]);
    await context.close();
  });

  it('a role with no menu entry at all is told it has no access and signed out', async () => {
    const { page, context } = await newPage(browser);
    await narrowUser(page, 'clinic', 'Nothing', []);
    await page.getByText("You don't have access to any page. Please contact your administrator.").waitFor();
    await page.waitForURL(/\/login/);
    await context.close();
  });
});
