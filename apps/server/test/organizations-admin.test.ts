import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, login, PASSWORD, snapshot, type Harness } from './harness.js';
import { side, type Side } from './fixtures.js';

/** Account → Organizations: the super administrator's list, and disabling an organization. */
let h: Harness;
let admin: Side;
let clinic: Side;
let lab: Side;
beforeAll(async () => {
  h = await createHarness();
  admin = await side(h, OrgType.Inner);
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
});
afterAll(() => h.close());

const verify = (s: Side) => h.call('user/checkIdentity', { token: s.token, body: { password: PASSWORD } });
const list = (body: Record<string, unknown>, token = admin.token) => h.call('company/listByPage', { token, body });

describe('organizations', () => {
  it('lists every organization but the portal’s own, with its users and stored bytes, filtered', async () => {
    await h.db.query(`INSERT INTO storage_accounts (organization_id, used_bytes) VALUES ($1, 12345)`, [
      clinic.organizationId,
    ]);
    const all = await list({ pageSize: 100 });
    expect(all.code).toBe(200);
    const codes = all.data.list.map((o: { organizationCode: string }) => o.organizationCode);
    expect(codes).toEqual(expect.arrayContaining([clinic.code, lab.code]));
    expect(codes).not.toContain(admin.code);
    expect(all.data.list.find((o: { organizationCode: string }) => o.organizationCode === clinic.code)).toMatchObject({
      type: OrgType.Clinic,
      status: 1,
      users: 1,
      storageUsedBytes: 12345,
    });
    const labs = await list({ pageSize: 100, type: OrgType.Lab });
    expect(labs.data.list.every((o: { type: number }) => o.type === OrgType.Lab)).toBe(true);
    const named = await list({ keyword: lab.code });
    expect(named.data.list.map((o: { organizationCode: string }) => o.organizationCode)).toEqual([lab.code]);
    expect((await list({ type: 9 })).code).toBe(400);
  });

  it('is the super administrator’s alone', async () => {
    const refused = await list({}, clinic.token);
    expect(refused.status).toBe(403);
    await verify(lab);
    const before = await snapshot(h.db);
    expect(
      (await h.call('company/disable', { token: lab.token, body: { organizationCodes: [clinic.code] } })).status,
    ).toBe(403);
    expect(await snapshot(h.db)).toEqual(before);
  });

  it('disabling ends the organization’s sessions with a clear answer at the next call and at sign-in; enabling lets it back in', async () => {
    const other = await side(h, OrgType.Clinic);
    const body = { organizationCodes: [other.code] };
    // A sensitive action: the password within 15 minutes.
    expect((await h.call('company/disable', { token: admin.token, body })).code).toBe(1014);
    await verify(admin);
    const done = await h.call('company/disable', { token: admin.token, body });
    expect(done).toMatchObject({ code: 200, data: { count: 1 } });

    const next = await h.call('user/info', { token: other.token });
    expect(next).toMatchObject({ status: 403, code: 1006 });
    expect(next.msg).toBe('The organization has been disabled');
    expect((await h.call('login', { body: { account: other.account, password: PASSWORD } })).code).toBe(1006);
    expect((await h.call('user/refresh_token', { body: { refreshToken: other.refreshToken } })).code).not.toBe(200);
    const listed = await list({ keyword: other.code });
    expect(listed.data.list[0].status).toBe(2);
    // Another organization is untouched.
    expect((await h.call('user/info', { token: clinic.token })).code).toBe(200);

    expect((await h.call('company/enable', { token: admin.token, body })).data.count).toBe(1);
    // The old session stays ended; signing in again works.
    expect((await h.call('user/info', { token: other.token })).code).toBe(402);
    const back = await login(h, other.account);
    expect((await h.call('user/info', { token: back.accessToken })).code).toBe(200);
  });

  it('refuses the portal’s own organization and unknown codes, changing nothing', async () => {
    await verify(admin);
    const before = await snapshot(h.db);
    const own = await h.call('company/disable', { token: admin.token, body: { organizationCodes: [admin.code] } });
    expect(own.code).toBe(2044);
    const mixed = await h.call('company/disable', {
      token: admin.token,
      body: { organizationCodes: [clinic.code, 'org-none'] },
    });
    expect(mixed.code).toBe(404);
    expect(await snapshot(h.db)).toEqual(before);
    expect((await h.call('user/info', { token: clinic.token })).code).toBe(200);
  });
});
