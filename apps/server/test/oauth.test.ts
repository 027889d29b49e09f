import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { OrgType } from '@portal/contracts';
import { linkFromOutbox, type Harness } from './harness.js';
import { newCase, side, type Side } from './fixtures.js';
import { REDIRECT, SCOPES, oauthFlow, startOAuthWorld, type OAuthWorld } from './oauth-flow.js';

/**
 * Apps (docs/product-decisions.md, "Apps"): the portal as an OpenID provider, checked with openid-client acting as
 * the app against a listening server; the browser's part (redirects and cookies) is played by fetch.
 */

let w: OAuthWorld;
let h: Harness;
let base: string;
let issuer: string;
let admin: { token: string };
let clinic: Side;
const { registerApp, configFor, authorize, finish, api } = oauthFlow(() => w);

beforeAll(async () => {
  w = await startOAuthWorld();
  ({ h, base, issuer, admin } = w);
  clinic = await side(h, OrgType.Clinic);
  await newCase(h, clinic, 'Bridge case', 'Ada Berg');
});
afterAll(() => h?.close());

describe('the OpenID provider', () => {
  it('publishes its discovery document and keys: code flow, S256 only, pushed requests, revocation, introspection', async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const doc = (await res.json()) as Record<string, any>;
    expect(doc.issuer).toBe(issuer);
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.pushed_authorization_request_endpoint).toBe(`${issuer}/request`);
    // The paths docs/api.md lists.
    expect(doc).toMatchObject({
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/me`,
      jwks_uri: `${issuer}/jwks`,
      revocation_endpoint: `${issuer}/token/revocation`,
      introspection_endpoint: `${issuer}/token/introspection`,
    });
    expect(doc.scopes_supported).toEqual(
      expect.arrayContaining(['cases:read', 'files:read', 'orders:read', 'orders:write']),
    );
    const jwks = (await (await fetch(doc.jwks_uri)).json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]!.d).toBeUndefined();
    // Kept sealed in the database, the same keys on every start.
    const [stored] = await h.db.query<{ jwks_sealed: string }>('SELECT jwks_sealed FROM oauth_keys');
    expect(stored!.jwks_sealed).not.toContain(jwks.keys[0]!.n!.slice(0, 20));
  });

  it('signs a user in with consent, gives tokens, userinfo, and an app token that lists cases', async () => {
    const app = await registerApp();
    const config = await configFor(app);
    const flow = await authorize(config, clinic);
    const shown = await flow.call('app/interaction', clinic.token);
    expect(shown.code).toBe(200);
    expect(shown.data).toMatchObject({ appCode: app.appCode, appName: 'Lab Sync', userMatches: true });
    expect(shown.data.scopes).toEqual(SCOPES.split(' '));
    const tokens = await finish(config, flow, clinic);
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.access_token.includes('.')).toBe(false);
    expect(tokens.refresh_token).toBeTruthy();
    const [u] = await h.db.query<{ user_code: string }>('SELECT user_code FROM users WHERE id = $1', [clinic.userId]);
    expect(tokens.claims()!.sub).toBe(u!.user_code);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, u!.user_code);
    expect(info.preferred_username).toBe(clinic.account);

    const cases = await api('case/list', tokens.access_token, { pageNum: 1, pageSize: 10 });
    expect(cases.code).toBe(200);
    expect(JSON.stringify(cases.data)).toContain('Bridge case');

    // Beyond its scopes: a clear 403 with the forbidden code, nothing done.
    const made = await api('case/create', tokens.access_token, { name: 'By app', patientName: 'X' });
    expect(made.status).toBe(403);
    expect(made.code).toBe(1002);
    expect(made.msg).toBe("This app's authorization does not allow this call.");
    const own = await api('user/info', tokens.access_token);
    expect(own.status).toBe(403);

    // Own space lists the app with its scopes.
    const listed = await h.call('user/authApp/list', { token: clinic.token });
    expect(listed.data.list).toEqual([expect.objectContaining({ appName: 'Lab Sync', scopes: SCOPES.split(' ') })]);
  });

  it('rotates refresh tokens, and a reused one revokes the whole family', async () => {
    const app = await registerApp({ name: 'Rotating' });
    const config = await configFor(app);
    const tokens = await finish(config, await authorize(config, clinic), clinic);
    const second = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api('case/list', second.access_token)).code).toBe(200);

    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await api('case/list', second.access_token)).status).toBe(401);
  });

  it('stops an app at once when the user revokes it in own space', async () => {
    const app = await registerApp({ name: 'Revoked Co' });
    const config = await configFor(app);
    const tokens = await finish(config, await authorize(config, clinic), clinic);
    expect((await api('case/list', tokens.access_token)).code).toBe(200);
    const listed = await h.call('user/authApp/list', { token: clinic.token });
    const entry = (listed.data.list as Array<{ appCode: string; appName: string }>).find(
      (a) => a.appName === 'Revoked Co',
    )!;
    expect((await h.call('user/authApp/revoke', { token: clinic.token, body: { appCode: entry.appCode } })).code).toBe(
      200,
    );
    expect((await api('case/list', tokens.access_token)).status).toBe(401);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('a token revoked by another process stops here too, though this process had it in memory', async () => {
    const app = await registerApp({ name: 'Elsewhere revoked' });
    const config = await configFor(app);
    const tokens = await finish(config, await authorize(config, clinic), clinic);
    expect((await api('case/list', tokens.access_token)).code).toBe(200);
    // Straight in the database, as another process's revocation would be: only its notification reaches this one.
    const [row] = await h.db.query<{ grant_id: string }>(
      `SELECT grant_id FROM oauth_models WHERE kind = 'AccessToken' AND id = $1`,
      [tokens.access_token],
    );
    await h.db.query(`DELETE FROM oauth_models WHERE grant_id = $1 OR (kind = 'Grant' AND id = $1)`, [row!.grant_id]);
    let status = 200;
    for (let i = 0; i < 40 && status !== 401; i++) {
      status = (await api('case/list', tokens.access_token)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  });

  it('refuses a suspended app and its tokens, and lets it work again once resumed', async () => {
    const app = await registerApp({ name: 'Paused' });
    const config = await configFor(app);
    const tokens = await finish(config, await authorize(config, clinic), clinic);
    expect((await h.call('app/suspend', { token: admin.token, body: { appCode: app.appCode } })).data.status).toBe(
      'suspended',
    );
    expect((await api('case/list', tokens.access_token)).status).toBe(401);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_client',
    });
    const asked = await fetch(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid' }), {
      redirect: 'manual',
    });
    expect(asked.status).toBe(400);
    expect(((await asked.json()) as { error: string }).error).toBe('invalid_client');

    await h.call('app/resume', { token: admin.token, body: { appCode: app.appCode } });
    expect((await api('case/list', tokens.access_token)).code).toBe(200);
  });

  it('requires pushed requests from a confidential app, and answers introspection and revocation', async () => {
    const app = await registerApp({ name: 'Server App', confidential: true });
    expect(app.clientSecret).toMatch(/^cs_/);
    const [row] = await h.db.query<{ secret_hash: string }>('SELECT secret_hash FROM oauth_apps WHERE code = $1', [
      app.appCode,
    ]);
    expect(row!.secret_hash).not.toContain(app.clientSecret);
    const config = await configFor(app);
    const direct = await fetch(
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    expect(direct.status).toBeLessThan(500);
    expect(new URL(direct.headers.get('location') ?? 'http://x/').pathname).not.toBe('/third/auth-login');

    const tokens = await finish(config, await authorize(config, clinic, { par: true }), clinic);
    const seen = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(seen.active).toBe(true);
    expect(seen.scope).toBe(SCOPES);
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await api('case/list', tokens.access_token)).status).toBe(401);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);

    // A wrong secret is refused.
    const wrong = await configFor({ appCode: app.appCode, clientSecret: 'cs_wrong' });
    await expect(oidc.refreshTokenGrant(wrong, tokens.refresh_token!)).rejects.toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ parameters: expect.objectContaining({ error: 'invalid_client' }) })],
    });
  });

  it('refuses a request without PKCE, a wrong redirect address and a replayed code, never with a 500', async () => {
    const app = await registerApp({ name: 'Careful' });
    const config = await configFor(app);
    const noPkce = await fetch(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid' }), {
      redirect: 'manual',
    });
    expect(noPkce.status).toBe(303);
    const back = new URL(noPkce.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');

    const wrongRedirect = await fetch(
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: 'http://127.0.0.1:9/callback/other',
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    expect(wrongRedirect.status).toBe(400);
    expect(((await wrongRedirect.json()) as { error: string }).error).toBe('invalid_redirect_uri');

    const flow = await authorize(config, clinic);
    const consent = await flow.call('app/consent', clinic.token);
    const done = await flow.browser.open(consent.data.returnTo as string);
    const callback = new URL(done.location!);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    await expect(
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    // A replayed code also ends what it gave.
    expect((await api('case/list', tokens.access_token)).status).toBe(401);

    // A wrong verifier.
    const other = await authorize(config, clinic);
    const c2 = await other.call('app/consent', clinic.token);
    const d2 = await other.browser.open(c2.data.returnTo as string);
    await expect(
      oidc.authorizationCodeGrant(config, new URL(d2.location!), {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: other.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // The answered interaction cannot be answered again.
    const again = await other.call('app/consent', clinic.token);
    expect(again.code).toBe(2095);
    const junk = await h.call('app/consent', { token: clinic.token, body: { uid: 'no such uid' } });
    expect(junk.code).toBe(2095);

    // The provider's endpoints with junk answer errors, not 500s.
    for (const [path, init] of [
      ['token', { method: 'POST', body: 'grant_type=authorization_code&code=%00x&client_id=\u0000' }],
      ['token', { method: 'POST', body: 'grant_type=refresh_token&refresh_token=abc&client_id=' + app.appCode }],
      ['auth?client_id=%00&response_type=code', { method: 'GET' }],
      ['me', { method: 'GET', headers: { authorization: 'Bearer %00' } }],
    ] as const) {
      const res = await fetch(`${issuer}/${path}`, {
        redirect: 'manual',
        ...init,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...('headers' in init ? init.headers : {}) },
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('answers the spec messages: no appid, another user than the one the app asked for, an unknown one', async () => {
    const empty = await h.call('app/interaction', { token: clinic.token, body: {} });
    expect(empty.code).toBe(2093);
    expect(empty.msg).toBe('appid cannot be empty');
    const app = await registerApp({ name: 'Hinted' });
    const config = await configFor(app);
    const byCode = await h.call('app/interaction', { token: clinic.token, body: { appid: app.appCode } });
    expect(byCode.data).toMatchObject({ uid: null, appName: 'Hinted' });

    const someoneElse = await side(h, OrgType.Lab);
    const flow = await authorize(config, clinic, { loginHint: someoneElse.email });
    const shown = await flow.call('app/interaction', clinic.token);
    expect(shown.data.userMatches).toBe(false);
    const refused = await flow.call('app/consent', clinic.token);
    expect(refused.code).toBe(2094);
    expect(refused.msg).toBe('Authorization failed. The authorized user does not match.');

    const denied = await flow.call('app/deny', clinic.token);
    const back = await flow.browser.open(denied.data.returnTo as string);
    expect(new URL(back.location!).searchParams.get('error')).toBe('access_denied');

    const hinted = await authorize(config, clinic, { loginHint: clinic.account });
    expect((await hinted.call('app/interaction', clinic.token)).data.userMatches).toBe(true);

    // The app asked for an account this site does not have: 411, and nothing is granted.
    const nobody = await authorize(config, clinic, { loginHint: 'nobody-at-all@example.test' });
    const missing = await nobody.call('app/interaction', clinic.token);
    expect([missing.status, missing.code, missing.msg]).toEqual([404, 411, 'The account does not exist.']);
    expect((await nobody.call('app/consent', clinic.token)).code).toBe(411);
    const [grants] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM authorized_apps x JOIN oauth_apps a ON a.id = x.app_id WHERE a.code = $1`,
      [app.appCode],
    );
    expect(Number(grants!.n)).toBe(0);
  });

  it("answers a request only in the browser that started it: a uid lured into another's portal authorizes nothing", async () => {
    const app = await registerApp({ name: 'Lured' });
    const config = await configFor(app);
    // Someone starts a request in their own browser and sends its page address to a signed-in clinic user.
    const theirs = await authorize(config, clinic);
    const mine = await authorize(config, clinic);
    for (const [path, headers] of [
      ['app/interaction', {}],
      ['app/consent', {}],
      ['app/deny', {}],
      // The victim's browser holds its own request's cookie, not theirs.
      ['app/consent', { cookie: mine.browser.cookieHeader() }],
      ['app/consent', { cookie: 'portal_app_interaction=' }],
    ] as const) {
      const res = await h.call(path, { token: clinic.token, body: { uid: theirs.uid }, headers });
      expect(res.code, path).toBe(2096);
      expect(res.status).toBe(403);
      expect(res.msg).toBe('Authorization failed. Start again from the app, in this browser.');
    }
    const [grants] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM authorized_apps a JOIN oauth_apps o ON o.id = a.app_id WHERE o.code = $1`,
      [app.appCode],
    );
    expect(grants!.n).toBe(0);
    // Nothing was answered: the browser that started the request still can, and its cookie is then forgotten.
    const done = await theirs.call('app/consent', clinic.token);
    expect(done.code).toBe(200);
    expect(done.headers['set-cookie']).toMatch(/^portal_app_interaction=; Path=\/api\/v2\/app; Max-Age=0/);
    expect((await mine.call('app/deny', clinic.token)).code).toBe(200);
  });

  it('is managed by the super administrator alone, with exact https redirect addresses', async () => {
    const refused = await h.call('app/list', { token: clinic.token });
    expect(refused.code).toBe(1002);
    const bad = await h.call('app/create', {
      token: admin.token,
      body: { name: 'X', redirectUris: ['http://example.test/cb'], scopes: ['openid'], contactEmail: 'a@example.test' },
    });
    expect(bad.code).toBe(400);
    const wildcard = await h.call('app/create', {
      token: admin.token,
      body: {
        name: 'X',
        redirectUris: ['https://*.example.test/cb'],
        scopes: ['openid'],
        contactEmail: 'a@example.test',
      },
    });
    expect(wildcard.code).toBe(400);
    const list = await h.call('app/list', { token: admin.token });
    expect(list.code).toBe(200);
    const lab = (list.data.list as Array<{ name: string; users: number; lastUsedAt: string | null }>).find(
      (a) => a.name === 'Lab Sync',
    )!;
    expect(lab.users).toBe(1);
    expect(lab.lastUsedAt).not.toBeNull();
    const edited = await h.call('app/edit', {
      token: admin.token,
      body: { appCode: (list.data.list as Array<{ appCode: string }>)[0]!.appCode, name: 'Renamed' },
    });
    expect(edited.data.name).toBe('Renamed');
    const page = await fetch(`${base}/third/auth-login?uid=x`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it("exchanges a code at /open/portal/auth, the token endpoint under the spec's address", async () => {
    const app = await registerApp({ confidential: true });
    const config = await configFor(app);
    /** A code the app got back after the user's consent, with its verifier. */
    const codeOf = async () => {
      const flow = await authorize(config, clinic, { par: true });
      const consent = await flow.call('app/consent', clinic.token);
      const back = await flow.browser.open(consent.data.returnTo as string);
      return { code: new URL(back.location!).searchParams.get('code')!, verifier: flow.verifier };
    };
    const exchange = (code: string, verifier: string) =>
      fetch(`${base}/open/portal/auth`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.appCode}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        }),
      });
    // A wrong verifier is the provider's own invalid_grant, never a 500; the code is then spent.
    const first = await codeOf();
    const wrong = await exchange(first.code, 'x'.repeat(43));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');

    const second = await codeOf();
    const res = await exchange(second.code, second.verifier);
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string; token_type: string };
    expect(tokens.token_type).toBe('Bearer');
    expect((await api('case/list', tokens.access_token, { pageNum: 1, pageSize: 10 })).code).toBe(200);
    // Only POST: the address is no page.
    expect((await fetch(`${base}/open/portal/auth`)).status).toBe(404);
  });

  it('activates an app from the one-time link mailed to its developer, who alone sees the secret', async () => {
    const contact = `dev-${Date.now()}@example.test`;
    const created = await h.call('app/create', {
      token: admin.token,
      body: {
        name: 'Mailed App',
        redirectUris: [REDIRECT],
        scopes: ['openid', 'cases:read'],
        contactEmail: contact,
        confidential: true,
        sendActivationLink: true,
      },
    });
    expect(created.code).toBe(200);
    expect(created.data).toMatchObject({ status: 'pending', clientSecret: null, activationSentTo: contact });
    expect(created.data.activationExpiresAt).toBeTruthy();
    const appCode = created.data.appCode as string;

    // Pending: the provider does not know it, and it is neither suspended nor resumed.
    const auth = await fetch(
      `${issuer}/auth?client_id=${appCode}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    expect(auth.status).toBe(400);
    for (const path of ['app/suspend', 'app/resume']) {
      const refused = await h.call(path, { token: admin.token, body: { appCode } });
      expect(refused.code).toBe(2097);
    }

    // A new link replaces the first: the first stops working.
    const first = await linkFromOutbox(h.db, contact, '/activate-app/');
    const resent = await h.call('app/sendActivation', { token: admin.token, body: { appCode } });
    expect(resent.code).toBe(200);
    const sign = await linkFromOutbox(h.db, contact, '/activate-app/');
    expect(sign).not.toBe(first);
    expect((await h.call('app/activation', { body: { sign: first } })).code).toBe(2021);

    const shown = await h.call('app/activation', { body: { sign } });
    expect(shown.code).toBe(200);
    expect(shown.data).toMatchObject({ appName: 'Mailed App', confidential: true, redirectUris: [REDIRECT] });
    const activated = await h.call('app/activate', { body: { sign } });
    expect(activated.code).toBe(200);
    expect(activated.data.appCode).toBe(appCode);
    expect(activated.data.clientSecret).toMatch(/^cs_/);
    // One time only; the app is active and its secret is the one shown.
    expect((await h.call('app/activate', { body: { sign } })).code).toBe(2021);
    const again = await h.call('app/sendActivation', { token: admin.token, body: { appCode } });
    expect(again.code).toBe(2097);
    const ready = await configFor({ appCode, clientSecret: activated.data.clientSecret as string });
    const flow = await authorize(ready, clinic, { par: true, scope: 'openid cases:read' });
    const tokens = await finish(ready, flow, clinic);
    expect(tokens.access_token).toBeTruthy();
  });

  it('refuses an expired, unknown or malformed activation link, changing nothing', async () => {
    const contact = `late-${Date.now()}@example.test`;
    const created = await h.call('app/create', {
      token: admin.token,
      body: {
        name: 'Late App',
        redirectUris: [REDIRECT],
        scopes: ['openid'],
        contactEmail: contact,
        sendActivationLink: true,
      },
    });
    const sign = await linkFromOutbox(h.db, contact, '/activate-app/');
    await h.db.query(`UPDATE oauth_apps SET activation_expires_at = now() - interval '1 second' WHERE code = $1`, [
      created.data.appCode,
    ]);
    expect((await h.call('app/activation', { body: { sign } })).code).toBe(2020);
    expect((await h.call('app/activate', { body: { sign } })).code).toBe(2020);
    expect((await h.call('app/activate', { body: { sign: 'nope' } })).code).toBe(2021);
    const empty = await h.call('app/activate', { body: { sign: '' } });
    expect(empty.code).toBe(400);
    expect(JSON.stringify(empty)).toContain('sign');
    const [row] = await h.db.query<{ status: string }>('SELECT status FROM oauth_apps WHERE code = $1', [
      created.data.appCode,
    ]);
    expect(row!.status).toBe('pending');
  });

  it('opens an app at its registered launch address, with the issuer and the user, and nowhere else', async () => {
    const bad = await h.call('app/create', {
      token: admin.token,
      body: {
        name: 'X',
        redirectUris: [REDIRECT],
        scopes: ['openid'],
        contactEmail: 'a@example.test',
        launchUrl: 'javascript:alert(1)',
      },
    });
    expect(bad.code).toBe(400);
    expect(JSON.stringify(bad)).toContain('launchUrl');
    const app = await registerApp({ name: 'Launchable', launchUrl: 'http://127.0.0.1:9/start?from=portal' });
    const launched = await h.call('app/launch', { token: clinic.token, body: { appCode: app.appCode } });
    expect(launched.code).toBe(200);
    const url = new URL(launched.data.url as string);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9/start');
    expect(url.searchParams.get('from')).toBe('portal');
    expect(url.searchParams.get('iss')).toBe(issuer);
    expect(url.searchParams.get('login_hint')).toBe(clinic.account);
    expect(launched.data.appName).toBe('Launchable');

    // Own space offers "Open" for an authorized app with a launch address.
    const config = await configFor(app);
    await finish(config, await authorize(config, clinic, { scope: 'openid' }), clinic);
    const listed = await h.call('user/authApp/list', { token: clinic.token });
    const entry = (listed.data.list as Array<{ appName: string; launchClientId: string | null }>).find(
      (a) => a.appName === 'Launchable',
    );
    expect(entry!.launchClientId).toBe(app.appCode);

    // No launch address, removed, suspended or unknown: nothing to open.
    await h.call('app/edit', { token: admin.token, body: { appCode: app.appCode, launchUrl: '' } });
    expect((await h.call('app/launch', { token: clinic.token, body: { appCode: app.appCode } })).code).toBe(404);
    expect((await h.call('app/launch', { token: clinic.token, body: { appCode: 'app_nope' } })).code).toBe(404);
  });

  it('deletes expired provider rows in housekeeping', async () => {
    await h.db.query(
      `INSERT INTO oauth_models (kind, id, payload, expires_at) VALUES ('AccessToken', 'old', '{}', now() - interval '1 minute')`,
    );
    await h.app.housekeeping.run('oauthCleanup');
    const [left] = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM oauth_models WHERE id = 'old'`);
    expect(Number(left!.n)).toBe(0);
  });
});
