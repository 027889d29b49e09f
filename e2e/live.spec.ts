import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, demoOrder, launch, mailedLink, newPage, PASSWORD, signIn } from './support.js';

/**
 * Live updates in the browser (docs/architecture.md, "Live updates in the web app"): one socket per tab carries what
 * the other side does to the screens on show, in place, and nothing polls while it is up.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const WAIT = { timeout: 20_000 };
const liveUp = (page: Page) => page.locator('[data-testid="layout-header"][data-live="up"]').waitFor();

/** Counts the API calls a page makes, by path. */
function countCalls(page: Page) {
  const calls = new Map<string, number>();
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname.replace('/api/v2/', '');
    calls.set(path, (calls.get(path) ?? 0) + 1);
  });
  return (path: string) => calls.get(path) ?? 0;
}

describe('live updates', () => {
  it("the laboratory ships an order and the clinic's open order list changes that row, with no reload and no polling", async () => {
    const stamp = Date.now().toString(36);
    const { labToken, orderCode } = await demoOrder({
      caseName: `Live ${stamp}`,
      patientName: `Live ${stamp}`,
      tooth: 14,
    });
    const clinic = await newPage(browser);
    const { page } = clinic;
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/order-management');
    const row = (status: string) => page.locator(`[data-testid="order-row-${orderCode}"][data-status="${status}"]`);
    await row('pending').waitFor();
    await liveUp(page);

    // What must survive the update: the page itself (a mark a reload would lose), its address, and a half-typed text.
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 42));
    const calls = countCalls(page);

    // With the socket up, nothing polls: neither the bell's count nor the list.
    await page.waitForTimeout(3_500);
    expect(calls('msg/unreadCount')).toBe(0);
    expect(calls('order/list')).toBe(0);

    for (const [action, extra] of [
      ['accept', {}],
      ['ready', {}],
      ['ship', { trackingNumber: `LIVE-${stamp}` }],
    ] as const) {
      const done = await api('order/action', { orderCodes: [orderCode], action, ...extra }, labToken);
      expect(done.data.results, action).toEqual([expect.objectContaining({ ok: true })]);
    }
    await row('shipped').waitFor({ timeout: 8_000 });
    expect(navigations).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/order-management');
    expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(42);
    // The list is asked again because of the events (no poll runs), and the bell's count with it. The row shows the
    // event's status at once; the refetch follows within RECONCILE_SPREAD_MS, so it is waited for, not assumed.
    await expect.poll(() => calls('order/list'), WAIT).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('notification-count').getAttribute('data-count'), WAIT).not.toBeNull();
    await clinic.context.close();
  });

  it("the laboratory's message appears in the clinic's open thread, and the status on its page, while the clinic types", async () => {
    const stamp = Date.now().toString(36);
    const { labToken, orderCode } = await demoOrder({
      caseName: `Talk ${stamp}`,
      patientName: `Talk ${stamp}`,
      tooth: 15,
    });
    const { context, page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto(`/order-management/detail/${orderCode}`);
    await page.locator('[data-testid="order-detail"][data-status="pending"]').waitFor();
    await liveUp(page);
    const draft = page.getByTestId('thread-input');
    await draft.fill('Half a sentence');

    const sent = await api('msg/send', { orderCode, content: `Scan received ${stamp}`, attachmentCodes: [] }, labToken);
    expect(sent.code).toBe(200);
    await page.getByTestId('thread-message').getByText(`Scan received ${stamp}`).waitFor({ timeout: 8_000 });
    const done = await api('order/action', { orderCodes: [orderCode], action: 'accept' }, labToken);
    expect(done.data.results).toEqual([expect.objectContaining({ ok: true })]);
    // Well within the 10 s the page polled at before the socket.
    await page.locator('[data-testid="order-detail"][data-status="accepted"]').waitFor({ timeout: 8_000 });
    expect(await draft.inputValue()).toBe('Half a sentence');
    await context.close();
  });

  it('polls as before while the socket cannot connect, and stops once it can', async () => {
    const { context, page } = await newPage(browser);
    // Every attempt is refused at first (a proxy that does not pass websockets), then passed through.
    let refuse = true;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (refuse) return ws.close({ code: 1011 });
      ws.connectToServer();
    });
    const calls = countCalls(page);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    // Past the 4 s grace the bell's count is polled every 1.5 s again.
    await expect.poll(() => calls('msg/unreadCount'), WAIT).toBeGreaterThan(3);
    expect(await page.getByTestId('layout-header').getAttribute('data-live')).toBe('down');

    refuse = false;
    await liveUp(page);
    await page.waitForTimeout(2_000);
    const settled = calls('msg/unreadCount');
    await page.waitForTimeout(4_000);
    expect(calls('msg/unreadCount')).toBe(settled);
    await context.close();
  });

  it("a disabled user's socket closes and the tab goes to login by itself", async () => {
    const stamp = Date.now().toString(36);
    const account = `live${stamp}`;
    const email = `live-${stamp}@example.test`;
    const admin = await apiLogin('clinic');
    const { context, page } = await newPage(browser);
    // Added through this browser, which may then read the set-password mail in the demo mailbox.
    const res = await page.request.post('/api/v2/user/save_or_update', {
      headers: { authorization: `Bearer ${admin}` },
      data: { account, displayName: 'Liv Live', email, roleCode: 'clinic_admin' },
    });
    const saved = (await res.json()) as { code: number; data: { userCode: string } };
    expect(saved.code).toBe(200);
    const userCode = saved.data.userCode;
    const id = new URL(await mailedLink(page, email, '/set-pass/')).pathname.split('/').pop();
    expect((await api('user/forgetPassResetPass', { id, password: PASSWORD, confirmPassword: PASSWORD })).code).toBe(
      200,
    );
    await signIn(page, account);
    // A new user is asked to accept the agreements first.
    const agreements = page.getByTestId('agreements-accept');
    await agreements.or(page.getByTestId('layout-sidebar')).first().waitFor();
    if (await agreements.isVisible()) await agreements.click();
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/order-management');
    await page.getByTestId('orders-page').waitFor();
    await liveUp(page);

    expect((await api('user/checkIdentity', { password: PASSWORD }, admin)).code).toBe(200);
    expect((await api('user/disable', { userCodes: [userCode] }, admin)).code).toBe(200);
    // No click, no poll: the closed socket alone takes the tab to the login page.
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('portal.accessToken'))).toBeNull();

    expect((await api('user/delByIds', { userCodes: [userCode] }, admin)).code).toBe(200);
    await context.close();
  });
});
