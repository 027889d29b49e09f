import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, PASSWORD, snapshot, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('user info and own account', () => {
  it('returns the user with organization, role and the tooth numbering system', async () => {
    const u = await createUser(h.db, { orgType: OrgType.Lab });
    const t = await login(h, u.account);
    const info = await h.call('user/info', { token: t.accessToken });
    expect(info.data).toMatchObject({
      account: u.account,
      userType: 3,
      toothNumberingSystem: 'fdi',
      role: { code: 'lab_admin' },
      organization: { type: 3 },
    });
    expect(
      (
        await h.call('user/setToothNumberingSystem', {
          token: t.accessToken,
          body: { toothNumberingSystem: 'universal' },
        })
      ).data.toothNumberingSystem,
    ).toBe('universal');
    // Anything but 'universal' is FDI.
    expect(
      (await h.call('user/setToothNumberingSystem', { token: t.accessToken, body: { toothNumberingSystem: 'palmer' } }))
        .data.toothNumberingSystem,
    ).toBe('fdi');
  });

  it('updates own info and validates it', async () => {
    const u = await createUser(h.db);
    const other = await createUser(h.db, { phone: '+1 415 555 0199' });
    void other;
    const t = await login(h, u.account);
    const res = await h.call('user/update', {
      token: t.accessToken,
      body: { displayName: 'Dr. New', language: 'fr', gender: '2', receiveEmail: 'false' },
    });
    expect(res.data).toMatchObject({ displayName: 'Dr. New', language: 'fr', gender: 2, receiveEmail: false });
    const before = await snapshot(h.db);
    expect((await h.call('user/update', { token: t.accessToken, body: { gender: 3 } })).data.field).toBe('gender');
    expect((await h.call('user/update', { token: t.accessToken, body: { language: 'klingon' } })).data.field).toBe(
      'language',
    );
    expect((await h.call('user/update', { token: t.accessToken, body: { phone: '+1 415 555 0199' } })).code).toBe(1009);
    expect(await snapshot(h.db)).toBe(before);
  });

  it('changes the password with the old one and ends the other sessions', async () => {
    const u = await createUser(h.db);
    const a = await login(h, u.account);
    const b = await login(h, u.account);
    expect(
      (
        await h.call('user/changePass', {
          token: a.accessToken,
          body: { oldPassword: 'Wrong#1234', password: 'Next#Pass2026', confirmPassword: 'Next#Pass2026' },
        })
      ).code,
    ).toBe(1004);
    expect(
      (
        await h.call('user/changePass', {
          token: a.accessToken,
          body: { oldPassword: PASSWORD, password: PASSWORD, confirmPassword: PASSWORD },
        })
      ).code,
    ).toBe(1021);
    expect(
      (
        await h.call('user/changePass', {
          token: a.accessToken,
          body: { oldPassword: PASSWORD, password: 'Next#Pass2026', confirmPassword: 'Next#Pass2026' },
        })
      ).code,
    ).toBe(200);
    expect((await h.call('user/info', { token: a.accessToken })).code).toBe(200);
    expect((await h.call('user/info', { token: b.accessToken })).code).toBe(402);
  });

  it('holds a user flagged forceChangePassword to that one task until done', async () => {
    const u = await createUser(h.db, { forceChangePassword: true });
    const t = await login(h, u.account);
    expect((await h.call('user/info', { token: t.accessToken })).data.forceChangePassword).toBe(true);
    expect((await h.call('permission/listUserMenu', { token: t.accessToken })).code).toBe(200);
    const blocked = await h.call('user/update', { token: t.accessToken, body: { nickname: 'x' } });
    expect([blocked.code, blocked.data.forceChangePassword]).toEqual([1002, true]);
    expect(
      (
        await h.call('user/forceChangePass', {
          token: t.accessToken,
          body: { password: PASSWORD, confirmPassword: PASSWORD },
        })
      ).code,
    ).toBe(1021);
    expect(
      (
        await h.call('user/forceChangePass', {
          token: t.accessToken,
          body: { password: 'Brand#New2026', confirmPassword: 'Brand#New2026' },
        })
      ).code,
    ).toBe(200);
    expect((await h.call('user/info', { token: t.accessToken })).data.forceChangePassword).toBe(false);
    expect((await h.call('user/update', { token: t.accessToken, body: { nickname: 'x' } })).code).toBe(200);
    // Not flagged any more: the forced change is refused.
    expect(
      (
        await h.call('user/forceChangePass', {
          token: t.accessToken,
          body: { password: 'Other#New2026', confirmPassword: 'Other#New2026' },
        })
      ).code,
    ).toBe(1002);
  });
});

describe('agreements', () => {
  it('lists unread agreements and records acceptance', async () => {
    const u = await createUser(h.db, { agreementsRead: false });
    const t = await login(h, u.account);
    const unread = await h.call('user/queryUserAgreementReadLog', { token: t.accessToken });
    expect(unread.data.unread.map((a: { agreementType: string }) => a.agreementType)).toEqual([
      'cookie',
      'privacy',
      'terms',
    ]);
    expect(unread.data.unread[0].url).toMatch(/^http:\/\/portal\.test\/legal\//);
    // Never accepted any: the first sign-in asks to accept them, not to accept updated ones.
    expect(unread.data.firstTime).toBe(true);
    expect(
      (
        await h.call('user/saveUserAgreementReadLog', {
          token: t.accessToken,
          form: { agreementType: 'privacy,terms' },
        })
      ).code,
    ).toBe(200);
    expect(
      (await h.call('user/queryUserAgreementReadLog', { token: t.accessToken })).data.unread.map(
        (a: { agreementType: string }) => a.agreementType,
      ),
    ).toEqual(['cookie']);
    expect((await h.call('user/queryUserAgreementReadLog', { token: t.accessToken })).data.firstTime).toBe(false);
    const before = await snapshot(h.db);
    const bad = await h.call('user/saveUserAgreementReadLog', {
      token: t.accessToken,
      body: { agreementType: 'privacy,lunch' },
    });
    expect([bad.code, bad.data.field]).toEqual([400, 'agreementType']);
    expect(await snapshot(h.db)).toBe(before);
    // A new version must be read again.
    await h.call('user/saveUserAgreementReadLog', { token: t.accessToken, body: { agreementType: 'cookie' } });
    await h.db.query(`UPDATE agreements SET version = 2 WHERE type = 'terms'`);
    const updated = await h.call('user/queryUserAgreementReadLog', { token: t.accessToken });
    expect([updated.data.unread.length, updated.data.firstTime]).toEqual([1, false]);
    await h.db.query(`UPDATE agreements SET version = 1 WHERE type = 'terms'`);
    expect((await h.call('user/queryUserAgreementReadLog', { token: t.accessToken })).data).toEqual({
      unread: [],
      firstTime: false,
    });
  });
});

describe('menus and permissions', () => {
  it('gives each organization type its menu; the super administrator holds the wildcard', async () => {
    const clinic = await createUser(h.db);
    const admin = await createUser(h.db, { orgType: OrgType.Inner });
    const c = await h.call('permission/listUserMenu', { token: (await login(h, clinic.account)).accessToken });
    expect(c.data.menus.map((m: { code: string }) => m.code)).toEqual([
      'dashboard',
      'cases',
      'orders',
      'partners',
      'chat',
      'account',
      'recycleBin',
      'ownSpace',
    ]);
    // The case detail screen hangs under Cases, hidden from the sidebar.
    expect(c.data.menus[1].children.find((m: { code: string }) => m.code === 'caseDetail')).toMatchObject({
      showFlag: false,
      path: '/case-management/detail/:id',
    });
    expect(c.data.permissions).toEqual([
      'app:audit',
      'audit:read',
      'case:edit',
      'case:view',
      'chat:export',
      'chat:send',
      'chat:view',
      'company:close',
      'company:edit',
      'contact:manage',
      'dashboard:view',
      'device:edit',
      'device:view',
      'order:cancel',
      'order:complete',
      'order:create',
      'order:export',
      'order:view',
      'ownspace:view',
      'partner:edit',
      'partner:view',
      'patient:erase',
      'report:edit',
      'report:view',
      'role:edit',
      'role:view',
      'share:manage',
      'user:edit',
      'user:view',
      'webhook:manage',
    ]);
    const dealer = await createUser(h.db, { orgType: OrgType.Dealer });
    const d = await h.call('permission/listUserMenu', { token: (await login(h, dealer.account)).accessToken });
    expect(d.data.menus.map((m: { code: string }) => m.code)).toEqual(['dashboard', 'account', 'ownSpace']);
    const a = await h.call('permission/listUserMenu', { token: (await login(h, admin.account)).accessToken });
    const account = a.data.menus.find((m: { code: string }) => m.code === 'account');
    expect(account.children.map((m: { component: string }) => m.component)).toEqual([
      'userList',
      'organizationReview',
      'roleList',
      'outbox',
      'updateLog',
      'appRegister',
    ]);
    expect(a.data.permissions).toContain('*:*:*');
  });

  it('refuses calls the role lacks with 1002', async () => {
    const clinic = await createUser(h.db);
    const t = await login(h, clinic.account);
    for (const path of ['company/listReview', 'mail/listOutbox', 'company/review']) {
      const res = await h.call(path, { token: t.accessToken, body: { organizationCode: 'x', approve: true } });
      expect([res.status, res.code], path).toEqual([403, 1002]);
    }
  });
});

describe('administrator password reset', () => {
  it('gives a temporary password that forces a change, ends sessions, and needs the admin password', async () => {
    const admin = await createUser(h.db, { orgType: OrgType.Inner });
    const u = await createUser(h.db);
    const [{ user_code: code }] = (await h.db.query<{ user_code: string }>(
      'SELECT user_code FROM users WHERE id = $1',
      [u.userId],
    )) as [{ user_code: string }];
    const userSession = await login(h, u.account);
    const t = await login(h, admin.account);
    expect((await h.call('user/resetPass', { token: t.accessToken, body: { userCode: code } })).code).toBe(1074);
    // The user is their organization's administrator, but nobody resets their own password this way.
    await h.call('user/checkIdentity', { token: userSession.accessToken, body: { password: PASSWORD } });
    const before = await snapshot(h.db);
    expect((await h.call('user/resetPass', { token: userSession.accessToken, body: { userCode: code } })).code).toBe(
      2044,
    );
    expect(await snapshot(h.db)).toBe(before);
    await h.call('user/checkIdentity', { token: t.accessToken, body: { password: PASSWORD } });
    expect((await h.call('user/resetPass', { token: t.accessToken, body: { userCode: 'unome' } })).code).toBe(404);
    const res = await h.call('user/resetPass', { token: t.accessToken, body: { userCode: code } });
    expect(res.code).toBe(200);
    expect(res.data.temporaryPassword).toHaveLength(12);
    expect((await h.call('user/info', { token: userSession.accessToken })).code).toBe(402);
    expect((await h.call('login', { body: { account: u.account, password: PASSWORD } })).code).toBe(1004);
    const fresh = await login(h, u.account, res.data.temporaryPassword);
    expect((await h.call('user/info', { token: fresh.accessToken })).data.forceChangePassword).toBe(true);
    const [mail] = await h.db.query<{ body_text: string }>('SELECT body_text FROM mail_outbox WHERE to_address = $1', [
      u.email,
    ]);
    expect(mail!.body_text).not.toContain(res.data.temporaryPassword);
  });
});
