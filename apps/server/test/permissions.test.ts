import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { sha256 } from '../src/platform/crypto.js';
import { createHarness, login, PASSWORD, type Harness } from './harness.js';
import { count, member, newCase, partner, side, type Side } from './fixtures.js';
import { stateChanges, stateSnapshot } from './state.js';

/**
 * Permissions kept on every call: share calls by members without the resource's right, roles that cannot raise
 * themselves or others, and the one model of "administrator" (permissions the administrator roles hold).
 */
let h: Harness;
let clinic: Side;
let lab: Side;
let caseCode: string;

beforeAll(async () => {
  h = await createHarness();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  await partner(h, clinic, lab);
  caseCode = await newCase(h, clinic);
});
afterAll(() => h.close());

const outbox = () => count(h, 'mail_outbox');

describe('share calls', () => {
  it('refuse a member without the case right every share call, mailing nothing', async () => {
    const made = await h.call('share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 },
    });
    expect(made.code).toBe(200);
    const staff = await member(h, clinic, OrgType.Clinic, ['dashboard', 'ownSpace']);
    const before = await stateSnapshot(h);
    const shareCode = made.data.shareCode as string;
    const calls: Array<[string, Record<string, unknown>]> = [
      ['share/sendMail', { shareCode, email: 'anyone@example.test', language: 'en' }],
      ['share/accessLog', { shareCode }],
      ['share/revoke', { shareCode }],
      ['share/list', { resourceType: 'case', resourceCode: caseCode }],
      ['share/create', { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 }],
    ];
    for (const [path, body] of calls) {
      const res = await h.call(path, { token: staff.token, body });
      expect([path, res.status, res.code]).toEqual([path, 403, 1002]);
    }
    // Nothing mailed, revoked or made: only the refused calls' rate-limit counters may have moved.
    expect(stateChanges(before, await stateSnapshot(h))).toEqual([]);
  });

  it("answer 404 for a share whose case is in the recycle bin, and another organization's share", async () => {
    const code = await newCase(h, clinic, 'Binned case');
    const made = await h.call('share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: code, expiresInDays: 7 },
    });
    await h.call('case/delete', { token: clinic.token, body: { caseCodes: [code] } });
    const mails = await outbox();
    const shareCode = made.data.shareCode as string;
    expect(
      (
        await h.call('share/sendMail', {
          token: clinic.token,
          body: { shareCode, email: 'patient@example.test', language: 'en' },
        })
      ).code,
    ).toBe(404);
    expect((await h.call('share/accessLog', { token: clinic.token, body: { shareCode } })).code).toBe(404);
    const stranger = await side(h, OrgType.Clinic);
    expect(
      (
        await h.call('share/sendMail', {
          token: stranger.token,
          body: { shareCode, email: 'patient@example.test', language: 'en' },
        })
      ).code,
    ).toBe(404);
    expect(await outbox()).toBe(mails);
  });

  it('greet the recipient by name when given and name the sender once', async () => {
    const made = await h.call('share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 },
    });
    const shareCode = made.data.shareCode as string;
    // A one-person clinic: the display name is the organization's name.
    const [org] = await h.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [
      clinic.organizationId,
    ]);
    await h.db.query(`UPDATE users SET display_name = $2 WHERE id = $1`, [clinic.userId, org!.name]);
    const token = (await login(h, clinic.account)).accessToken;
    const named = await h.call('share/sendMail', {
      token,
      body: { shareCode, email: 'greta@example.test', name: 'Greta Lund', language: 'en' },
    });
    const anonymous = await h.call('share/sendMail', {
      token,
      body: { shareCode, email: 'someone@example.test', language: 'en' },
    });
    expect([named.code, anonymous.code]).toEqual([200, 200]);
    const mails = await h.db.query<{ body_text: string }>(
      `SELECT body_text FROM mail_outbox WHERE to_address IN ('greta@example.test', 'someone@example.test') ORDER BY id`,
    );
    expect(mails.map((m) => m.body_text.split('\n')[0])).toEqual(['Hello Greta Lund,', 'Hello,']);
    for (const m of mails) {
      expect(m.body_text.split('\n')[2]).toBe(
        `${org!.name} shared a patient case with you. Open the link below to see its details and files.`,
      );
    }
  });

  it('keep line breaks in a name out of the mail headers', async () => {
    const other = await side(h, OrgType.Clinic);
    const code = await newCase(h, other);
    const made = await h.call('share/create', {
      token: other.token,
      body: { resourceType: 'case', resourceCode: code, expiresInDays: 7 },
    });
    // A name no form accepts, written directly: the mail must not grow a header from it.
    await h.db.query(`UPDATE organizations SET name = E'Bright Smile\\r\\nBcc: relay@example.test' WHERE id = $1`, [
      other.organizationId,
    ]);
    const token = (await login(h, other.account)).accessToken;
    const res = await h.call('share/sendMail', {
      token,
      body: { shareCode: made.data.shareCode, email: 'header@example.test', language: 'en' },
    });
    expect(res.code).toBe(200);
    const [mail] = await h.db.query<{ subject: string }>(
      `SELECT subject FROM mail_outbox WHERE to_address = 'header@example.test'`,
    );
    expect(mail!.subject).toBe('Bright Smile Bcc: relay@example.test shared a case with you – Dental Portal');
  });

  it('limit share mails per organization, not only per user', async () => {
    const made = await h.call('share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 },
    });
    // The organization's window already holds its maximum (as many members' mails would leave it).
    await h.db.query(
      `INSERT INTO rate_limit_hits (bucket, key, window_start, expires_at, hits)
       VALUES ('shareMail:org', $1, to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600),
               to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600) + interval '1 hour', 200)
       ON CONFLICT (bucket, key, window_start) DO UPDATE SET hits = 200`,
      [sha256(String(clinic.organizationId))],
    );
    const fresh = await member(h, clinic, OrgType.Clinic, ['cases', 'caseDetail']);
    const mails = await outbox();
    const res = await h.call('share/sendMail', {
      token: fresh.token,
      body: { shareCode: made.data.shareCode, email: 'relay@example.test', language: 'en' },
    });
    expect([res.status, res.code]).toEqual([429, 429]);
    expect(await outbox()).toBe(mails);
    await h.db.query(`DELETE FROM rate_limit_hits WHERE bucket = 'shareMail:org'`);
  });

  it('let a member with the case right but without share:manage mail and read, but not revoke, what another made', async () => {
    const made = await h.call('share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 },
    });
    const reader = await member(h, clinic, OrgType.Clinic, ['cases', 'caseDetail']);
    const shareCode = made.data.shareCode as string;
    expect((await h.call('share/accessLog', { token: reader.token, body: { shareCode } })).code).toBe(200);
    expect((await h.call('share/revoke', { token: reader.token, body: { shareCode } })).code).toBe(1002);
    const manager = await member(h, clinic, OrgType.Clinic, ['cases', 'caseDetail', 'ownSpace.sharesManage']);
    expect((await h.call('share/revoke', { token: manager.token, body: { shareCode } })).code).toBe(200);
  });
});

describe('roles', () => {
  it('cannot give a permission the editor does not hold, nor raise their own role', async () => {
    const editor = await member(h, clinic, OrgType.Clinic, ['roles', 'roles.edit']);
    const before = await stateSnapshot(h);
    const own = await h.call('user/role/allotRolePermission', {
      token: editor.token,
      body: { roleCode: editor.roleCode, menuCodes: ['roles', 'roles.edit', 'users', 'users.edit'] },
    });
    expect([own.code, own.data.field]).toEqual([400, 'menuCodes']);
    expect(own.msg).toContain('user:');
    const wildcard = await h.call('user/role/allotRolePermission', {
      token: editor.token,
      body: { roleCode: editor.roleCode, menuCodes: ['all'] },
    });
    expect(wildcard.code).toBe(400);
    expect(stateChanges(before, await stateSnapshot(h))).toEqual([]);
    // What the editor holds may be given.
    const made = await h.call('user/role/save_or_update', { token: editor.token, body: { name: 'Role editors' } });
    const ok = await h.call('user/role/allotRolePermission', {
      token: editor.token,
      body: { roleCode: made.data.roleCode, menuCodes: ['roles.edit'] },
    });
    expect(ok.code).toBe(200);
    expect(ok.data.menuCodes).toEqual(expect.arrayContaining(['roles', 'roles.edit']));
  });

  it("refuses another organization's role by its code", async () => {
    const other = await side(h, OrgType.Clinic);
    const theirs = await h.call('user/role/save_or_update', { token: other.token, body: { name: 'Theirs' } });
    const before = await stateSnapshot(h);
    for (const [path, body] of [
      ['user/role/save_or_update', { roleCode: theirs.data.roleCode, name: 'Mine now' }],
      ['user/role/allotRolePermission', { roleCode: theirs.data.roleCode, menuCodes: ['dashboard'] }],
      ['user/role/delByIds', { roleCodes: [theirs.data.roleCode] }],
    ] as const) {
      expect([path, (await h.call(path, { token: clinic.token, body })).code]).toEqual([path, 404]);
    }
    expect(stateChanges(before, await stateSnapshot(h))).toEqual([]);
  });

  it('a user editor cannot give a wider role, nor edit, disable or reset an administrator', async () => {
    const editor = await member(h, clinic, OrgType.Clinic, ['users', 'users.edit']);
    const [adminRow] = await h.db.query<{ user_code: string }>('SELECT user_code FROM users WHERE id = $1', [
      clinic.userId,
    ]);
    await h.call('user/checkIdentity', { token: editor.token, body: { password: PASSWORD } });
    const before = await stateSnapshot(h);
    const wider = await h.call('user/save_or_update', {
      token: editor.token,
      body: { account: 'widerrole', displayName: 'Wider', email: 'wider@example.test', roleCode: 'clinic_admin' },
    });
    expect([wider.code, wider.data.field]).toEqual([400, 'roleCode']);
    const edit = await h.call('user/save_or_update', {
      token: editor.token,
      body: {
        userCode: adminRow!.user_code,
        account: clinic.account,
        displayName: 'Taken over',
        email: 'attacker@example.test',
        roleCode: 'clinic_admin',
      },
    });
    expect(edit.code).toBe(1002);
    expect(
      (await h.call('user/disable', { token: editor.token, body: { userCodes: [adminRow!.user_code] } })).code,
    ).toBe(1002);
    const reset = await h.call('user/resetPass', { token: editor.token, body: { userCode: adminRow!.user_code } });
    expect(reset.code).toBe(1002);
    expect(stateChanges(before, await stateSnapshot(h))).toEqual([]);
    // The editor may add users of a role no wider than its own.
    const narrow = await h.call('user/save_or_update', {
      token: editor.token,
      body: { account: 'narrowrole', displayName: 'Narrow', email: 'narrow@example.test', roleCode: editor.roleCode },
    });
    expect(narrow.code).toBe(200);
  });
});

describe('administrators and permissions', () => {
  it('partner management follows partner:view and partner:edit; without them the spec message (2031)', async () => {
    const none = await member(h, clinic, OrgType.Clinic, ['dashboard']);
    const list = await h.call('partner/list', { token: none.token, body: { tab: 'mine' } });
    expect([list.status, list.code]).toEqual([403, 2031]);
    expect(list.msg).toBe('This account has no access rights. Log in with an administrator account.');
    const viewer = await member(h, clinic, OrgType.Clinic, ['partners']);
    expect((await h.call('partner/list', { token: viewer.token, body: { tab: 'mine' } })).code).toBe(200);
    const applied = await h.call('partner/apply', { token: viewer.token, body: { organizationCode: lab.code } });
    expect(applied.code).toBe(2031);
    const manager = await member(h, clinic, OrgType.Clinic, ['partners.edit']);
    const other = await side(h, OrgType.Lab);
    expect((await h.call('partner/apply', { token: manager.token, body: { organizationCode: other.code } })).code).toBe(
      200,
    );
  });

  it('contacts receiving the order mails are managed with contact:manage, read with order:view', async () => {
    const reader = await member(h, clinic, OrgType.Clinic, ['orders']);
    expect((await h.call('companyContact/list', { token: reader.token, body: {} })).code).toBe(200);
    const mails = await outbox();
    const add = await h.call('companyContact/add', {
      token: reader.token,
      body: { userName: 'Home', email: 'mine@example.test' },
    });
    expect(add.code).toBe(1002);
    expect(await outbox()).toBe(mails);
    const admin = await member(h, clinic, OrgType.Clinic, ['ownSpace.contactsManage']);
    expect(
      (
        await h.call('companyContact/add', {
          token: admin.token,
          body: { userName: 'Front desk', email: 'desk@example.test' },
        })
      ).code,
    ).toBe(200);
  });

  it('closing the organization needs company:close, not the built-in flag', async () => {
    const org = await side(h, OrgType.Clinic);
    const closer = await member(h, org, OrgType.Clinic, ['ownSpace.companyClose']);
    const [o] = await h.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [
      org.organizationId,
    ]);
    const bystander = await member(h, org, OrgType.Clinic, ['ownSpace.companyEdit']);
    await h.call('user/checkIdentity', { token: bystander.token, body: { password: PASSWORD } });
    expect(
      (await h.call('company/close_account', { token: bystander.token, body: { confirmName: o!.name } })).code,
    ).toBe(1002);
    await h.call('user/checkIdentity', { token: closer.token, body: { password: PASSWORD } });
    const closed = await h.call('company/close_account', { token: closer.token, body: { confirmName: o!.name } });
    expect(closed.code).toBe(200);
  });
});
