import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, linkFromOutbox, login, PASSWORD, snapshot, type Harness } from './harness.js';
import { PNG } from './uploads.js';
import { multipart } from './world.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function signedIn(opts: { orgType?: number; phone?: string } = {}) {
  const u = await createUser(h.db, opts);
  return { ...u, token: (await login(h, u.account)).accessToken };
}

async function uploadAvatar(token: string, bytes: Buffer, filename = 'avatar.png') {
  const body = multipart([{ name: 'file', filename, bytes }]);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v2/user/edit_avatar',
    headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json<{ code: number; data: { avatar?: string; field?: string } }>();
}

const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([26, 0, 0, 0]),
  Buffer.from('WEBPVP8L'),
  Buffer.alloc(14),
]);

describe('account info', () => {
  it('answers the user detail and edits display name, nickname, phone, gender and language', async () => {
    const u = await signedIn({ orgType: OrgType.Lab });
    const detail = await h.call('user/getUserDetail', { token: u.token });
    expect(detail.data).toMatchObject({
      account: u.account,
      email: u.email,
      pendingEmail: null,
      accountChanged: false,
    });
    const edited = await h.call('user/edit', {
      token: u.token,
      body: { displayName: 'Dr. Lena Berg', nickname: 'Lena', phone: '+46 70 123 4567', gender: 2, language: 'sv' },
    });
    expect(edited.data).toMatchObject({
      displayName: 'Dr. Lena Berg',
      nickname: 'Lena',
      phone: '+46 70 123 4567',
      gender: 2,
      language: 'sv',
    });
    expect((await h.call('user/info', { token: u.token })).data.displayName).toBe('Dr. Lena Berg');
    // Empty texts clear the optional fields.
    const cleared = await h.call('user/edit', {
      token: u.token,
      body: { displayName: 'Dr. Lena Berg', nickname: '', phone: '' },
    });
    expect(cleared.data).toMatchObject({ nickname: null, phone: null });
  });

  it('refuses bad input naming the field and changes nothing', async () => {
    const u = await signedIn();
    await createUser(h.db, { phone: '+1 415 555 0142' });
    const before = await snapshot(h.db);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ displayName: '  ' }, 'displayName'],
      [{ nickname: 'x' }, 'displayName'],
      [{ displayName: 'A', gender: 3 }, 'gender'],
      [{ displayName: 'A', language: 'klingon' }, 'language'],
      [{ displayName: 'A', phone: 'call me' }, 'phone'],
      [{ displayName: 'x'.repeat(101) }, 'displayName'],
    ];
    for (const [body, field] of cases) {
      const res = await h.call('user/edit', { token: u.token, body });
      expect(res.status).toBe(400);
      expect(res.data.field).toBe(field);
    }
    const taken = await h.call('user/edit', { token: u.token, body: { displayName: 'A', phone: '+1 415 555 0142' } });
    expect([taken.code, taken.data.field]).toEqual([1009, 'phone']);
    expect(await snapshot(h.db)).toBe(before);
  });
});

describe('account name', () => {
  it('changes once; the second attempt is refused and the old name no longer signs in', async () => {
    const u = await signedIn();
    const other = await createUser(h.db);
    const taken = await h.call('user/edit_username', {
      token: u.token,
      body: { account: other.account.toUpperCase() },
    });
    expect([taken.code, taken.data.field]).toEqual([1007, 'account']);
    const bad = await h.call('user/edit_username', { token: u.token, body: { account: 'a b' } });
    expect([bad.status, bad.data.field]).toEqual([400, 'account']);

    const renamed = await h.call('user/edit_username', { token: u.token, body: { account: `${u.account}new` } });
    expect(renamed.data).toMatchObject({ account: `${u.account}new`, accountChanged: true });
    await expect(login(h, u.account)).rejects.toThrow();
    await login(h, `${u.account}new`);

    const before = await snapshot(h.db);
    const again = await h.call('user/edit_username', { token: u.token, body: { account: `${u.account}again` } });
    expect([again.status, again.code, again.data.field]).toEqual([409, 2070, 'account']);
    expect(await snapshot(h.db)).toBe(before);
  });
});

describe('email change', () => {
  it('applies only when the link mailed to the new address is opened, and tells the old address', async () => {
    const u = await signedIn();
    const newEmail = `new-${u.account}@example.test`;
    // A sensitive action: the password first.
    expect((await h.call('user/edit_email', { token: u.token, body: { email: newEmail } })).code).toBe(1014);
    expect((await h.call('user/checkIdentity', { token: u.token, body: { password: PASSWORD } })).code).toBe(200);

    const asked = await h.call('user/edit_email', { token: u.token, body: { email: newEmail } });
    expect(asked.data).toEqual({ pendingEmail: newEmail });
    const detail = await h.call('user/getUserDetail', { token: u.token });
    expect(detail.data).toMatchObject({ email: u.email, pendingEmail: newEmail });
    // Not yet: the old address still signs in, the new one does not.
    await login(h, u.email);
    await expect(login(h, newEmail)).rejects.toThrow();

    const token = await linkFromOutbox(h.db, newEmail, '/email-change-verify/');
    const confirmed = await h.call('user/edit_email/confirm', { body: { id: token } });
    expect(confirmed.data).toEqual({ email: newEmail });
    expect((await h.call('user/getUserDetail', { token: u.token })).data).toMatchObject({
      email: newEmail,
      pendingEmail: null,
    });
    await login(h, newEmail);
    const [told] = await h.db.query<{ body_text: string }>(
      `SELECT body_text FROM mail_outbox WHERE to_address = $1 AND subject LIKE 'The email address of your account%'`,
      [u.email],
    );
    expect(told!.body_text).toContain(newEmail);
    // The link works once.
    expect((await h.call('user/edit_email/confirm', { body: { id: token } })).code).toBe(2021);
  });

  it('refuses a taken or unchanged address and a bad one, changing nothing', async () => {
    const u = await signedIn();
    const other = await createUser(h.db);
    await h.call('user/checkIdentity', { token: u.token, body: { password: PASSWORD } });
    const before = await snapshot(h.db);
    const taken = await h.call('user/edit_email', { token: u.token, body: { email: other.email.toUpperCase() } });
    expect([taken.code, taken.data.field]).toEqual([1008, 'email']);
    const same = await h.call('user/edit_email', { token: u.token, body: { email: u.email } });
    expect([same.status, same.data.field]).toEqual([400, 'email']);
    const bad = await h.call('user/edit_email', { token: u.token, body: { email: 'not-an-address' } });
    expect([bad.status, bad.data.field]).toEqual([400, 'email']);
    expect(await snapshot(h.db)).toBe(before);
  });

  it('refuses an expired link and a newer request replaces the older link', async () => {
    const u = await signedIn();
    await h.call('user/checkIdentity', { token: u.token, body: { password: PASSWORD } });
    await h.call('user/edit_email', { token: u.token, body: { email: `first-${u.account}@example.test` } });
    const first = await linkFromOutbox(h.db, `first-${u.account}@example.test`, '/email-change-verify/');
    await h.call('user/edit_email', { token: u.token, body: { email: `second-${u.account}@example.test` } });
    expect((await h.call('user/edit_email/confirm', { body: { id: first } })).code).toBe(2021);
    const second = await linkFromOutbox(h.db, `second-${u.account}@example.test`, '/email-change-verify/');
    await h.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [u.userId]);
    expect((await h.call('user/edit_email/confirm', { body: { id: second } })).code).toBe(2020);
    expect((await h.call('user/getUserDetail', { token: u.token })).data.email).toBe(u.email);
  });
});

describe('avatar', () => {
  it('stores a PNG, JPEG or WebP and serves it at the address the user info carries', async () => {
    const u = await signedIn();
    for (const [bytes, type] of [
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
      [PNG, 'image/png'],
    ] as const) {
      const res = await uploadAvatar(u.token, bytes);
      expect(res.code).toBe(200);
      const served = await h.app.inject({ method: 'GET', url: res.data.avatar! });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.rawPayload.equals(bytes)).toBe(true);
    }
    const info = await h.call('user/info', { token: u.token });
    expect(info.data.avatar).toMatch(/^\/api\/v2\/avatar\/[0-9a-f]{32}$/);
    // One avatar per user: the earlier ones are gone.
    expect((await h.db.query('SELECT 1 FROM user_avatars WHERE user_id = $1', [u.userId])).length).toBe(1);
  });

  it('refuses what is not an image by its content, whatever its name, and changes nothing', async () => {
    const u = await signedIn();
    const before = await snapshot(h.db);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refused = await uploadAvatar(u.token, svg, 'avatar.png');
    expect([refused.code, refused.data.field]).toEqual([2026, 'file']);
    expect((await uploadAvatar(u.token, Buffer.alloc(2 * 1024 * 1024 + 1, 0x89))).code).toBe(2025);
    expect((await h.db.query('SELECT 1 FROM user_avatars WHERE user_id = $1', [u.userId])).length).toBe(0);
    expect(await snapshot(h.db)).toBe(before);
    expect((await h.call(`avatar/${'0'.repeat(32)}`, { method: 'GET' })).status).toBe(404);
  });
});

describe('receiving settings and authorized apps', () => {
  it('keeps the receiving type and lists and revokes only the user’s own authorized apps', async () => {
    const u = await signedIn();
    const other = await signedIn();
    // Text messages need a phone number.
    const noPhone = await h.call('user/update', { token: u.token, body: { msgReceiveType: 'sms' } });
    expect([noPhone.status, noPhone.data.field]).toEqual([400, 'msgReceiveType']);
    await h.call('user/edit', {
      token: u.token,
      body: { displayName: 'Texted', phone: `+1 415 555 ${String(u.userId).padStart(4, '0')}` },
    });
    const set = await h.call('user/update', { token: u.token, body: { msgReceiveType: 'sms', receiveEmail: false } });
    expect(set.data).toMatchObject({ msgReceiveType: 'sms', receiveEmail: false });
    expect((await h.call('user/update', { token: u.token, body: { msgReceiveType: 'pigeon' } })).data.field).toBe(
      'msgReceiveType',
    );

    expect((await h.call('user/authApp/list', { token: u.token })).data).toEqual({ list: [] });
    await h.db.query(
      `INSERT INTO authorized_apps (app_code, user_id, app_name, scopes) VALUES ('app-mine', $1, 'Design studio', 'case:view,order:view'),
              ('app-theirs', $2, 'Other studio', '')`,
      [u.userId, other.userId],
    );
    const listed = await h.call('user/authApp/list', { token: u.token });
    expect(listed.data.list).toEqual([
      {
        appCode: 'app-mine',
        appName: 'Design studio',
        scopes: ['case:view', 'order:view'],
        authorizedAt: expect.any(String),
        // No app has called with it yet.
        lastUsedAt: null,
        launchClientId: null,
      },
    ]);
    expect((await h.call('user/authApp/revoke', { token: u.token, body: { appCode: 'app-theirs' } })).code).toBe(404);
    expect((await h.call('user/authApp/list', { token: other.token })).data.list).toHaveLength(1);
    expect((await h.call('user/authApp/revoke', { token: u.token, body: { appCode: 'app-mine' } })).code).toBe(200);
    expect((await h.call('user/authApp/list', { token: u.token })).data.list).toEqual([]);
    expect((await h.call('user/authApp/revoke', { token: u.token, body: { appCode: '' } })).data.field).toBe('appCode');
  });
});
