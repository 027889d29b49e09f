import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PASSWORD, api, apiLogin, baseUrl, launch, mailedLink, newPage, signIn } from './support.js';

/**
 * An app signs a clinic user in through the portal (docs/api.md, "Apps: OAuth 2.0 / OpenID Connect"): a reference
 * app on loopback, with openid-client doing the app's part, sends the browser to the provider; the user signs in on
 * /third/auth-login, consents, the app gets its code back, exchanges it and reads the clinic's cases; revoked in own
 * space, its token is refused at once.
 */
let browser: Browser;
let referenceApp: ReferenceApp;
let config: oidc.Configuration;
beforeAll(async () => {
  browser = await launch();
  referenceApp = await ReferenceApp.start();
  const admin = await apiLogin('admin');
  expect((await api('user/checkIdentity', { password: PASSWORD }, admin)).code).toBe(200);
  const made = await api(
    'app/create',
    {
      name: 'Reference app',
      redirectUris: [referenceApp.redirectUri],
      scopes: ['openid', 'profile', 'cases:read'],
      contactEmail: 'dev@reference.example',
      confidential: false,
    },
    admin,
  );
  expect(made.code, made.msg).toBe(200);
  config = await oidc.discovery(new URL(`${baseUrl()}/oidc`), made.data.appCode, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
});
afterAll(async () => {
  await browser?.close();
  await referenceApp?.stop();
});

/** The app's callback and launch pages on loopback: it keeps each address the browser was sent to. */
class ReferenceApp {
  callbacks: URL[] = [];
  launches: URL[] = [];
  private constructor(
    private readonly server: Server,
    readonly redirectUri: string,
  ) {}

  static async start() {
    const server = createServer((req, res) => {
      const url = new URL(req.url!, app.redirectUri);
      // The browser also asks for a favicon.
      if (url.pathname === '/start') app.launches.push(url);
      else if (url.pathname === '/callback') app.callbacks.push(url);
      else return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Reference app</title><p>Back</p>');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const app = new ReferenceApp(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`);
    return app;
  }

  get launchUrl() {
    return this.redirectUri.replace(/\/callback$/, '/start');
  }

  stop() {
    return new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

/** The address an app sends the browser to, with its PKCE verifier and state. */
async function request() {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const start = oidc.buildAuthorizationUrl(config, {
    redirect_uri: referenceApp.redirectUri,
    scope: 'openid profile cases:read',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { verifier, state, start };
}

describe('a third-party app', () => {
  it('signs a clinic user in with consent, reads the cases with its token, and is refused once revoked', async () => {
    const { verifier, state, start } = await request();

    const { context, page } = await newPage(browser);
    await page.goto(start.href);
    // Signed out: the page asks to sign in, then brings the user back to the same request.
    await page.waitForURL(/\/third\/auth-login\?uid=/);
    await page.getByTestId('app-authorize-sign-in').click();
    await page.getByTestId('login-account').fill('clinic');
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/third\/auth-login\?uid=/);
    await expect.poll(() => page.getByTestId('app-authorize-name').textContent()).toBe('Reference app');
    const scopes = await page
      .getByTestId('app-authorize-scopes')
      .locator('li')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-scope')));
    expect(scopes).toEqual(['openid', 'profile', 'cases:read']);
    expect(await page.getByTestId('app-authorize-user').textContent()).toContain('clinic');
    await page.getByTestId('app-authorize-allow').click();

    await page.waitForURL((url) => url.href.startsWith(referenceApp.redirectUri));
    const back = referenceApp.callbacks.at(-1)!;
    const tokens = await oidc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const cases = await api('case/list', { pageNum: 1, pageSize: 10 }, tokens.access_token);
    expect(cases.code, cases.msg).toBe(200);
    expect(cases.data.total).toBeGreaterThan(0);

    // The clinic's administrator sees the app's calls for its members (written within about a second).
    const activity = async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/v2/app/callLog'));
      await page.goto('/own-space?tab=appActivity');
      await answered;
      return page.getByTestId('app-activity').textContent();
    };
    await expect.poll(activity, { timeout: 15_000, intervals: [500] }).toContain('case/list');
    expect(await page.getByTestId('app-activity').textContent()).toContain('Reference app');

    // Own space lists the app with what it may do and its last use; revoking it stops the token at once.
    await page.goto('/own-space');
    const row = page.getByTestId('own-auth-apps').locator('tr', { hasText: 'Reference app' });
    await expect.poll(() => row.textContent()).toContain('cases:read');
    await row.getByRole('button').click();
    await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
    await expect.poll(() => row.count()).toBe(0);
    const refused = await api('case/list', { pageNum: 1, pageSize: 10 }, tokens.access_token);
    expect(refused.code).toBe(401);
    await context.close();
  });

  it('without an app or a request, the page says so; a request from another browser is refused', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/third/auth-login');
    await expect.poll(() => page.getByTestId('app-authorize-failed').getAttribute('data-code')).toBe('2093');
    expect(await page.getByTestId('app-authorize-failed').textContent()).toContain('appid cannot be empty');

    // Someone's own request, its page address sent to a signed-in clinic user: nothing to consent to there.
    await page.goto((await request()).start.href);
    await page.waitForURL(/\/third\/auth-login\?uid=/);
    const lured = page.url();
    const victim = await newPage(browser);
    await victim.page.goto('/login');
    await victim.page.getByTestId('login-account').fill('clinic');
    await victim.page.getByTestId('login-password').fill(PASSWORD);
    await victim.page.getByTestId('login-submit').click();
    await victim.page.getByTestId('layout-sidebar').waitFor();
    await victim.page.goto(lured);
    await expect.poll(() => victim.page.getByTestId('app-authorize-failed').getAttribute('data-code')).toBe('2096');
    expect(await victim.page.getByTestId('app-authorize-allow').count()).toBe(0);
    await victim.context.close();
    await context.close();
  });

  it('the super administrator registers an app on Account → Apps, sees its secret once, and suspends it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/account/apps');
    await page.getByTestId('app-add').click();
    await page.getByTestId('app-name').fill('Lab bridge');
    await page.getByTestId('app-redirect-uris').fill('https://bridge.example/callback\nhttps://bridge.example/other');
    await page.getByTestId('app-contact').fill('dev@bridge.example');
    await page.getByTestId('app-save').click();
    const clientId = (await page.getByTestId('app-client-id').textContent())!.trim();
    const secret = (await page.getByTestId('app-client-secret').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(30);
    await page.locator('.ant-modal-footer .ant-btn-primary').last().click();

    const admin = await apiLogin('admin');
    const listed = (await api('app/list', {}, admin)).data.list.find(
      (a: { appCode: string }) => a.appCode === clientId,
    );
    expect(listed).toMatchObject({
      name: 'Lab bridge',
      confidential: true,
      status: 'active',
      redirectUris: ['https://bridge.example/callback', 'https://bridge.example/other'],
      scopes: ['openid', 'profile'],
    });
    expect(JSON.stringify(listed)).not.toContain(secret);

    await page.getByTestId(`app-suspend-${clientId}`).click();
    await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
    await page.getByTestId(`app-resume-${clientId}`).waitFor();
    expect((await api('app/list', {}, admin)).data.list.find((a: any) => a.appCode === clientId).status).toBe(
      'suspended',
    );
    // A suspended app is unknown to the provider: its sign-in requests are refused.
    const refused = await fetch(
      `${baseUrl()}/oidc/auth?client_id=${clientId}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent('https://bridge.example/callback')}`,
      { redirect: 'manual' },
    );
    expect(refused.status).toBe(400);
    await context.close();
  });

  it('an app registered for its developer is activated from the mailed link, once, which alone shows the secret', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/account/apps');
    await page.getByTestId('app-add').click();
    await page.getByTestId('app-name').fill('Mailed bridge');
    await page.getByTestId('app-redirect-uris').fill('https://mailed.example/callback');
    await page.getByTestId('app-contact').fill('dev@mailed.example');
    await page.getByTestId('app-send-activation').click();
    await page.getByTestId('app-save').click();
    await page.getByTestId('app-activation-sent').waitFor();
    expect(await page.getByTestId('app-client-secret').count()).toBe(0);
    const clientId = (await page.getByTestId('app-client-id').textContent())!.trim();
    await page.locator('.ant-modal-footer .ant-btn-primary').last().click();
    // Waiting: no suspend or resume, a new link may be sent.
    await expect.poll(() => page.getByTestId(`app-status-${clientId}`).textContent()).toBe('Waiting for activation');
    expect(await page.getByTestId(`app-suspend-${clientId}`).count()).toBe(0);
    await page.getByTestId(`app-resend-${clientId}`).waitFor();
    const link = await mailedLink(page, 'dev@mailed.example', '/activate-app/');

    // The developer, in a browser of their own, without a portal account.
    const dev = await newPage(browser);
    await dev.page.goto(link);
    await dev.page.getByTestId('app-activation').waitFor();
    expect(await dev.page.getByTestId('app-activation').textContent()).toContain('https://mailed.example/callback');
    await dev.page.getByTestId('app-activate').click();
    expect((await dev.page.getByTestId('app-client-id').textContent())!.trim()).toBe(clientId);
    expect((await dev.page.getByTestId('app-client-secret').textContent())!.trim()).toMatch(/^cs_.{40,}/);
    // Once only.
    await dev.page.reload();
    await expect.poll(() => dev.page.getByTestId('app-activate-failed').getAttribute('data-code')).toBe('2021');
    await dev.context.close();

    // The administrator's list shows it active when it is read again.
    await page.reload();
    await expect.poll(() => page.getByTestId(`app-status-${clientId}`).textContent()).toBe('Active');
    await context.close();
  });

  it("opens the portal from the scanner's software with a one-time sign, and opens an app at its launch address", async () => {
    const token = await apiLogin('clinic');
    const signed = await api('user/free-login/sign', {}, token);
    expect(signed.code, signed.msg).toBe(200);
    const { context, page } = await newPage(browser);
    await page.goto(`/login-jump-page/${signed.data.sign}?to=${encodeURIComponent('/case-management')}`);
    await page.waitForURL(/\/case-management$/);
    await page.getByTestId('layout-sidebar').waitFor();

    // The sign works once; another browser is refused and offered the sign-in page.
    const other = await newPage(browser);
    await other.page.goto(`/login-jump-page/${signed.data.sign}`);
    await expect.poll(() => other.page.getByTestId('login-jump-failed').getAttribute('data-code')).toBe('2021');
    await other.context.close();

    // An app with a launch address opens at it, with the issuer and the signed-in user.
    const admin = await apiLogin('admin');
    const made = await api(
      'app/create',
      {
        name: 'Launch app',
        redirectUris: [referenceApp.redirectUri],
        scopes: ['openid'],
        contactEmail: 'dev@reference.example',
        confidential: false,
        launchUrl: referenceApp.launchUrl,
      },
      admin,
    );
    expect(made.code, made.msg).toBe(200);
    await page.goto(`/as-auth-redirect/${made.data.appCode}`);
    await page.waitForURL((url) => url.href.startsWith(referenceApp.launchUrl));
    const launched = referenceApp.launches.at(-1)!;
    expect(launched.searchParams.get('iss')).toBe(`${baseUrl()}/oidc`);
    expect(launched.searchParams.get('login_hint')).toBe('clinic');
    // Once authorized, own space offers to open it.
    const launchConfig = await oidc.discovery(new URL(`${baseUrl()}/oidc`), made.data.appCode, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const authorizeUrl = oidc.buildAuthorizationUrl(launchConfig, {
      redirect_uri: referenceApp.redirectUri,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
    });
    await page.goto(authorizeUrl.href);
    await page.getByTestId('app-authorize-allow').click();
    await page.waitForURL((url) => url.href.startsWith(referenceApp.redirectUri));
    const launches = referenceApp.launches.length;
    await page.goto('/own-space');
    await page.getByTestId('own-auth-apps').locator('tr', { hasText: 'Launch app' }).getByRole('link').click();
    await page.waitForURL((url) => url.href.startsWith(referenceApp.launchUrl));
    expect(referenceApp.launches.length).toBe(launches + 1);

    // An app without a launch address is not opened.
    await page.goto('/as-auth-redirect/app_unknown');
    await page.getByTestId('app-launch-failed').waitFor();
    await context.close();
  });
});
