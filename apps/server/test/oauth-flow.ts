import { expect } from 'vitest';
import * as oidc from 'openid-client';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { freePort } from './child-server.js';

/**
 * An app's side of the OpenID provider for the tests: openid-client acting as the app against a listening server,
 * the browser's part (redirects and cookies) played by fetch.
 */

export const REDIRECT = 'http://127.0.0.1:9/callback';
export const SCOPES = 'openid profile offline_access cases:read';

export interface OAuthWorld {
  h: Harness;
  base: string;
  issuer: string;
  /** The super administrator, who registers apps. */
  admin: { token: string };
}

/** A listening server whose provider allows loopback redirect addresses, and its super administrator. */
export async function startOAuthWorld(env: Record<string, string> = {}): Promise<OAuthWorld> {
  const port = await freePort();
  const h = await createHarness({
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    OAUTH_ALLOW_LOOPBACK_REDIRECTS: 'true',
    ...env,
  });
  const base = await h.app.listen({ port, host: '127.0.0.1' });
  const sa = await createUser(h.db, { orgType: OrgType.Inner });
  return { h, base, issuer: `${base}/oidc`, admin: { token: (await login(h, sa.account)).accessToken } };
}

/** A browser: keeps the cookies the portal sets and follows its redirects within the portal. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly issuer: string) {}
  private remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  /** The Cookie header it sends to the portal. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  /** Opens a portal address and follows redirects until one leaves the provider; answers the last answer and where it points. */
  async open(url: string): Promise<{ res: Response; location: string | null }> {
    let next = url;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: this.cookieHeader() },
      });
      this.remember(res);
      const location = res.headers.get('location');
      if (!location) return { res, location: null };
      const absolute = new URL(location, next).href;
      if (!absolute.startsWith(`${this.issuer}/`)) return { res, location: absolute };
      next = absolute;
    }
    throw new Error('too many redirects');
  }
}

/** The app's steps, against the world `get` answers when they run. */
export function oauthFlow(get: () => OAuthWorld) {
  async function registerApp(body: Record<string, unknown> = {}) {
    const { h, admin } = get();
    const res = await h.call('app/create', {
      token: admin.token,
      body: {
        name: 'Lab Sync',
        redirectUris: [REDIRECT],
        scopes: ['openid', 'profile', 'offline_access', 'cases:read', 'orders:read'],
        contactEmail: 'dev@example.test',
        confidential: false,
        ...body,
      },
    });
    expect(res.code).toBe(200);
    return res.data as { appCode: string; clientSecret: string | null };
  }

  async function configFor(app: { appCode: string; clientSecret: string | null }) {
    return oidc.discovery(
      new URL(get().issuer),
      app.appCode,
      undefined,
      app.clientSecret ? oidc.ClientSecretBasic(app.clientSecret) : oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );
  }

  /** The whole authorization: request (or pushed request), the portal's page calls, the code back to the app. */
  async function authorize(
    config: oidc.Configuration,
    user: { token: string },
    opts: { scope?: string; loginHint?: string; par?: boolean } = {},
  ) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const params: Record<string, string> = {
      redirect_uri: REDIRECT,
      scope: opts.scope ?? SCOPES,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      // OpenID Connect gives offline_access (a refresh token) only when the user is asked for consent.
      prompt: 'consent',
      ...(opts.loginHint ? { login_hint: opts.loginHint } : {}),
    };
    const url = opts.par
      ? await oidc.buildAuthorizationUrlWithPAR(config, params)
      : oidc.buildAuthorizationUrl(config, params);
    const { h, issuer } = get();
    const browser = new Browser(issuer);
    const first = await browser.open(url.href);
    const page = new URL(first.location!);
    expect(page.pathname).toBe('/third/auth-login');
    const uid = page.searchParams.get('uid')!;
    /** One of the consent page's calls about this request, made from the browser that started it. */
    const call = (path: string, token: string, body: Record<string, unknown> = { uid }) =>
      h.call(path, { token, body, headers: { cookie: browser.cookieHeader() } });
    return { browser, uid, verifier, state, call };
  }

  async function finish(
    config: oidc.Configuration,
    flow: Awaited<ReturnType<typeof authorize>>,
    user: { token: string },
  ) {
    const consent = await flow.call('app/consent', user.token);
    expect(consent.code).toBe(200);
    const back = await flow.browser.open(consent.data.returnTo as string);
    expect(back.location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    return oidc.authorizationCodeGrant(config, new URL(back.location!), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
  }

  async function api(path: string, accessToken: string, body: unknown = {}) {
    const res = await fetch(`${get().base}/api/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: any };
    return { status: res.status, ...json };
  }

  return { registerApp, configFor, authorize, finish, api };
}
