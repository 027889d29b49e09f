import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, linkFromOutbox, login, PASSWORD, snapshot, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

let n = 0;
function clinicForm(over: Record<string, unknown> = {}) {
  n += 1;
  return {
    orgType: 'clinic',
    region: 'eu',
    organizationName: `Smile ${n}`,
    account: `smile${n}x`,
    email: `smile${n}@example.test`,
    displayName: 'Dr Smile',
    password: PASSWORD,
    confirmPassword: PASSWORD,
    language: 'en',
    agreePrivacy: true,
    agreeCookie: true,
    agreeTerms: true,
    ...over,
  };
}
function labForm(over: Record<string, unknown> = {}) {
  return {
    ...clinicForm(),
    orgType: 3,
    organizationName: `Lab ${n}`,
    licenseCode: 'LIC-1',
    representativeName: 'Ann Lab',
    country: 'DE',
    city: 'Berlin',
    ...over,
  };
}

describe('registration', () => {
  it('checks whether an account name exists', async () => {
    const u = await createUser(h.db);
    expect((await h.call('user/checkUsernameExist', { body: { account: u.account.toUpperCase() } })).data.exists).toBe(
      true,
    );
    expect((await h.call('user/checkUsernameExist', { form: { account: 'free-name-1' } })).data.exists).toBe(false);
    expect((await h.call('user/checkUsernameExist', { body: { account: 'a b' } })).code).toBe(400);
  });

  it('registers a clinic (form-encoded), mails the link, activates on confirmation', async () => {
    const form = clinicForm();
    const res = await h.call('user/regist', {
      form: Object.fromEntries(Object.entries(form).map(([k, v]) => [k, String(v)])),
    });
    expect(res.code).toBe(200);
    expect(res.data.orgType).toBe(OrgType.Clinic);
    expect((await h.call('login', { body: { account: form.account, password: PASSWORD } })).code).toBe(1019);
    const token = await linkFromOutbox(h.db, form.email, '/email-verify/');
    const confirmed = await h.call('user/email.confirm', { body: { id: token } });
    expect(confirmed.data).toEqual({ orgType: 2, reviewStatus: 1, account: form.account });
    const t = await login(h, form.account);
    const info = await h.call('user/info', { token: t.accessToken });
    expect(info.data.organization).toMatchObject({ type: 2, region: 'eu', name: form.organizationName });
    // Used links are invalid.
    expect((await h.call('user/email.confirm', { body: { id: token } })).code).toBe(2021);
    // The agreements ticked at registration are read.
    expect((await h.call('user/queryUserAgreementReadLog', { token: t.accessToken })).data.unread).toEqual([]);
  });

  it('keeps a laboratory pending after confirmation until a super administrator approves it', async () => {
    const admin = await createUser(h.db, { orgType: OrgType.Inner });
    const form = labForm();
    expect((await h.call('company/companyRegist', { body: form })).code).toBe(200);
    const token = await linkFromOutbox(h.db, form.email, '/email-verify/');
    expect((await h.call('user/email.confirm', { body: { id: token } })).data.reviewStatus).toBe(0);
    // The super administrators hear of it.
    const notice = await h.db.query(
      `SELECT 1 FROM mail_outbox WHERE to_address = $1 AND subject LIKE '%waiting for review%'`,
      [admin.email],
    );
    expect(notice).toHaveLength(1);
    expect((await h.call('login', { body: { account: form.account, password: PASSWORD } })).code).toBe(1016);

    const t = await login(h, admin.account);
    const list = await h.call('company/listReview', { token: t.accessToken, body: { reviewStatus: 0 } });
    const entry = list.data.list.find((l: { adminAccount: string }) => l.adminAccount === form.account);
    expect(entry).toMatchObject({ licenseCode: 'LIC-1', city: 'Berlin', emailConfirmed: true, reviewStatus: 0 });
    await h.call('user/checkIdentity', { token: t.accessToken, body: { password: PASSWORD } });
    expect(
      (
        await h.call('company/review', {
          token: t.accessToken,
          body: { organizationCode: entry.organizationCode, approve: true },
        })
      ).code,
    ).toBe(200);
    const mail = await h.db.query<{ subject: string }>(
      'SELECT subject FROM mail_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1',
      [form.email],
    );
    expect(mail[0]!.subject).toContain('approved');
    expect((await h.call('login', { body: { account: form.account, password: PASSWORD } })).code).toBe(200);
    // Decided once.
    expect(
      (
        await h.call('company/review', {
          token: t.accessToken,
          body: { organizationCode: entry.organizationCode, approve: false, reason: 'x' },
        })
      ).code,
    ).toBe(1020);
  });

  it('rejects a laboratory with a reason, mails the reason, and refuses sign-in', async () => {
    const admin = await createUser(h.db, { orgType: OrgType.Inner });
    const form = labForm({ language: 'de' });
    await h.call('company/companyRegist', { body: form });
    await h.call('user/email.confirm', { body: { id: await linkFromOutbox(h.db, form.email, '/email-verify/') } });
    const t = await login(h, admin.account);
    await h.call('user/checkIdentity', { token: t.accessToken, body: { password: PASSWORD } });
    const entry = (await h.call('company/listReview', { token: t.accessToken, body: {} })).data.list.find(
      (l: { adminAccount: string }) => l.adminAccount === form.account,
    );
    const noReason = await h.call('company/review', {
      token: t.accessToken,
      body: { organizationCode: entry.organizationCode, approve: false },
    });
    expect([noReason.code, noReason.data.field]).toEqual([400, 'reason']);
    const res = await h.call('company/review', {
      token: t.accessToken,
      body: { organizationCode: entry.organizationCode, approve: false, reason: 'Licence could not be verified' },
    });
    expect(res.code).toBe(200);
    const [mail] = await h.db.query<{ body_text: string; language: string }>(
      'SELECT body_text, language FROM mail_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1',
      [form.email],
    );
    expect(mail!.body_text).toContain('Licence could not be verified');
    expect(mail!.language).toBe('de');
    expect((await h.call('login', { body: { account: form.account, password: PASSWORD } })).code).toBe(1017);
    const rejectedList = await h.call('company/listReview', { token: t.accessToken, body: { reviewStatus: 2 } });
    expect(rejectedList.data.list.some((l: { adminAccount: string }) => l.adminAccount === form.account)).toBe(true);
  });

  it('refuses bad registrations with the right code and field, changing nothing', async () => {
    const taken = await createUser(h.db, { phone: '+44 20 7946 0000' });
    const before = await snapshot(h.db);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [clinicForm({ agreeCookie: false }), 1015, 'agreeCookie'],
      [clinicForm({ password: 'short1A', confirmPassword: 'short1A' }), 1011, 'password'],
      [clinicForm({ password: 'alllowercase1', confirmPassword: 'alllowercase1' }), 1011, 'password'],
      [clinicForm({ password: 'Valid#Pass1ü', confirmPassword: 'Valid#Pass1ü' }), 1011, 'password'],
      [clinicForm({ confirmPassword: 'Other#2026x' }), 1012, 'confirmPassword'],
      [clinicForm({ account: taken.account }), 1007, 'account'],
      [clinicForm({ email: taken.email.toUpperCase() }), 1008, 'email'],
      [clinicForm({ phone: '+44 20 7946 0000' }), 1009, 'phone'],
      [clinicForm({ region: 'mars' }), 400, 'region'],
      [clinicForm({ orgType: 5 }), 400, 'orgType'],
      [clinicForm({ email: 'not-an-email' }), 400, 'email'],
      [clinicForm({ organizationName: 'x'.repeat(129) }), 400, 'organizationName'],
      [clinicForm({ displayName: undefined }), 400, 'displayName'],
      [clinicForm({ language: 'xx' }), 400, 'language'],
    ];
    for (const [body, code, field] of cases) {
      const res = await h.call('user/regist', { body });
      expect([res.code, res.data?.field], JSON.stringify(body)).toEqual([code, field]);
    }
    const labMissing = await h.call('company/companyRegist', { body: labForm({ licenseCode: undefined }) });
    expect([labMissing.code, labMissing.data.field]).toEqual([400, 'licenseCode']);
    expect(await snapshot(h.db)).toBe(before);
  });

  it('names the failing password checks', async () => {
    const res = await h.call('user/regist', { body: clinicForm({ password: 'abc', confirmPassword: 'abc' }) });
    expect(res.data).toMatchObject({ field: 'password', len: false, exclude: true, include: false });
  });

  it('resends confirmation links; expired links answer 2020', async () => {
    const form = clinicForm();
    await h.call('user/regist', { body: form });
    const first = await linkFromOutbox(h.db, form.email, '/email-verify/');
    expect((await h.call('user/email/resendConfirm', { body: { email: form.email } })).code).toBe(200);
    const second = await linkFromOutbox(h.db, form.email, '/email-verify/');
    expect(second).not.toBe(first);
    // A new link replaces the old one.
    expect((await h.call('user/email.confirm', { body: { id: first } })).code).toBe(2021);
    expect((await h.call('user/resend_activate', { body: { account: form.account } })).code).toBe(200);
    const third = await linkFromOutbox(h.db, form.email, '/email-verify/');
    await h.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'confirm_email' AND used_at IS NULL`,
    );
    const expired = await h.call('user/email.confirm', { body: { id: third } });
    expect([expired.status, expired.code, expired.msg]).toEqual([410, 2020, 'The link has expired']);
    expect((await h.call('user/email.confirm', { body: { id: 'garbage' } })).msg).toBe('Invalid link');
    expect((await h.call('user/email/resendConfirm', { body: { email: 'nobody@example.test' } })).code).toBe(1003);
    const active = await createUser(h.db);
    expect((await h.call('user/resend_activate', { body: { account: active.account } })).code).toBe(1018);
  });

  it('never lets the region change', async () => {
    const u = await createUser(h.db);
    await expect(
      h.db.query(`UPDATE organizations SET region = 'uk' WHERE id = $1`, [u.organizationId]),
    ).rejects.toThrow(/region_immutable/);
  });
});
