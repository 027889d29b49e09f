import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const PASSWORD = 'Dental#2026';
export const baseUrl = () => inject('baseUrl');

/** Debian's Chromium, headless, with the network-quiet flags this machine needs. */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run',
      // A synthetic microphone, for the voice memo.
      '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream',
    ],
  });
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: 'en-US', viewport: { width: 1366, height: 900 } });
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

/** The newest link of a kind mailed to an address, read from the demo mailbox. */
export async function mailedLink(email: string, pathPart: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v2/mail/demoMailbox?email=${encodeURIComponent(email)}`);
  const body = (await res.json()) as { data: { list: Array<{ text: string }> } };
  for (const mail of body.data.list) {
    const m = mail.text.match(new RegExp(`https?://\\S*${pathPart}[A-Za-z0-9_-]*`));
    if (m) return m[0];
  }
  throw new Error(`no ${pathPart} link mailed to ${email}`);
}

export async function signIn(page: Page, account: string, password = PASSWORD, stay = false) {
  await page.goto('/login');
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  if (stay) await page.getByTestId('login-save').click();
  await page.getByTestId('login-submit').click();
}
