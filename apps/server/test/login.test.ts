import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgStatus, OrgType, ReviewStatus, UserStatus } from '@portal/contracts';
import { createHarness, createUser, PASSWORD, snapshot, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('login', () => {
  it('signs in by account name, email or phone; the refresh token is empty unless saveLogin', async () => {
    const u = await createUser(h.db, { phone: '+1 415 555 0100' });
    const byAccount = await h.call('login', { form: { account: u.account, password: PASSWORD, saveLogin: 'true' } });
    expect(byAccount.code).toBe(200);
    expect(byAccount.data.accessToken).toMatch(/^ey/);
    expect(byAccount.data.refreshToken.length).toBeGreaterThan(30);
    const byEmail = await h.call('login', { body: { account: u.email.toUpperCase(), password: PASSWORD } });
    expect(byEmail.code).toBe(200);
    expect(byEmail.data.refreshToken).toBe('');
    const byPhone = await h.call('login', {
      body: { account: '+1 415 555 0100', password: PASSWORD, saveLogin: false },
    });
    expect(byPhone.code).toBe(200);
  });

  it('validates fields by schema, naming the field, and changes nothing', async () => {
    const before = await snapshot(h.db);
    const missing = await h.call('login', { body: { password: 'x' } });
    expect([missing.status, missing.code, missing.data.field]).toEqual([400, 400, 'account']);
    expect(missing.msg).toContain('Cannot be null');
    const wrongType = await h.call('login', { body: { account: 'a', password: 'b', saveLogin: 'maybe' } });
    expect([wrongType.code, wrongType.data.field]).toEqual([400, 'saveLogin']);
    const tooLong = await h.call('login', { body: { account: 'a'.repeat(300), password: 'b' } });
    expect([tooLong.code, tooLong.data.field]).toEqual([400, 'account']);
    expect(tooLong.msg).toContain('254');
    expect(await snapshot(h.db)).toBe(before);
  });

  it("answers 'This account doesn't exist' and 'Invalid password'", async () => {
    const u = await createUser(h.db);
    const none = await h.call('login', { body: { account: 'ghost-account', password: PASSWORD } });
    expect([none.status, none.code, none.msg]).toEqual([400, 1003, "This account doesn't exist"]);
    const bad = await h.call('login', { body: { account: u.account, password: 'Wrong#1234' } });
    expect([bad.code, bad.msg]).toEqual([1004, 'Invalid password']);
    expect(bad.data).toEqual({ failures: 1, captchaRequired: false });
  });

  it('requires a captcha after 3 failures, refuses a wrong one, accepts a right one', async () => {
    const u = await createUser(h.db);
    for (let i = 0; i < 3; i++) await h.call('login', { body: { account: u.account, password: 'Wrong#1234' } });
    const need = await h.call('login', { body: { account: u.account, password: PASSWORD } });
    expect(need.code).toBe(1010);
    expect(need.data.captchaRequired).toBe(true);
    const init = await h.call('common/captcha/init', { method: 'GET' });
    const wrong = await h.call('login', {
      body: { account: u.account, password: PASSWORD, captchaId: init.data.captchaId, captchaCode: 'zzzz' },
    });
    expect(wrong.code).toBe(3002);
    // A captcha answers one attempt only.
    const init2 = await h.call('common/captcha/init', { method: 'GET' });
    const [row] = await h.db.query<{ answer: string }>('SELECT answer FROM captchas WHERE id = $1', [
      init2.data.captchaId,
    ]);
    const right = await h.call('login', {
      body: {
        account: u.account,
        password: PASSWORD,
        captchaId: init2.data.captchaId,
        captchaCode: row!.answer.toUpperCase(),
      },
    });
    expect(right.code).toBe(200);
    const reused = await h.call('login', {
      body: { account: u.account, password: PASSWORD, captchaId: init2.data.captchaId, captchaCode: row!.answer },
    });
    expect(reused.code).toBe(200); // counter was reset by the success: no captcha needed any more
  });

  it('locks the account after 10 failures (1075), even for the right password', async () => {
    const u = await createUser(h.db);
    await h.db.query('INSERT INTO login_failures (user_id, failures) VALUES ($1, 9)', [u.userId]);
    const init = await h.call('common/captcha/init', { method: 'GET' });
    const [row] = await h.db.query<{ answer: string }>('SELECT answer FROM captchas WHERE id = $1', [
      init.data.captchaId,
    ]);
    const tenth = await h.call('login', {
      body: { account: u.account, password: 'Wrong#1234', captchaId: init.data.captchaId, captchaCode: row!.answer },
    });
    expect(tenth.code).toBe(1075);
    const locked = await h.call('login', { body: { account: u.account, password: PASSWORD } });
    expect([locked.status, locked.code]).toEqual([429, 1075]);
    expect(locked.msg).toMatch(/15/);
  });

  it('tells the status only after the right password', async () => {
    const inactive = await createUser(h.db, { status: UserStatus.Inactivated });
    expect((await h.call('login', { body: { account: inactive.account, password: 'Wrong#1234' } })).code).toBe(1004);
    const r1 = await h.call('login', { body: { account: inactive.account, password: PASSWORD } });
    expect([r1.code, r1.data.account]).toEqual([1019, inactive.account]);
    const disabled = await createUser(h.db, { status: UserStatus.Disabled });
    expect((await h.call('login', { body: { account: disabled.account, password: PASSWORD } })).code).toBe(1005);
    const orgOff = await createUser(h.db, { orgStatus: OrgStatus.Disabled });
    const r3 = await h.call('login', { body: { account: orgOff.account, password: PASSWORD } });
    expect([r3.code, r3.msg]).toEqual([1006, 'The organization has been disabled']);
    const pending = await createUser(h.db, { orgType: OrgType.Lab, reviewStatus: ReviewStatus.Pending });
    expect((await h.call('login', { body: { account: pending.account, password: PASSWORD } })).code).toBe(1016);
    const rejected = await createUser(h.db, { orgType: OrgType.Lab, reviewStatus: ReviewStatus.Rejected });
    expect((await h.call('login', { body: { account: rejected.account, password: PASSWORD } })).code).toBe(1017);
  });

  it('opens no session for a refused sign-in', async () => {
    const u = await createUser(h.db, { status: UserStatus.Disabled });
    await h.call('login', { body: { account: u.account, password: PASSWORD } });
    const rows = await h.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.userId]);
    expect(rows).toHaveLength(0);
  });
});

describe('login rate limit per address', () => {
  it('answers 429 once the per-minute budget is spent', async () => {
    const limited = await createHarness({ LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await limited.call('login', { body: { account: 'ghost', password: 'x' } })).status);
      expect(codes.slice(0, 3)).toEqual([400, 400, 400]);
      expect(codes.slice(3)).toEqual([429, 429]);
      const res = await limited.call('login', { body: { account: 'ghost', password: 'x' } });
      expect(res.code).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
