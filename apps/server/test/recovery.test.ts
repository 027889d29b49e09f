import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, createUser, linkFromOutbox, login, PASSWORD, snapshot, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const NEW_PASSWORD = 'Fresh#Start99';

describe('forgotten password', () => {
  it('mails a one-time link, resets the password, ends every session and lifts a lockout', async () => {
    const u = await createUser(h.db, { email: 'jane.doe@example.test' });
    const old = await login(h, u.account);
    await h.db.query(
      "INSERT INTO login_failures (user_id, failures, locked_until) VALUES ($1, 10, now() + interval '10 minutes')",
      [u.userId],
    );
    const masked = await h.call('user/getChangePassEmail', { body: { account: u.account } });
    expect(masked.data.email).toBe('j***e@example.test');
    const sent = await h.call('user/forgetPass', { form: { account: u.email } });
    expect(sent.data.email).toBe('j***e@example.test');
    const token = await linkFromOutbox(h.db, u.email, '/forget-pass/');
    expect((await h.call('user/forgetPassEmailConfirm', { body: { id: token } })).data.account).toBe(u.account);
    const mismatch = await h.call('user/forgetPassResetPass', {
      body: { id: token, password: NEW_PASSWORD, confirmPassword: 'Other#1234x' },
    });
    expect([mismatch.code, mismatch.msg]).toEqual([1012, "The passwords don't match."]);
    expect(
      (
        await h.call('user/forgetPassResetPass', {
          body: { id: token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        })
      ).code,
    ).toBe(200);
    expect((await h.call('user/info', { token: old.accessToken })).code).toBe(402);
    expect((await h.call('login', { body: { account: u.account, password: PASSWORD } })).code).toBe(1004);
    expect((await h.call('login', { body: { account: u.account, password: NEW_PASSWORD } })).code).toBe(200);
    // One time only.
    const reused = await h.call('user/forgetPassResetPass', {
      body: { id: token, password: 'Another#123', confirmPassword: 'Another#123' },
    });
    expect(reused.code).toBe(2021);
  });

  it('refuses expired and unknown links and unknown accounts, changing nothing', async () => {
    const u = await createUser(h.db);
    await h.call('user/forgetPass', { body: { account: u.account } });
    const token = await linkFromOutbox(h.db, u.email, '/forget-pass/');
    await h.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'`,
    );
    const before = await snapshot(h.db);
    expect((await h.call('user/forgetPassEmailConfirm', { body: { id: token } })).code).toBe(2020);
    expect(
      (
        await h.call('user/forgetPassResetPass', {
          body: { id: token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        })
      ).code,
    ).toBe(2020);
    expect((await h.call('user/forgetPassEmailConfirm', { body: { id: 'nope' } })).code).toBe(2021);
    expect((await h.call('user/forgetPass', { body: { account: 'ghost-user' } })).code).toBe(1003);
    expect((await h.call('user/forgetPass', { body: {} })).data.field).toBe('account');
    expect(await snapshot(h.db)).toBe(before);
  });
});
