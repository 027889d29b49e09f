import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { SignInIdentifiers } from '../src/modules/users/sign-in-identifiers.service.js';
import { hashPassword, newCode } from '../src/platform/crypto.js';
import { createHarness, createUser, login, PASSWORD, type Harness } from './harness.js';
import { count, side, type Side } from './fixtures.js';
import { stateChanges, stateSnapshot } from './state.js';

/**
 * Account names, emails and phone numbers are one namespace for sign-in: none may equal another user's, in any call
 * that sets one, and an identifier that still matches two users is refused at sign-in.
 */
let h: Harness;
let victim: Awaited<ReturnType<typeof createUser>>;
let attacker: Side;

const signIn = (account: string, password = PASSWORD) =>
  h.call('login', { body: { account, password, saveLogin: false } });

beforeAll(async () => {
  h = await createHarness();
  victim = await createUser(h.db, { phone: '+1 415 555 0123' });
  attacker = await side(h, OrgType.Lab);
});
afterAll(() => h.close());

describe('sign-in identifiers', () => {
  it("an account name cannot take another user's phone number, and the refused rename stays unused", async () => {
    const before = await stateSnapshot(h);
    for (const account of ['4155550123', '415-555-0123', '14155550123']) {
      const res = await h.call('user/edit_username', { token: attacker.token, body: { account } });
      expect([account, res.status, res.data?.field]).toEqual([account, 400, 'account']);
    }
    expect(stateChanges(before, await stateSnapshot(h))).toEqual([]);
    expect((await signIn('(415) 555-0123')).code).toBe(200);
    // The one allowed rename is still there.
    expect((await h.call('user/edit_username', { token: attacker.token, body: { account: 'labrenamed' } })).code).toBe(
      200,
    );
  });

  it("a phone number in another spelling, or an email in another case, is another user's", async () => {
    const u = await side(h, OrgType.Clinic);
    const phone = await h.call('user/edit', { token: u.token, body: { displayName: 'X', phone: '(415) 555-0123' } });
    expect([phone.code, phone.data.field]).toEqual([1009, 'phone']);
    const international = await h.call('user/update', { token: u.token, body: { phone: '+14155550123' } });
    expect([international.code, international.data.field]).toEqual([1009, 'phone']);
    const reg = await h.call('user/regist', {
      body: {
        orgType: 'clinic',
        region: 'us',
        organizationName: 'Copycat Dental',
        account: 'copycat1',
        email: victim.email.toUpperCase(),
        displayName: 'Copy',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        agreePrivacy: true,
        agreeCookie: true,
        agreeTerms: true,
      },
    });
    expect([reg.code, reg.data.field]).toEqual([1008, 'email']);
    // Asked as a form is typed: without a country code there is no country to read it in.
    const bare = await h.call('user/checkUsernameExist', { body: { phone: '415 555 0123' } });
    expect([bare.status, bare.data.field]).toEqual([400, 'phone']);
    expect((await h.call('user/checkUsernameExist', { body: { phone: '+1 (415) 555-0123' } })).data).toEqual({
      exists: true,
    });
  });

  it('a phone number that is not one is refused naming the field', async () => {
    const u = await side(h, OrgType.Clinic);
    const short = await h.call('user/edit', { token: u.token, body: { displayName: 'X', phone: '+1 555 0100' } });
    expect([short.status, short.data.field]).toEqual([400, 'phone']);
    expect(short.msg).toContain('too short or too long');
  });

  it('two renames to one name at once: one wins, the other is refused and keeps its rename', async () => {
    const a = await side(h, OrgType.Clinic);
    const b = await side(h, OrgType.Clinic);
    const results = await Promise.all(
      [a, b].map((s) => h.call('user/edit_username', { token: s.token, body: { account: 'samename' } })),
    );
    expect(results.map((r) => r.code).sort((x, y) => x - y)).toEqual([200, 1007]);
    expect(await count(h, `users WHERE lower(account) = 'samename'`)).toBe(1);
    expect(await count(h, `users WHERE id = ANY ($1::bigint[]) AND account_changed`, [[a.userId, b.userId]])).toBe(1);
  });

  it('two sign-ups with one account name at once: one wins, the other is refused naming the field', async () => {
    const form = (n: number) => ({
      orgType: 'clinic',
      region: 'us',
      organizationName: `Race Dental ${n}`,
      account: 'racename',
      email: `race${n}@example.test`,
      displayName: 'Race',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreePrivacy: true,
      agreeCookie: true,
      agreeTerms: true,
    });
    const results = await Promise.all([1, 2].map((n) => h.call('user/regist', { body: form(n) })));
    expect(results.map((r) => [r.code, r.data?.field ?? null]).sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual([
      [200, null],
      [1007, 'account'],
    ]);
    expect(await count(h, `users WHERE account = 'racename'`)).toBe(1);
    expect(await count(h, `organizations WHERE name LIKE 'Race Dental %'`)).toBe(1);
  });

  it('signs in by a phone number typed the way its country writes it', async () => {
    const u = await createUser(h.db, { phone: '+46 70 123 4567' });
    await h.db.query(`UPDATE organizations SET country_area_id = 'SE' WHERE id = $1`, [u.organizationId]);
    // The countries tried are cached for a few minutes; a new process would read them fresh.
    (SignInIdentifiers as unknown as { countries?: unknown }).countries = undefined;
    expect((await signIn('070-123 45 67')).code).toBe(200);
    expect((await signIn('+46701234567')).code).toBe(200);
  });
});

describe('identifiers from before the namespace', () => {
  /** A user written as the portal wrote them before: no keys of their own. */
  async function legacyUser(account: string, phone: string | null) {
    const u = await createUser(h.db, { account: `tmp${newCode('')}`.slice(0, 20) });
    await h.db.query(`DELETE FROM sign_in_identifiers WHERE user_id = $1`, [u.userId]);
    await h.db.query(`UPDATE users SET account = $2, phone = $3, password_hash = $4 WHERE id = $1`, [
      u.userId,
      account,
      phone,
      await hashPassword(PASSWORD),
    ]);
    return u;
  }

  it('are filled in; one two users held is disputed, refused at sign-in and reported until one changes it', async () => {
    await legacyUser('legacyone', '+1 415 555 0177');
    await legacyUser('legacytwo', '(415) 555-0177');
    // An account name that reads as a third user's phone number.
    await legacyUser('4155550188', null);
    await legacyUser('legacythree', '+14155550188');
    await SignInIdentifiers.backfill(h.db);

    const ambiguous = await signIn('+1 415 555 0177');
    expect([ambiguous.code, ambiguous.data?.field]).toEqual([1022, 'account']);
    expect((await signIn('legacyone')).code).toBe(200);
    expect((await signIn('4155550188')).code).toBe(1022);
    expect((await signIn('+1 415 555 0188')).code).toBe(200);

    const superAdmin = await createUser(h.db, { orgType: OrgType.Inner });
    const token = (await login(h, superAdmin.account)).accessToken;
    const report = await h.call('user/signInDisputes', { token });
    expect(report.code).toBe(200);
    const identifiers = report.data.list.map((d: { identifier: string; users: Array<{ account: string }> }) => [
      d.identifier,
      d.users.map((u) => u.account).sort(),
    ]);
    expect(identifiers).toEqual(
      expect.arrayContaining([
        ['+14155550177', ['legacyone', 'legacytwo']],
        ['+14155550188', ['4155550188', 'legacythree']],
      ]),
    );
    // Nobody but the super administrator reads it.
    expect((await h.call('user/signInDisputes', { token: attacker.token })).code).toBe(1002);

    // One of them takes another number: the disputed one is the other's again.
    const secondToken = (await login(h, 'legacytwo')).accessToken;
    expect(
      (await h.call('user/edit', { token: secondToken, body: { displayName: 'Two', phone: '+1 415 555 0199' } })).code,
    ).toBe(200);
    expect((await signIn('+1 415 555 0177')).code).toBe(200);
    const after = await h.call('user/signInDisputes', { token });
    expect(after.data.list.map((d: { identifier: string }) => d.identifier)).not.toContain('+14155550177');
  });
});
