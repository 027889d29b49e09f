import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { inject } from 'vitest';
import {
  api,
  apiLogin,
  confirmFromMailbox,
  launch,
  mailedLink,
  newPage,
  PASSWORD,
  register,
  signIn,
} from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = Date.now().toString(36);

describe('a clinic', () => {
  it('registers, confirms by mail, signs in, changes language and theme, survives an expired token, logs out', async () => {
    const { page, context } = await newPage(browser);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    const f = { org: `Smile Clinic ${stamp}`, account: `clinic${stamp}`, email: `clinic-${stamp}@example.test` };
    await register(page, 'clinic', f);
    await confirmFromMailbox(page, f.email);

    await signIn(page, f.account, PASSWORD, true);
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('layout-header').waitFor();
    await page.getByTestId('dashboard-clinic').waitFor();
    expect(await page.getByTestId('menu-dashboard').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('menu-ownSpace').count()).toBeGreaterThan(0);
    // A signed-in user opening /login goes to /.
    await page.goto('/login');
    await page.getByTestId('dashboard-clinic').waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/login');

    const english = await page.getByTestId('layout-sidebar').innerText();
    // The new language relabels the layout in place: the same sidebar element, no remount (no flicker).
    await page.evaluate(
      () => ((document.querySelector('[data-testid="layout-sidebar"]') as HTMLElement).dataset.kept = 'yes'),
    );
    await page.getByTestId('lang-switch').selectOption('de');
    await page.getByTestId('theme-switch').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.waitForFunction(
      (en) => (document.querySelector('[data-testid="layout-sidebar"]') as HTMLElement).innerText !== en,
      english,
    );
    expect(await page.getByTestId('layout-sidebar').getAttribute('data-kept')).toBe('yes');
    const german = await page.getByTestId('layout-sidebar').innerText();
    await page.reload();
    await page.getByTestId('layout-sidebar').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.getByTestId('lang-switch').inputValue()).toBe('de');
    await page.waitForFunction(
      (de) => (document.querySelector('[data-testid="layout-sidebar"]') as HTMLElement | null)?.innerText === de,
      german,
    );

    // The access token expires: the next calls refresh it without the user noticing.
    const before = await page.evaluate(() => localStorage.getItem('portal.accessToken'));
    const claims = decodeJwt(before!);
    const expired = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub!)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      .sign(new TextEncoder().encode(inject('jwtSecret')));
    await page.evaluate((t) => localStorage.setItem('portal.accessToken', t), expired);
    await page.reload();
    await page.getByTestId('dashboard-clinic').waitFor();
    const after = await page.evaluate(() => localStorage.getItem('portal.accessToken'));
    expect(after).not.toBe(expired);
    expect(new URL(page.url()).pathname).not.toBe('/login');

    const refreshToken = await page.evaluate(() => localStorage.getItem('portal.refreshToken'));
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('portal.accessToken'))).toBeFalsy();
    expect((await api('user/refresh_token', { refreshToken })).code).toBe(1013);
    // The router has what it needs on every load (it used to warn about a missing HydrateFallback each time).
    expect(warnings.filter((w) => /HydrateFallback/i.test(w))).toEqual([]);
    await context.close();
  });

  it('sees the no-permission page for a screen its menu lacks, and 404 for an unknown path', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('dashboard-clinic').waitFor();
    await page.goto('/account/organizations');
    await page.getByTestId('no-permission').waitFor();
    expect(await page.getByTestId('no-permission').innerText()).toContain(
      "You don't have permission to access this page.",
    );
    await page.goto('/no/such/screen');
    await page.getByTestId('not-found').waitFor();
    await context.close();
  });

  it('is sent to login when opening a screen without a token, and back there after signing in', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/own-space');
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-account').fill('clinic');
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/own-space/);
    await context.close();
  });
});

describe('a laboratory', () => {
  it('is refused at sign-in until the super administrator approves it in the review screen', async () => {
    const lab = await newPage(browser);
    const f = { org: `Alpine Dental Lab ${stamp}`, account: `lab${stamp}`, email: `lab-${stamp}@example.test` };
    await register(lab.page, 'lab', f);
    await confirmFromMailbox(lab.page, f.email);
    await signIn(lab.page, f.account);
    await lab.page.getByTestId('login-error').waitFor();
    expect(new URL(lab.page.url()).pathname).toBe('/login');

    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    await admin.page.getByTestId('layout-sidebar').waitFor();
    await admin.page.goto('/account/organizations');
    await admin.page.getByTestId('organizations-tab-review').click();
    const row = admin.page.locator('[data-testid^="review-row-"]', { hasText: f.org });
    await row.waitFor();
    await row.getByTestId('review-approve').click();
    // Reviewing is sensitive: the administrator's password is asked first.
    await admin.page.getByTestId('password-prompt-input').fill(PASSWORD);
    await admin.page.getByTestId('password-prompt-ok').click();
    await row.waitFor({ state: 'detached' });
    const mail = await mailedLink(lab.page, f.email, '/login');
    expect(mail).toContain('/login');

    await signIn(lab.page, f.account);
    await lab.page.getByTestId('dashboard-lab').waitFor();
    await lab.context.close();
    await admin.context.close();
  });
});

describe('a user flagged to change the password', () => {
  it('goes to the forced change screen first, then into the portal', async () => {
    const adminToken = await apiLogin('admin');
    const dealerToken = await apiLogin('dealer');
    const dealer = await api('user/info', {}, dealerToken);
    expect((await api('user/checkIdentity', { password: PASSWORD }, adminToken)).code).toBe(200);
    const reset = await api('user/resetPass', { userCode: dealer.data.userCode }, adminToken);
    expect(reset.code).toBe(200);

    const { page, context } = await newPage(browser);
    await signIn(page, 'dealer', reset.data.temporaryPassword);
    await page.waitForURL(/\/force-change-password/);
    // Nothing else opens until the password is changed.
    await page.goto('/own-space');
    await page.waitForURL(/\/force-change-password/);
    await page.getByTestId('force-password-new').fill(PASSWORD);
    await page.getByTestId('force-password-confirm').fill(PASSWORD);
    await page.getByTestId('force-submit').click();
    await page.getByTestId('layout-sidebar').waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/force-change-password');
    await context.close();
  });
});
