import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { api, apiLogin, launch, mailedLink, newPage, PASSWORD, signIn } from './support.js';

/** The start-up sequence and the session of spec §4, as a browser meets them. */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A server answer in the portal's envelope. */
function answer(route: Route, status: number, code: number, data: unknown = null, msg = 'Something went wrong') {
  return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ code, msg, data }) });
}

interface Added {
  account: string;
  email: string;
  userCode: string;
}

/**
 * A user the demo clinic's administrator adds (it has read no agreement yet). Added through the browser behind `page`,
 * which may then read the set-password mail in the demo mailbox; `password` sets it from that mail.
 */
async function addClinicUser(page: Page, name: string, password?: string): Promise<Added> {
  const stamp = Date.now().toString(36);
  const account = `${name}${stamp}`;
  const email = `${name}-${stamp}@example.test`;
  const res = await page.request.post('/api/v2/user/save_or_update', {
    headers: { authorization: `Bearer ${await apiLogin('clinic')}` },
    data: { account, displayName: 'Sam Session', email, roleCode: 'clinic_admin' },
  });
  const saved = (await res.json()) as { code: number; msg: string; data: { userCode: string } };
  if (saved.code !== 200) throw new Error(`user/save_or_update: ${saved.code} ${saved.msg}`);
  if (password) {
    const id = new URL(await mailedLink(page, email, '/set-pass/')).pathname.split('/').pop();
    const set = await api('user/forgetPassResetPass', { id, password, confirmPassword: password });
    if (set.code !== 200) throw new Error(`user/forgetPassResetPass: ${set.code} ${set.msg}`);
  }
  return { account, email, userCode: saved.data.userCode };
}

/** Removes the users a test added, so the demo clinic's user list is as it was. */
async function removeClinicUsers(users: Added[]) {
  if (users.length === 0) return;
  const admin = await apiLogin('clinic');
  expect((await api('user/checkIdentity', { password: PASSWORD }, admin)).code).toBe(200);
  expect((await api('user/delByIds', { userCodes: users.map((u) => u.userCode) }, admin)).code).toBe(200);
}

/** For expect.poll: the machine is shared and sometimes slow. */
const WAIT = { timeout: 20_000 };

const accessToken = (page: Page) => page.evaluate(() => localStorage.getItem('portal.accessToken'));

describe('the start-up sequence', () => {
  it('shows the page in the language the address names and takes lang and colorScheme out of the address', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login?redirectUrl=%2Fown-space&lang=de&colorScheme=dark');
    await expect.poll(() => page.getByTestId('login-submit').innerText(), WAIT).toBe('Anmelden');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await expect.poll(() => new URL(page.url()).search, WAIT).toBe('?redirectUrl=%2Fown-space');
    await context.close();
  });

  it('applies the colorScheme of the address to this visit without changing the stored theme', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    // The user's choice: light.
    await page.evaluate(() => localStorage.setItem('portal.theme', 'light'));
    await page.goto('/case-management?colorScheme=dark');
    await page.getByTestId('case-list').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(new URL(page.url()).pathname).toBe('/case-management');
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => localStorage.getItem('portal.theme'))).toBe('light');
    // The next visit without the parameter is in the stored theme again.
    await page.reload();
    await page.getByTestId('case-list').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await context.close();
  });

  it.each([
    { what: 'fails', reply: (r: Route) => answer(r, 500, 500) },
    { what: 'answers a code other than 200', reply: (r: Route) => answer(r, 200, 1002, null, 'No permission') },
    { what: 'answers no config', reply: (r: Route) => answer(r, 200, 200, null, 'Success') },
  ])('leaves the page empty when the application config call $what', async ({ reply }) => {
    const { context, page } = await newPage(browser);
    let asked = 0;
    await page.route('**/api/v2/app_config/get', (route) => {
      asked++;
      return reply(route);
    });
    await page.goto('/login');
    await expect.poll(() => page.evaluate(() => document.body.innerHTML), WAIT).toBe('');
    expect(asked).toBe(1);
    expect(await page.getByTestId('login-account').count()).toBe(0);
    await context.close();
  });
});

describe('the login page', () => {
  const added: Added[] = [];
  afterAll(() => removeClinicUsers(added));

  it('asks for a captcha after three failed sign-ins, draws a new one on request and refuses a wrong one', async () => {
    const { context, page } = await newPage(browser);
    const user = await addClinicUser(page, 'captcha');
    added.push(user);
    await page.goto('/login');
    await page.getByTestId('login-account').fill(user.account);
    await page.getByTestId('login-password').fill('Wrong#20261');
    const submit = async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/v2/login'));
      await page.getByTestId('login-submit').click();
      return (await (await answered).json()) as { code: number; data: { captchaRequired?: boolean } | null };
    };
    for (const failures of [1, 2]) {
      expect((await submit()).data).toEqual({ failures, captchaRequired: false });
      await page.getByTestId('login-error').getByText('Invalid password').waitFor();
      expect(await page.getByTestId('login-captcha').count()).toBe(0);
    }
    // The third failure: the captcha, and the offer to find the right site.
    expect((await submit()).data).toEqual({ failures: 3, captchaRequired: true });
    const image = page.getByTestId('login-captcha-image');
    await image.waitFor();
    await page.getByTestId('login-find-site').waitFor();
    const drawn = () => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    await expect.poll(drawn, WAIT).toBe(true);
    const first = await image.getAttribute('src');
    expect(first).toMatch(/\/api\/v2\/common\/captcha\/draw\/[0-9a-f]+$/);

    // Left empty, it is asked for before anything is sent.
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-captcha-error').getByText('Cannot be null').waitFor();

    // Another picture on request.
    await page.getByTestId('login-captcha-refresh').click();
    await expect.poll(() => image.getAttribute('src'), WAIT).not.toBe(first);
    await expect.poll(drawn, WAIT).toBe(true);
    const second = await image.getAttribute('src');

    // A wrong code is refused with its message, and burns the picture: a new one is drawn, the field emptied.
    await page.getByTestId('login-captcha').fill('zzzzz');
    expect((await submit()).code).toBe(3002);
    await page.getByTestId('login-error').getByText('The verification code is wrong.').waitFor();
    await expect.poll(() => image.getAttribute('src'), WAIT).not.toBe(second);
    await expect.poll(drawn, WAIT).toBe(true);
    expect(await page.getByTestId('login-captcha').inputValue()).toBe('');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });
});

describe('the agreements dialog', () => {
  let user: Added;
  beforeAll(async () => {
    const { context, page } = await newPage(browser);
    user = await addClinicUser(page, 'reader', PASSWORD);
    await context.close();
  });
  afterAll(() => removeClinicUsers(user ? [user] : []));

  /** Signs in the user who has not read the agreements. */
  async function signInToDialog(page: Page) {
    await signIn(page, user.account);
    await page.getByTestId('agreements-modal').waitFor();
  }

  it('lists the three agreements after sign-in, before the portal; refusing them signs the user out', async () => {
    const { context, page } = await newPage(browser);
    await signInToDialog(page);
    const links = page.getByTestId('agreements-modal').locator('a');
    expect(await links.allInnerTexts()).toEqual(['Cookie policy', 'Privacy policy', 'Terms of use']);
    // Never accepted before: asked to accept them, not told they were updated.
    const dialog = page.locator('.ant-modal-confirm');
    expect(await dialog.locator('.ant-modal-confirm-title').innerText()).toBe('Agreements');
    expect(await page.getByTestId('agreements-modal').innerText()).toContain('Before you start');
    expect(await page.getByTestId('layout-sidebar').count()).toBe(0);
    await page.getByTestId('agreements-refuse').click();
    await page.waitForURL(/\/login$/);
    await page.getByTestId('login-account').waitFor();
    expect(await accessToken(page)).toBeFalsy();
    await context.close();
  });

  it('signs the user out with an error when the acceptance cannot be saved', async () => {
    const { context, page } = await newPage(browser);
    await page.route('**/api/v2/user/saveUserAgreementReadLog', (route) => answer(route, 500, 500));
    await signInToDialog(page);
    await page.getByTestId('agreements-accept').click();
    await page.locator('.ant-message-error').getByText('Something went wrong').waitFor();
    await page.waitForURL(/\/login$/);
    expect(await accessToken(page)).toBeFalsy();
    // Nothing was recorded: the dialog comes again at the next sign-in.
    const unread = await api('user/queryUserAgreementReadLog', {}, await apiLogin(user.account));
    expect(unread.data.unread).toHaveLength(3);
    await context.close();
  });

  it('tells a user who accepted earlier versions that the agreements were updated', async () => {
    const { context, page } = await newPage(browser);
    // The server's answer for a user who accepted before (its firstTime is tested on the server).
    await page.route('**/api/v2/user/queryUserAgreementReadLog', async (route) => {
      const res = await route.fetch();
      const json = (await res.json()) as { data: { firstTime: boolean } };
      await route.fulfill({ response: res, json: { ...json, data: { ...json.data, firstTime: false } } });
    });
    await signInToDialog(page);
    expect(await page.locator('.ant-modal-confirm-title').innerText()).toBe('Updated agreements');
    await page.getByTestId('agreements-refuse').click();
    await page.waitForURL(/\/login$/);
    await context.close();
  });

  it('signs the user out when the agreement check is answered 403', async () => {
    const { context, page } = await newPage(browser);
    let answered: () => void;
    const asked = new Promise<void>((resolve) => (answered = resolve));
    await page.route('**/api/v2/user/queryUserAgreementReadLog', async (route) => {
      await answer(route, 403, 403, null, 'Access Denied');
      answered();
    });
    await signIn(page, user.account);
    await asked;
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/login');
    await expect.poll(() => accessToken(page), WAIT).toBeFalsy();
    expect(await page.getByTestId('agreements-modal').count()).toBe(0);
    expect(await page.getByTestId('layout-sidebar').count()).toBe(0);
    await context.close();
  });

  it('lets the user in once accepted, saving the types joined by commas, and does not ask again', async () => {
    const { context, page } = await newPage(browser);
    await signInToDialog(page);
    const saved = page.waitForRequest((r) => r.url().endsWith('/api/v2/user/saveUserAgreementReadLog'));
    await page.getByTestId('agreements-accept').click();
    const body = (await saved).postDataJSON() as { agreementType: string };
    expect(body.agreementType.split(',').sort()).toEqual(['cookie', 'privacy', 'terms']);
    await page.getByTestId('dashboard-clinic').waitFor();
    await page.getByTestId('agreements-modal').waitFor({ state: 'detached' });
    // The next start of the app goes straight in.
    await page.reload();
    await page.getByTestId('dashboard-clinic').waitFor();
    expect(await page.getByTestId('agreements-modal').count()).toBe(0);
    await context.close();
  });
});

describe('a signed-in user', () => {
  /** Records each error toast as it appears, with whether the user was still signed in at that moment. */
  async function recordToasts(page: Page) {
    await page.addInitScript(() => {
      const seen: Array<{ text: string; signedIn: boolean }> = [];
      (window as unknown as { toasts: typeof seen }).toasts = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.ant-message-error:not([data-seen])')) {
          el.setAttribute('data-seen', '');
          seen.push({ text: el.textContent ?? '', signedIn: Boolean(localStorage.getItem('portal.accessToken')) });
        }
      }).observe(document, { childList: true, subtree: true });
    });
  }
  const toasts = (page: Page) => page.evaluate(() => (window as unknown as { toasts: unknown[] }).toasts);
  const NO_ACCESS = { text: "You don't have access to any page. Please contact your administrator.", signedIn: true };

  /** The menu the server answers from now on for this page: empty. `asked` resolves at its first answer. */
  async function emptyMenu(page: Page) {
    let answered: () => void;
    const asked = new Promise<void>((resolve) => (answered = resolve));
    await page.route('**/api/v2/permission/listUserMenu', async (route) => {
      await answer(route, 200, 200, { menus: [], permissions: [] }, 'Success');
      answered();
    });
    return { asked };
  }

  it('whose menu comes back empty at sign-in is told there is no page to open, then signed out', async () => {
    const { context, page } = await newPage(browser);
    await recordToasts(page);
    const { asked } = await emptyMenu(page);
    await signIn(page, 'clinic');
    await asked;
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/login');
    await expect.poll(() => accessToken(page), WAIT).toBeFalsy();
    expect(await toasts(page)).toEqual([NO_ACCESS]);
    expect(await page.getByTestId('layout-sidebar').count()).toBe(0);
    await context.close();
  });

  it('whose menu comes back empty when fetched again (tab back in front) is told so too, then signed out', async () => {
    const { context, page } = await newPage(browser);
    await recordToasts(page);
    await signIn(page, 'clinic');
    await page.getByTestId('dashboard-clinic').waitFor();
    const { asked } = await emptyMenu(page);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await asked;
    await page.waitForURL(/\/login/);
    await expect.poll(() => accessToken(page), WAIT).toBeFalsy();
    expect(await toasts(page)).toEqual([NO_ACCESS]);
    await context.close();
  });

  it('sees the page reload when a screen’s code fails to load, and the screen open after it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    let asked = 0;
    await page.route(/\/assets\/RecycleBinPage-[^/]+\.js$/, (route) =>
      asked++ === 0 ? route.abort('connectionfailed') : route.continue(),
    );
    const documents: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents.push(new URL(r.url()).pathname);
    });
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.getByTestId('menu-recycleBin').click();
    await page.getByRole('alert').getByText('This page could not be loaded. Reloading…').waitFor();
    await reloaded;
    await page.getByTestId('recycle-bin').waitFor();
    expect(asked).toBe(2);
    // One reload, of the screen asked for.
    expect(documents).toEqual(['/recycle-bin']);
    await context.close();
  });

  it('follows another tab that signs out once this one is in front again, and one that signs in as another user', async () => {
    const { context, page: here } = await newPage(browser);
    await signIn(here, 'clinic');
    await here.getByTestId('dashboard-clinic').waitFor();
    const there = await context.newPage();
    there.setDefaultTimeout(20_000);
    await there.goto('/');
    await there.getByTestId('dashboard-clinic').waitFor();

    // This tab goes to the background; a marker tells whether it is still the same page (not reloaded).
    await here.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      const w = window as unknown as { sameLoad: boolean; tokenChanges: number };
      w.sameLoad = true;
      w.tokenChanges = 0;
      window.addEventListener('storage', (e) => {
        if (e.key === 'portal.accessToken') w.tokenChanges++;
      });
    });
    await there.getByTestId('user-menu').click();
    await there.getByTestId('logout').click();
    await there.waitForURL(/\/login/);
    await expect
      .poll(() => here.evaluate(() => (window as unknown as { tokenChanges: number }).tokenChanges), WAIT)
      .toBe(1);
    expect(await here.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad)).toBe(true);

    // In front again, it reloads and finds no token: the login page.
    const reloaded = here.waitForEvent('load');
    await here.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await reloaded;
    await here.waitForURL(/\/login/);
    await here.getByTestId('login-account').waitFor();

    // The other tab signs in as the laboratory: this one, in front, follows at once.
    await here.evaluate(() => ((window as unknown as { sameLoad: boolean }).sameLoad = true));
    await signIn(there, 'lab');
    await there.getByTestId('dashboard-lab').waitFor();
    await here.getByTestId('dashboard-lab').waitFor();
    expect(await here.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad)).toBeUndefined();
    await context.close();
  });
});
