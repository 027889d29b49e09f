import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export const PASSWORD = 'Dental#2026';
export const baseUrl = () => inject('baseUrl');

/** Debian's Chromium, headless, with the network-quiet flags this machine needs. */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // A synthetic microphone, for the voice memo.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  });
}

/** A fresh browser context on the portal; `origin` opens it under another name of the same server. */
export async function newPage(browser: Browser, origin = baseUrl()): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: origin,
    locale: 'en-US',
    viewport: { width: 1366, height: 900 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

/** Calls the API directly, for the set-up steps a test is not about. */
export async function api(path: string, body: Record<string, unknown> = {}, token?: string) {
  const res = await fetch(`${baseUrl()}/api/v2/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}

export async function apiLogin(account: string, password = PASSWORD) {
  const res = await api('login', { account, password, saveLogin: true });
  if (res.code !== 200) throw new Error(`login ${account}: ${res.code} ${res.msg}`);
  return res.data.accessToken as string;
}

/**
 * The newest link of a kind mailed to an address, read from the demo mailbox by the browser behind `page` (the
 * mailbox shows a browser only the mail of addresses it registered and of invitations it sent).
 */
export async function mailedLink(page: Page, email: string, pathPart: string): Promise<string> {
  // The click that sends the mail may still be on its way: the browser earns the right to read it with the answer.
  for (let attempt = 0; attempt < 40; attempt++) {
    const res = await page.request.get(`/api/v2/mail/demoMailbox?email=${encodeURIComponent(email)}`);
    const body = (await res.json()) as { data: { list: Array<{ text: string }> } };
    for (const mail of body.data.list) {
      const m = mail.text.match(new RegExp(`https?://\\S*${pathPart}[A-Za-z0-9_-]*`));
      if (m) return m[0];
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no ${pathPart} link mailed to ${email}`);
}

/**
 * Opens a screen of a submenu (Account → Users): the submenu is opened only when closed (a click on an open one's
 * title closes it), and the screen's address is waited for.
 */
export async function openSubmenuScreen(page: Page, parent: string, item: string, path: string | RegExp) {
  await page.getByTestId('layout-sidebar').waitFor();
  const entry = page.getByTestId(`menu-${item}`);
  if (!(await entry.isVisible())) await page.getByTestId(`menu-${parent}`).click();
  await entry.click();
  await page.waitForURL(path);
}

export async function signIn(page: Page, account: string, password = PASSWORD, stay = false) {
  await page.goto('/login');
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  if (stay) await page.getByTestId('login-save').click();
  await page.getByTestId('login-submit').click();
}

/** Registers an organization through the screens, as a newcomer would. */
export async function register(
  page: Page,
  way: 'clinic' | 'lab',
  f: { org: string; account: string; email: string },
  start = '/register',
) {
  await page.goto(start);
  await page.getByTestId(`register-way-${way}`).click();
  await page.getByTestId('region-eu').click();
  await page.getByTestId('region-next').click();
  await page.getByTestId('register-organizationName').fill(f.org);
  if (way === 'lab') {
    await page.getByTestId('register-licenseCode').fill('DE-LAB-4711');
    await page.getByTestId('register-representativeName').fill('Anna Weber');
    await page.getByTestId('register-country').fill('Germany');
    await page.getByTestId('register-city').fill('Munich');
  }
  await page.getByTestId('register-account').fill(f.account);
  await page.getByTestId('register-email').fill(f.email);
  await page.getByTestId('register-displayName').fill('Dr. Test');
  await page.getByTestId('register-password-new').fill(PASSWORD);
  await page.getByTestId('password-rule-include').waitFor();
  await page.getByTestId('register-password-confirm').fill(PASSWORD);
  for (const a of ['agreePrivacy', 'agreeCookie', 'agreeTerms']) await page.getByTestId(`register-${a}`).click();
  await page.getByTestId('register-submit').click();
  await page.getByTestId('register-result').waitFor();
}

/** Opens the confirmation link from the demo mailbox, as a newcomer without a mail server would. */
export async function confirmFromMailbox(page: Page, email: string) {
  await page.goto('/mailbox');
  await page.getByTestId('mailbox-email').fill(email);
  await page.getByTestId('mailbox-submit').click();
  const link = page.locator('[data-testid="mail-item"] a', { hasText: '/email-verify/' }).first();
  await link.waitFor();
  const href = await link.getAttribute('href');
  expect(href).toContain('/email-verify/');
  await page.goto(href!);
  await page.getByTestId('verify-result').first().waitFor();
}

/**
 * A laboratory joins as a newcomer would: registers through the screens (from `start`), confirms its address
 * from the demo mailbox, is approved by the super administrator, and signs in.
 */
export async function joinAsLab(page: Page, f: { org: string; account: string; email: string }, start = '/register') {
  await register(page, 'lab', f, start);
  await confirmFromMailbox(page, f.email);
  const admin = await apiLogin('admin');
  expect((await api('user/checkIdentity', { password: PASSWORD }, admin)).code).toBe(200);
  const pending = await api('company/listReview', { reviewStatus: 0, pageNum: 1, pageSize: 100 }, admin);
  const labOrg = pending.data.list.find((o: { name: string }) => o.name === f.org);
  expect(
    (await api('company/review', { organizationCode: labOrg.organizationCode ?? labOrg.code, approve: true }, admin))
      .code,
  ).toBe(200);
  await signIn(page, f.account);
}

/**
 * Picks an option of an antd Select by its label, the way a keyboard user does: the select opened, the arrow keys to
 * the option, Enter. (Clicking an option near the bottom of the dialog scrolls it, which closes the dropdown.)
 */
export async function pickOption(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click();
  for (let i = 0; i < 80; i++) {
    const active = await page.evaluate(() =>
      document
        .querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-active')
        ?.textContent?.trim(),
    );
    if (active === label || active?.startsWith(`${label} ·`)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no option "${label}" in ${testId}`);
}

/**
 * A new order of the demo clinic to the demo laboratory, made through the API (journeys that start from an order,
 * not from sending one): a case, then one restoration of one tooth.
 */
export async function demoOrder(f: {
  caseName: string;
  patientName: string;
  tooth: number;
  shade?: string;
  workType?: string;
  /** An existing case (one of the demo's, with its scans) instead of a new empty one. */
  caseCode?: string;
}) {
  const clinicToken = await apiLogin('clinic');
  const labToken = await apiLogin('lab');
  // The demo laboratory among the clinic's partners (other journeys add theirs).
  const labCode = (await api('user/info', {}, labToken)).data.organization.code as string;
  const partners = await api('partner/list', { tab: 'mine', pageSize: 100 }, clinicToken);
  const partnerCode = partners.data.list.find(
    (p: { organization: { code: string | null } }) => p.organization.code === labCode,
  ).partnerCode as string;
  const caseCode =
    f.caseCode ??
    ((await api('case/create', { name: f.caseName, patientName: f.patientName }, clinicToken)).data.caseCode as string);
  const sent = await api(
    'order/create',
    {
      caseCodes: [caseCode],
      partnerCode,
      orderType: 'restoration',
      workTypes: [f.workType ?? 'Crown'],
      teeth: [{ number: f.tooth, ...(f.shade ? { shade: f.shade } : {}) }],
    },
    clinicToken,
  );
  if (sent.code !== 200) throw new Error(`order/create: ${sent.msg}`);
  return {
    clinicToken,
    labToken,
    caseCode,
    orderCode: sent.data.list[0].orderCode as string,
  };
}

/** How many pixels of the 3D canvas differ from its background: a blank canvas has none. */
export async function paintedPixels(page: Page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="viewer-canvas"]') as HTMLCanvasElement | null;
    if (!canvas || !canvas.width) return 0;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    const [r0, g0, b0] = [data[0], data[1], data[2]];
    let painted = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i]! - r0!) + Math.abs(data[i + 1]! - g0!) + Math.abs(data[i + 2]! - b0!) > 30) painted++;
    return painted;
  });
}

/**
 * Page coordinates of spots the 3D canvas has drawn a scan on: on the row with the most paint, its painted pixels
 * taken at these fractions of their count (0.01 and 0.99: near the two ends of an arch), so a click there lands on a
 * scan.
 */
export async function paintedSpots(page: Page, fractions: number[]) {
  return page.evaluate((at) => {
    const canvas = document.querySelector('[data-testid="viewer-canvas"]') as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, copy.width, copy.height);
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    const painted = (x: number, y: number) => {
      const i = (y * width + x) * 4;
      return Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 30;
    };
    let best = { y: 0, xs: [] as number[] };
    for (let y = 0; y < height; y += 2) {
      const xs: number[] = [];
      for (let x = 0; x < width; x++) if (painted(x, y)) xs.push(x);
      if (xs.length > best.xs.length) best = { y, xs };
    }
    const rect = canvas.getBoundingClientRect();
    const scale = rect.width / width;
    return at.map((f) => {
      const x = best.xs[Math.min(best.xs.length - 1, Math.max(0, Math.round(f * (best.xs.length - 1))))]!;
      return { x: rect.left + x * scale, y: rect.top + best.y * scale };
    });
  }, fractions);
}
