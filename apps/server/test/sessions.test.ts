import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { buildApp } from '../src/app.js';
import { createHarness, createUser, login, PASSWORD, snapshot, type Harness } from './harness.js';

/**
 * Another process hears of a change through a PostgreSQL notification, which arrives a moment after
 * the commit; this waits up to a second for the expected code.
 */
async function codeSoon(call: () => Promise<{ code: number }>, expected: number): Promise<number> {
  let code = 0;
  for (let i = 0; i < 50; i++) {
    code = (await call()).code;
    if (code === expected) return code;
    await new Promise((r) => setTimeout(r, 20));
  }
  return code;
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('sessions', () => {
  it('reads the access token from the info header or Authorization: Bearer; none is 401', async () => {
    const u = await createUser(h.db);
    const { accessToken } = await login(h, u.account);
    expect((await h.call('user/info', { token: accessToken })).data.account).toBe(u.account);
    const bearer = await h.app.inject({
      method: 'POST',
      url: '/api/v2/user/info',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(bearer.json().data.account).toBe(u.account);
    const none = await h.call('user/info');
    expect([none.status, none.code]).toEqual([401, 401]);
    const forged = await h.call('user/info', { token: `${accessToken.slice(0, -4)}AAAA` });
    expect(forged.code).toBe(401);
  });

  it('rotates refresh tokens; a retired one revokes the whole session', async () => {
    const u = await createUser(h.db);
    const first = await login(h, u.account);
    const second = await h.call('user/refresh_token', { body: { refreshToken: first.refreshToken } });
    expect(second.code).toBe(200);
    expect(second.data.refreshToken).not.toBe(first.refreshToken);
    // Within a few seconds the retired token answers the same new refresh token (two tabs refreshing at once).
    const race = await h.call('user/refresh_token', { body: { refreshToken: first.refreshToken } });
    expect(race.data.refreshToken).toBe(second.data.refreshToken);
    // Replaying it later: refused, and the session with its newest tokens ends.
    await h.db.query(`UPDATE refresh_tokens SET retired_at = retired_at - interval '1 minute'`);
    const replay = await h.call('user/refresh_token', { body: { refreshToken: first.refreshToken } });
    expect([replay.status, replay.code]).toEqual([401, 1013]);
    const after = await h.call('user/refresh_token', { body: { refreshToken: second.data.refreshToken } });
    expect(after.code).toBe(1013);
    const info = await h.call('user/info', { token: second.data.accessToken });
    expect(info.code).toBe(402);
  });

  it('an unknown refresh token changes nothing', async () => {
    const before = await snapshot(h.db);
    const res = await h.call('user/refresh_token', { body: { refreshToken: 'not-a-real-token' } });
    expect(res.code).toBe(1013);
    expect(await snapshot(h.db)).toBe(before);
    const missing = await h.call('user/refresh_token', { body: {} });
    expect([missing.code, missing.data.field]).toEqual([400, 'refreshToken']);
  });

  it('logout revokes the session and its refresh token', async () => {
    const u = await createUser(h.db);
    const t = await login(h, u.account);
    expect((await h.call('user/logout', { token: t.accessToken })).code).toBe(200);
    expect((await h.call('user/info', { token: t.accessToken })).code).toBe(402);
    expect((await h.call('user/refresh_token', { body: { refreshToken: t.refreshToken } })).code).toBe(1013);
  });

  it('expired access tokens answer 401 and are refreshed with the refresh token', async () => {
    const short = await createHarness({ ACCESS_TOKEN_TTL_SECONDS: '5' });
    try {
      const u = await createUser(short.db);
      const t = await login(short, u.account);
      await new Promise((r) => setTimeout(r, 6_000));
      expect((await short.call('user/info', { token: t.accessToken })).status).toBe(401);
      const next = await short.call('user/refresh_token', { body: { refreshToken: t.refreshToken } });
      expect((await short.call('user/info', { token: next.data.accessToken })).code).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('renews the access token past half its life (sliding session)', async () => {
    const short = await createHarness({ ACCESS_TOKEN_TTL_SECONDS: '6' });
    try {
      const u = await createUser(short.db);
      const t = await login(short, u.account, PASSWORD, false);
      const early = await short.call('user/info', { token: t.accessToken });
      expect(early.headers['x-access-token']).toBeUndefined();
      await new Promise((r) => setTimeout(r, 4_000));
      const late = await short.call('user/info', { token: t.accessToken });
      expect(late.headers['x-access-token']).toMatch(/^ey/);
    } finally {
      await short.close();
    }
  });

  it('free-login signs are one-time', async () => {
    const u = await createUser(h.db);
    const t = await login(h, u.account);
    const sign = (await h.call('user/free-login/sign', { token: t.accessToken })).data.sign as string;
    const first = await h.call('user/free-login', { body: { sign } });
    expect(first.code).toBe(200);
    expect(first.data.refreshToken).toBe('');
    expect((await h.call('user/info', { token: first.data.accessToken })).data.account).toBe(u.account);
    const again = await h.call('user/free-login', { body: { sign } });
    expect(again.code).toBe(2021);
    const expiredSign = (await h.call('user/free-login/sign', { token: t.accessToken })).data.sign as string;
    await h.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'free_login' AND used_at IS NULL`,
    );
    expect((await h.call('user/free-login', { body: { sign: expiredSign } })).code).toBe(2020);
  });

  it('ends sessions promptly when the user or the organization is disabled, even by plain SQL', async () => {
    const u = await createUser(h.db);
    const t = await login(h, u.account);
    expect((await h.call('user/info', { token: t.accessToken })).code).toBe(200); // now held in memory
    await h.db.query('UPDATE users SET status = 2 WHERE id = $1', [u.userId]);
    expect(await codeSoon(() => h.call('user/info', { token: t.accessToken }), 402)).toBe(402);
    const v = await createUser(h.db);
    const t2 = await login(h, v.account);
    expect((await h.call('user/info', { token: t2.accessToken })).code).toBe(200);
    await h.db.query('UPDATE organizations SET status = 2 WHERE id = $1', [v.organizationId]);
    expect(await codeSoon(() => h.call('user/info', { token: t2.accessToken }), 1006)).toBe(1006);
  });

  it('a logout through one process ends the session in every other process at once', async () => {
    const second = await buildApp({ config: h.config, db: h.db, serveWeb: false, logger: false });
    await second.ready();
    try {
      const u = await createUser(h.db);
      const t = await login(h, u.account);
      const infoOnSecond = () =>
        second
          .inject({ method: 'POST', url: '/api/v2/user/info', headers: { authorization: `Bearer ${t.accessToken}` } })
          .then((r) => ({ code: r.json().code as number }));
      expect((await infoOnSecond()).code).toBe(200);
      expect((await h.call('user/logout', { token: t.accessToken })).code).toBe(200);
      expect(await codeSoon(infoOnSecond, 402)).toBe(402);
    } finally {
      await second.close();
    }
  });
});

describe('sensitive actions', () => {
  it('need the current password, then not again for 15 minutes; enforced by the server', async () => {
    const admin = await createUser(h.db, { orgType: OrgType.Inner });
    const lab = await createUser(h.db, { orgType: OrgType.Lab, reviewStatus: 0 });
    const [org] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
      lab.organizationId,
    ]);
    const t = await login(h, admin.account);
    const before = await snapshot(h.db);
    const blocked = await h.call('company/review', {
      token: t.accessToken,
      body: { organizationCode: org!.code, approve: true },
    });
    expect([blocked.status, blocked.code]).toEqual([403, 1014]);
    expect(await snapshot(h.db)).toBe(before);
    const wrong = await h.call('user/checkIdentity', { token: t.accessToken, body: { password: 'Nope#12345' } });
    expect(wrong.code).toBe(1004);
    const right = await h.call('user/checkIdentity', { token: t.accessToken, body: { password: PASSWORD } });
    expect(right.code).toBe(200);
    const minutes = (new Date(right.data.validUntil).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14.5);
    expect(minutes).toBeLessThanOrEqual(15.01);
    expect(
      (await h.call('company/review', { token: t.accessToken, body: { organizationCode: org!.code, approve: true } }))
        .code,
    ).toBe(200);
    // The grace belongs to the session: another session of the same user is asked again.
    const other = await login(h, admin.account);
    const lab2 = await createUser(h.db, { orgType: OrgType.Lab, reviewStatus: 0 });
    const [org2] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
      lab2.organizationId,
    ]);
    expect(
      (
        await h.call('company/review', {
          token: other.accessToken,
          body: { organizationCode: org2!.code, approve: true },
        })
      ).code,
    ).toBe(1014);
  });
});
