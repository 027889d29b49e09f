import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { buildApp } from '../src/app.js';
import { createHarness, createUser, linkFromOutbox, login, PASSWORD, snapshot, type Harness } from './harness.js';
import { newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';

/** Account → Users and Role Management: who manages whom, and roles that take effect at once. */
let h: Harness;
let lab: Side;
let clinic: Side;
beforeAll(async () => {
  h = await createHarness();
  lab = await side(h, OrgType.Lab);
  clinic = await side(h, OrgType.Clinic);
});
afterAll(() => h.close());

const NEW_PASSWORD = 'Staff#Pass2027';
const verify = (s: Side) => h.call('user/checkIdentity', { token: s.token, body: { password: PASSWORD } });

async function addUser(admin: Side, over: Record<string, unknown> = {}) {
  const account = `staff${Math.random().toString(36).slice(2, 8)}`;
  const roles = await h.call('user/role/list', { token: admin.token });
  const adminRole = roles.data.list.find((r: { builtIn: boolean }) => r.builtIn).roleCode;
  const res = await h.call('user/save_or_update', {
    token: admin.token,
    body: { account, displayName: 'Sam Staff', email: `${account}@example.test`, roleCode: adminRole, ...over },
  });
  return { res, account, email: `${account}@example.test` };
}

async function setPasswordFromMail(email: string) {
  const id = await linkFromOutbox(h.db, email, '/set-pass/');
  const set = await h.call('user/forgetPassResetPass', {
    body: { id, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
  });
  expect(set.code).toBe(200);
}

describe('users', () => {
  it('an administrator adds a user, who sets a password from the mail and signs in', async () => {
    const { res, account, email } = await addUser(lab);
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ account, status: 0, administrator: true, organization: { code: lab.code } });
    // Inactivated until the password is set.
    expect((await h.call('login', { body: { account, password: NEW_PASSWORD } })).code).not.toBe(200);
    await setPasswordFromMail(email);
    expect((await h.call('login', { body: { account, password: NEW_PASSWORD } })).code).toBe(200);
    const listed = await h.call('user/listByPage', { token: lab.token, body: { keyword: account.slice(0, 6) } });
    expect(listed.data.list.map((u: { account: string }) => u.account)).toEqual([account]);
    expect(listed.data.list[0].status).toBe(1);
    // Moments as ISO 8601 in UTC to the millisecond, the same instants the database holds; signed in, so a last sign-in.
    const [stored] = await h.db.query<{ created_at: Date; updated_at: Date; signed_in: Date }>(
      `SELECT u.created_at, u.updated_at, (SELECT max(created_at) FROM sessions s WHERE s.user_id = u.id) AS signed_in
         FROM users u WHERE u.account = $1`,
      [account],
    );
    const ms = (d: Date) => new Date(Math.floor(new Date(d).getTime())).toISOString();
    expect(listed.data.list[0]).toMatchObject({
      createdAt: ms(stored!.created_at),
      updatedAt: ms(stored!.updated_at),
      lastSignInAt: ms(stored!.signed_in),
    });
  });

  it('account, email and phone stay unique across the site, named as the form is typed', async () => {
    const { account, email } = await addUser(lab, { phone: '+1 415 555 0100' });
    const again = await h.call('user/save_or_update', {
      token: clinic.token,
      body: { account, displayName: 'X', email: 'other@example.test', roleCode: 'clinic_admin' },
    });
    expect([again.code, again.data.field]).toEqual([1007, 'account']);
    const mail = await h.call('user/save_or_update', {
      token: clinic.token,
      body: { account: 'freshname1', displayName: 'X', email: email.toUpperCase(), roleCode: 'clinic_admin' },
    });
    expect([mail.code, mail.data.field]).toEqual([1008, 'email']);
    expect((await h.call('user/checkUsernameExist', { body: { email } })).data.exists).toBe(true);
    expect((await h.call('user/checkUsernameExist', { body: { phone: '+1 415 555 0100' } })).data.exists).toBe(true);
    expect((await h.call('user/checkUsernameExist', { body: { account: 'nobodyhere' } })).data.exists).toBe(false);
  });

  it("another organization's users are not found, and the super administrator manages everyone", async () => {
    const { res } = await addUser(lab);
    const code = res.data.userCode;
    await verify(clinic);
    const before = await snapshot(h.db);
    expect((await h.call('user/detail', { token: clinic.token, body: { userCode: code } })).code).toBe(404);
    expect((await h.call('user/disable', { token: clinic.token, body: { userCodes: [code] } })).code).toBe(404);
    expect(
      (await h.call('user/listByPage', { token: clinic.token, body: {} })).data.list.map(
        (u: { userCode: string }) => u.userCode,
      ),
    ).not.toContain(code);
    expect(await snapshot(h.db)).toBe(before);

    const admin = await side(h, OrgType.Inner);
    const all = await h.call('user/listByPage', { token: admin.token, body: { organizationCode: lab.code } });
    expect(all.data.list.map((u: { userCode: string }) => u.userCode)).toContain(code);
  });

  it('nobody disables or deletes themselves or the last administrator; disabling ends sessions at once', async () => {
    const org = await side(h, OrgType.Clinic);
    const [me] = (await h.call('user/listByPage', { token: org.token, body: {} })).data.list;
    await verify(org);
    expect((await h.call('user/disable', { token: org.token, body: { userCodes: [me.userCode] } })).code).toBe(2044);
    expect((await h.call('user/delByIds', { token: org.token, body: { userCodes: [me.userCode] } })).code).toBe(2044);

    // A second administrator can be disabled; the first then cannot lose the role.
    const { res, account, email } = await addUser(org);
    await setPasswordFromMail(email);
    const second = (await login(h, account, NEW_PASSWORD)).accessToken;
    expect((await h.call('user/info', { token: second })).code).toBe(200);
    // Sensitive: the password first.
    const [unverified] = await Promise.all([
      h.call('user/disable', {
        token: (await login(h, org.account)).accessToken,
        body: { userCodes: [res.data.userCode] },
      }),
    ]);
    expect(unverified.code).toBe(1014);
    expect((await h.call('user/disable', { token: org.token, body: { userCodes: [res.data.userCode] } })).code).toBe(
      200,
    );
    await expect.poll(async () => (await h.call('user/info', { token: second })).status, { timeout: 2000 }).toBe(401);
    expect((await h.call('login', { body: { account, password: NEW_PASSWORD } })).code).toBe(1005);

    // The other administrator is the last active one: the super administrator cannot take them away either.
    const admin = await side(h, OrgType.Inner);
    await verify(admin);
    const last = await h.call('user/disable', { token: admin.token, body: { userCodes: [me.userCode] } });
    expect([last.code, last.msg]).toEqual([2045, expect.stringContaining('last')]);

    expect(
      (await h.call('user/enable', { token: org.token, body: { userCodes: [res.data.userCode] } })).data.count,
    ).toBe(1);
    expect((await h.call('login', { body: { account, password: NEW_PASSWORD } })).code).toBe(200);
  });

  it('deleting keeps the cases, orders and events, authored by a former user, and frees the account', async () => {
    const c = await side(h, OrgType.Clinic);
    const l = await side(h, OrgType.Lab);
    const code = await partner(h, c, l);
    const { res, account, email } = await addUser(c);
    await setPasswordFromMail(email);
    const staff = { ...c, token: (await login(h, account, NEW_PASSWORD)).accessToken };
    const caseCode = await newCase(h, staff, 'By staff');
    const [orderCode] = await sendToLab(h, staff, code, [caseCode]);
    await orderAction(h, l, [orderCode!], 'accept');

    await verify(c);
    expect((await h.call('user/delByIds', { token: c.token, body: { userCodes: [res.data.userCode] } })).code).toBe(
      200,
    );
    await expect
      .poll(async () => (await h.call('user/info', { token: staff.token })).status, { timeout: 2000 })
      .toBe(401);
    expect((await h.call('case/detail', { token: c.token, body: { caseCode } })).code).toBe(200);
    const order = await h.call('order/detail', { token: l.token, body: { orderCode } });
    expect(order.data.events[0]).toMatchObject({ action: 'create', actorName: '' });
    expect(
      (await h.call('user/listByPage', { token: c.token, body: {} })).data.list.map(
        (u: { account: string }) => u.account,
      ),
    ).not.toContain(account);
    // The account name and address can be used again.
    expect((await h.call('user/checkUsernameExist', { body: { account } })).data.exists).toBe(false);
    expect((await h.call('user/checkUsernameExist', { body: { email } })).data.exists).toBe(false);
  });
});

describe('roles', () => {
  it('a custom role without the ship button: the API refuses shipping, and a wider role allows it at once', async () => {
    const l = await side(h, OrgType.Lab);
    const c = await side(h, OrgType.Clinic);
    const code = await partner(h, c, l);
    const made = await h.call('user/role/save_or_update', { token: l.token, body: { name: 'Packer' } });
    expect(made.data).toMatchObject({ builtIn: false, organizationCode: l.code, users: 0 });
    const roleCode = made.data.roleCode;
    // Orders list, detail and the production buttons, not shipping.
    const allot = await h.call('user/role/allotRolePermission', {
      token: l.token,
      body: { roleCode, menuCodes: ['orderDetail', 'orders.accept', 'orders.produce'] },
    });
    expect(allot.data.menuCodes.sort()).toEqual(['orderDetail', 'orders', 'orders.accept', 'orders.produce'].sort());
    // Menus the laboratory's type may not have are refused, naming the entry.
    const refused = await h.call('user/role/allotRolePermission', {
      token: l.token,
      body: { roleCode, menuCodes: ['orders.create'] },
    });
    expect([refused.code, refused.data.field]).toEqual([400, 'menuCodes']);

    const { account, email } = await addUser(l, { roleCode });
    await setPasswordFromMail(email);
    const packer = { ...l, token: (await login(h, account, NEW_PASSWORD)).accessToken };
    const [orderCode] = await sendToLab(h, c, code, [await newCase(h, c)]);
    expect((await orderAction(h, packer, [orderCode!], 'accept')).data.results[0].ok).toBe(true);
    expect((await orderAction(h, packer, [orderCode!], 'ready')).data.results[0].ok).toBe(true);
    const ship = await orderAction(h, packer, [orderCode!], 'ship', { trackingNumber: 'T1' });
    expect([ship.status, ship.code]).toEqual([403, 1002]);
    const menu = await h.call('permission/listUserMenu', { token: packer.token });
    expect(menu.data.permissions).not.toContain('order:ship');

    // Widen the role: the very next call may ship, on this process and on another one.
    const second = await buildApp({ config: h.config, db: h.db, serveWeb: false, logger: false });
    try {
      await h.call('user/role/allotRolePermission', {
        token: l.token,
        body: { roleCode, menuCodes: ['orderDetail', 'orders.accept', 'orders.produce', 'orders.ship'] },
      });
      await expect
        .poll(
          async () =>
            (
              await second.inject({
                method: 'POST',
                url: '/api/v2/permission/listUserMenu',
                headers: { authorization: `Bearer ${packer.token}` },
              })
            ).json().data.permissions as string[],
          { timeout: 2000, interval: 10 },
        )
        .toContain('order:ship');
    } finally {
      await second.close();
    }
    expect((await orderAction(h, packer, [orderCode!], 'ship', { trackingNumber: 'T1' })).data.results[0].ok).toBe(
      true,
    );

    // A role in use cannot be deleted; built-in roles cannot be changed.
    const del = await h.call('user/role/delByIds', { token: l.token, body: { roleCodes: [roleCode] } });
    expect([del.code, del.msg]).toEqual([2046, expect.stringContaining('1')]);
    expect(
      (await h.call('user/role/save_or_update', { token: l.token, body: { roleCode: 'lab_admin', name: 'X' } })).code,
    ).toBe(2047);
  });

  it("another organization's roles are not found; the tree offers only what the type may have", async () => {
    const mine = await h.call('user/role/save_or_update', { token: clinic.token, body: { name: 'Front desk' } });
    const before = await snapshot(h.db);
    expect(
      (await h.call('permission/listMenuByRole', { token: lab.token, body: { roleCode: mine.data.roleCode } })).code,
    ).toBe(404);
    expect(
      (
        await h.call('user/role/allotRolePermission', {
          token: lab.token,
          body: { roleCode: mine.data.roleCode, menuCodes: [] },
        })
      ).code,
    ).toBe(404);
    expect(
      (await h.call('user/role/delByIds', { token: lab.token, body: { roleCodes: [mine.data.roleCode] } })).code,
    ).toBe(404);
    expect(await snapshot(h.db)).toBe(before);
    const tree = JSON.stringify((await h.call('permission/listAllMenu', { token: clinic.token, body: {} })).data.list);
    expect(tree).toContain('orders.create');
    expect(tree).not.toContain('orders.ship');
    expect(tree).not.toContain('organizations');
    // A role nobody holds goes.
    expect(
      (await h.call('user/role/delByIds', { token: clinic.token, body: { roleCodes: [mine.data.roleCode] } })).code,
    ).toBe(200);
  });

  it('the super administrator picks the default role a type gives registered users', async () => {
    const admin = await side(h, OrgType.Inner);
    const shared = await h.call('user/role/save_or_update', {
      token: admin.token,
      body: { name: 'Clinic member', orgType: 2 },
    });
    expect(shared.data).toMatchObject({ organizationCode: null, orgType: 2 });
    expect(
      (await h.call('user/role/setDefault', { token: clinic.token, body: { roleCode: shared.data.roleCode } })).code,
    ).toBe(1002);
    const set = await h.call('user/role/setDefault', { token: admin.token, body: { roleCode: shared.data.roleCode } });
    expect(set.data.defaultForRegistered).toBe(true);
    const roles = (await h.call('user/role/listByPage', { token: admin.token, body: { pageSize: 100 } })).data.list;
    expect(
      roles.filter(
        (r: { orgType: number; defaultForRegistered: boolean }) => r.orgType === 2 && r.defaultForRegistered,
      ),
    ).toHaveLength(1);
    // Put the built-in one back, so registrations in other tests get it.
    await h.call('user/role/setDefault', { token: admin.token, body: { roleCode: 'clinic_admin' } });
    await createUser(h.db);
  });
});
