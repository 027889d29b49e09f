import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType, PartnerStatus } from '@portal/contracts';
import { createHarness, login, PASSWORD, snapshot, type Harness } from './harness.js';
import { count, member as memberOf, newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';
import { binaryStl, PNG, tusUpload } from './uploads.js';

/** Own space → Organization: information, images, areas; closing the account, restoring it and its purge. */
let h: Harness;
let admin: Side;
let clinic: Side;
beforeAll(async () => {
  h = await createHarness();
  admin = await side(h, OrgType.Inner);
  clinic = await side(h, OrgType.Clinic);
});
afterAll(() => h.close());

const verify = (s: { token: string }) => h.call('user/checkIdentity', { token: s.token, body: { password: PASSWORD } });
const areas = async (parentId?: string, token = clinic.token) => {
  const res = await h.call('area/listAreaByParentId', { token, body: parentId ? { parentId } : {} });
  expect(res.code).toBe(200);
  return res.data.list as { id: string; name: string; level: number; hasChildren: boolean }[];
};
const named = (list: { id: string; name: string }[], name: string) => list.find((a) => a.name === name);
const ADDRESS = {
  name: 'Bright Smile Dental',
  abbreviation: 'BSD',
  licenseCode: 'LIC-2026-001',
  representativeName: 'Ada Moreno',
  phone: '+1 415 555 0100',
  email: 'office@brightsmile.test',
  countryId: 'US',
  stateId: 'US-CA',
  district: 'Mission',
  postalCode: '94110',
  address: '100 Valencia Street',
};

/** A user of the organization with a role of its own (not an administrator) holding the given menu entries. */
/** A member of the clinic whose role holds these menu entries. */
const member = (s: Side, menuCodes: string[]) => memberOf(h, s, OrgType.Clinic, menuCodes);

async function uploadImage(token: string, target: string | null, bytes: Buffer | null, name = 'logo.png') {
  const base = await h.listen();
  const form = new FormData();
  if (target !== null) form.append('target', target);
  if (bytes) form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${base}/api/v2/company/uploadImage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: any }) };
}

const stored = async (key: string) => (await h.app.platform.store.size(key)) !== null;

describe('areas', () => {
  it('lists the countries of the caller’s regional site and real children down to cities and counties', async () => {
    const countries = await areas();
    expect(countries.map((c) => c.id).sort()).toEqual(['CA', 'US']);
    const states = await areas('US');
    expect(states.length).toBeGreaterThanOrEqual(50);
    const california = named(states, 'California')!;
    expect(california).toMatchObject({ id: 'US-CA', level: 2, hasChildren: true });
    const cities = await areas('US-CA');
    expect(cities.length).toBeGreaterThan(500);
    expect(named(cities, 'San Francisco')).toMatchObject({ level: 3, hasChildren: false });
    expect(named(cities, 'Los Angeles')).toBeDefined();
    expect(named(await areas('CA'), 'Ontario')).toBeDefined();
    expect(named(await areas('CA-ON'), 'Toronto')).toBeDefined();

    // The United Kingdom: its nations, then counties and council areas under their nation.
    expect((await areas('GB')).map((a) => a.name).sort()).toEqual(['England', 'Northern Ireland', 'Scotland', 'Wales']);
    expect(named(await areas('GB-ENG'), 'Kent')).toBeDefined();
    expect(named(await areas('GB-SCT'), 'Highland')).toBeDefined();
    expect(named(await areas('GB-WLS'), 'Cardiff')).toBeDefined();
    expect((await areas('GB-NIR')).length).toBe(11);
    // Europe: regions, and departments or provinces where they exist.
    expect(named(await areas('DE'), 'Bayern')).toBeDefined();
    const france = await areas('FR');
    const idf = france.find((a) => a.id === 'FR-IDF')!;
    expect(idf.hasChildren).toBe(true);
    expect((await areas('FR-IDF')).map((a) => a.id)).toContain('FR-75C');
    expect(await areas('ZZ')).toEqual([]);

    const bad = await h.call('area/listAreaByParentId', { token: clinic.token, body: { parentId: 'us; drop' } });
    expect([bad.status, bad.data?.field]).toEqual([400, 'parentId']);
  });
});

describe('organization information', () => {
  it('answers the caller’s organization', async () => {
    const info = await h.call('company/companyInfo', { token: clinic.token });
    expect(info.data).toMatchObject({
      organizationCode: clinic.code,
      type: OrgType.Clinic,
      region: 'us',
      status: 1,
      hasLogo: false,
      retentionDays: 30,
    });
  });

  it('saves the information with an address picked down the areas', async () => {
    const la = named(await areas('US-CA'), 'Los Angeles')!;
    const saved = await h.call('company/editCompany', { token: clinic.token, body: { ...ADDRESS, cityId: la.id } });
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({
      name: 'Bright Smile Dental',
      countryId: 'US',
      country: 'United States',
      stateId: 'US-CA',
      state: 'California',
      cityId: la.id,
      city: 'Los Angeles',
      district: 'Mission',
      postalCode: '94110',
    });
    const [row] = await h.db.query<{ name: string; city: string; phone: string }>(
      'SELECT name, city, phone FROM organizations WHERE id = $1',
      [clinic.organizationId],
    );
    expect(row).toEqual({ name: 'Bright Smile Dental', city: 'Los Angeles', phone: '+1 415 555 0100' });
    // Where the areas hold no cities the city is typed; an empty optional field clears it.
    const typed = await h.call('company/editCompany', {
      token: clinic.token,
      body: { ...ADDRESS, stateId: 'US-CA', city: 'Somewhere Small', abbreviation: '' },
    });
    expect(typed.data).toMatchObject({ cityId: null, city: 'Somewhere Small', abbreviation: null });
  });

  it('refuses bad input naming the field and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ADDRESS, name: '  ' }, 'name'],
      [{ ...ADDRESS, email: 'not-an-email' }, 'email'],
      [{ ...ADDRESS, phone: 'call me' }, 'phone'],
      [{ ...ADDRESS, countryId: 'united states' }, 'countryId'],
      // A country of another regional site.
      [{ ...ADDRESS, countryId: 'GB', stateId: 'GB-ENG' }, 'countryId'],
      // A state outside the country, or none where the country has states.
      [{ ...ADDRESS, stateId: 'CA-ON' }, 'stateId'],
      [{ ...ADDRESS, stateId: '' }, 'stateId'],
      // A city outside the state.
      [{ ...ADDRESS, cityId: 'CA-ON-0001' }, 'cityId'],
      [{ ...ADDRESS, postalCode: '<b>94110</b>' }, 'postalCode'],
      [{ ...ADDRESS, abbreviation: 'x'.repeat(33) }, 'abbreviation'],
      [{ ...ADDRESS, defaultToothNumbering: 'palmer' }, 'defaultToothNumbering'],
    ];
    for (const [body, field] of cases) {
      const before = await snapshot(h.db);
      const res = await h.call('company/editCompany', { token: clinic.token, body });
      expect([res.status, res.data?.field], JSON.stringify(body)).toEqual([400, field]);
      expect(await snapshot(h.db)).toBe(before);
    }
  });

  it("sets the tooth numbering its new users get; '' follows the country again, leaving it out keeps it", async () => {
    const addUser = async () => {
      const account = `staff${Math.random().toString(36).slice(2, 8)}`;
      const roles = await h.call('user/role/list', { token: clinic.token });
      const roleCode = roles.data.list.find((r: { builtIn: boolean }) => r.builtIn).roleCode as string;
      const res = await h.call('user/save_or_update', {
        token: clinic.token,
        body: { account, displayName: 'Sam Staff', email: `${account}@example.test`, roleCode },
      });
      expect(res.code).toBe(200);
      const [row] = await h.db.query<{ tooth_numbering_system: string }>(
        'SELECT tooth_numbering_system FROM users WHERE account = $1',
        [account],
      );
      return row!.tooth_numbering_system;
    };
    const edit = (extra: Record<string, unknown>) =>
      h.call('company/editCompany', { token: clinic.token, body: { ...ADDRESS, ...extra } });
    // A clinic in the United States: Universal unless it chooses otherwise.
    expect((await edit({ defaultToothNumbering: '' })).data.defaultToothNumbering).toBeNull();
    expect(await addUser()).toBe('universal');
    expect((await edit({ defaultToothNumbering: 'fdi' })).data.defaultToothNumbering).toBe('fdi');
    expect(await addUser()).toBe('fdi');
    expect((await edit({})).data.defaultToothNumbering).toBe('fdi');
    expect((await h.call('company/companyInfo', { token: clinic.token })).data.defaultToothNumbering).toBe('fdi');
    expect((await edit({ defaultToothNumbering: '' })).data.defaultToothNumbering).toBeNull();
    expect(await addUser()).toBe('universal');
  });

  it('is edited by those whose role has the button only', async () => {
    const desk = await member(clinic, ['dashboard', 'ownSpace']);
    expect((await h.call('company/companyInfo', { token: desk.token })).code).toBe(200);
    const before = await snapshot(h.db);
    const refused = await h.call('company/editCompany', { token: desk.token, body: ADDRESS });
    expect(refused.status).toBe(403);
    expect((await uploadImage(desk.token, 'organization', PNG)).status).toBe(403);
    expect(await snapshot(h.db)).toBe(before);
  });

  it('stores the logo and licence images checked by content and size, replacing the previous file', async () => {
    const first = await uploadImage(clinic.token, 'organization', PNG);
    expect(first.code).toBe(200);
    expect(first.data.hasLogo).toBe(true);
    const [{ logo: firstKey }] = (await h.db.query<{ logo: string }>('SELECT logo FROM organizations WHERE id = $1', [
      clinic.organizationId,
    ])) as [{ logo: string }];
    expect(await stored(firstKey)).toBe(true);
    const shown = await h.call('company/image', { token: clinic.token, body: { target: 'organization' } });
    expect(shown.status).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');

    // A text file named .png, an SVG (script can hide there), an oversized image, a wrong target: all refused.
    expect((await uploadImage(clinic.token, 'organization', Buffer.from('hello'), 'logo.png')).code).toBe(2026);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await uploadImage(clinic.token, 'organization', svg, 'logo.svg')).code).toBe(2026);
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await uploadImage(clinic.token, 'license', big)).code).toBe(2025);
    const wrong = await uploadImage(clinic.token, 'avatar', PNG);
    expect([wrong.status, wrong.data?.field]).toEqual([400, 'target']);
    const noFile = await uploadImage(clinic.token, 'license', null);
    expect([noFile.status, noFile.data?.field]).toEqual([400, 'file']);
    expect((await h.call('company/image', { token: clinic.token, body: { target: 'license' } })).status).toBe(404);

    const second = await uploadImage(clinic.token, 'organization', PNG);
    expect(second.code).toBe(200);
    expect(await stored(firstKey)).toBe(false);
    const license = await uploadImage(clinic.token, 'license', PNG, 'licence.jpg');
    expect(license.data.hasLicenseImage).toBe(true);
  });

  it('is open to the super administrator for any organization, images included, and to nobody else', async () => {
    const detail = await h.call('company/detail', { token: admin.token, body: { organizationCode: clinic.code } });
    expect(detail.code).toBe(200);
    expect(detail.data).toMatchObject({ organizationCode: clinic.code, type: OrgType.Clinic, hasLicenseImage: true });
    const image = await h.call('company/detailImage', {
      token: admin.token,
      body: { organizationCode: clinic.code, target: 'license' },
    });
    expect([image.status, image.headers['content-type']]).toEqual([200, 'image/png']);
    const unknown = await h.call('company/detail', { token: admin.token, body: { organizationCode: 'nosuchorg' } });
    expect(unknown.status).toBe(404);
    const missing = await h.call('company/detail', { token: admin.token, body: {} });
    expect([missing.status, missing.data?.field]).toEqual([400, 'organizationCode']);
    const other = await side(h, OrgType.Clinic);
    expect(
      (await h.call('company/detail', { token: other.token, body: { organizationCode: clinic.code } })).status,
    ).toBe(403);
  });
});

describe('closing the account', () => {
  it('needs the button (company:close), the password within 15 minutes and the name typed again', async () => {
    const s = await side(h, OrgType.Clinic);
    const desk = await member(s, ['ownSpace', 'ownSpace.companyEdit']);
    const name = `Org ${s.account}`;
    expect((await h.call('company/close_account', { token: s.token, body: { confirmName: name } })).code).toBe(1014);
    await verify(s);
    await verify(desk);
    await verify(admin);
    const before = await snapshot(h.db);
    const mismatch = await h.call('company/close_account', { token: s.token, body: { confirmName: 'Another name' } });
    expect([mismatch.code, mismatch.data?.field]).toEqual([2081, 'confirmName']);
    const empty = await h.call('company/close_account', { token: s.token, body: { confirmName: '' } });
    expect([empty.status, empty.data?.field]).toEqual([400, 'confirmName']);
    // A member who may edit the organization but whose role does not carry the button.
    expect((await h.call('company/close_account', { token: desk.token, body: { confirmName: name } })).code).toBe(1002);
    // The portal's own organization cannot be closed.
    const [{ name: innerName }] = (await h.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [
      admin.organizationId,
    ])) as [{ name: string }];
    expect((await h.call('company/close_account', { token: admin.token, body: { confirmName: innerName } })).code).toBe(
      2044,
    );
    expect(await snapshot(h.db)).toBe(before);
  }, 30_000);

  it('is refused while orders are open, listing them; then signs everyone out, ends partnerships, and is restorable', async () => {
    const c = await side(h, OrgType.Clinic);
    const lab = await side(h, OrgType.Lab);
    const partnerCode = await partner(h, c, lab);
    const [orderCode] = await sendToLab(h, c, partnerCode, [await newCase(h, c)]);
    const name = `Org ${c.account}`;
    await verify(c);
    const refused = await h.call('company/close_account', { token: c.token, body: { confirmName: name } });
    expect([refused.status, refused.code]).toEqual([409, 2080]);
    expect(refused.data.orders).toEqual([{ orderCode, status: 'pending', partner: `Org ${lab.account}` }]);
    expect((await h.call('user/info', { token: c.token })).code).toBe(200);

    expect((await orderAction(h, c, [orderCode!], 'cancel', { reason: 'Closing' })).code).toBe(200);
    const closed = await h.call('company/close_account', { token: c.token, body: { confirmName: ` ${name} ` } });
    expect(closed.code).toBe(200);
    expect(new Date(closed.data.purgeAfter).getTime() - new Date(closed.data.closedAt).getTime()).toBe(30 * 86_400_000);

    // Signed out at once; sign-in and refresh refused.
    expect((await h.call('user/info', { token: c.token })).code).toBe(402);
    expect((await h.call('login', { body: { account: c.account, password: PASSWORD } })).code).toBe(2082);
    expect((await h.call('user/refresh_token', { body: { refreshToken: c.refreshToken } })).code).not.toBe(200);
    // The laboratory sees the partnership ended.
    const [p] = await h.db.query<{ status: number }>('SELECT status FROM partnerships WHERE code = $1', [partnerCode]);
    expect(p!.status).toBe(PartnerStatus.Terminated);
    expect(await count(h, `partnership_events WHERE action = 'organization_closed'`)).toBeGreaterThanOrEqual(1);

    // The super administrator sees it closed and restores it.
    const listed = await h.call('company/listByPage', { token: admin.token, body: { keyword: c.code } });
    expect(listed.data.list[0]).toMatchObject({ status: 3, purgeAfter: closed.data.purgeAfter });
    expect((await h.call('company/restore', { token: lab.token, body: { organizationCode: c.code } })).status).toBe(
      403,
    );
    await verify(admin);
    expect((await h.call('company/restore', { token: admin.token, body: { organizationCode: 'nope' } })).code).toBe(
      404,
    );
    expect((await h.call('company/restore', { token: admin.token, body: { organizationCode: lab.code } })).code).toBe(
      404,
    );
    expect((await h.call('company/restore', { token: admin.token, body: { organizationCode: c.code } })).code).toBe(
      200,
    );
    const back = await login(h, c.account);
    expect((await h.call('company/companyInfo', { token: back.accessToken })).data.status).toBe(1);
  }, 60_000);

  it('after the retention period it cannot be restored and the job queue purges it with its stored files', async () => {
    const c = await side(h, OrgType.Clinic);
    const lab = await side(h, OrgType.Lab);
    const partnerCode = await partner(h, c, lab);
    const caseCode = await newCase(h, c);
    const base = await h.listen();
    await tusUpload(base, c.token, binaryStl(200), { caseCode, filename: 'upper.stl', jaw: 'upper' });
    const [orderCode] = await sendToLab(h, c, partnerCode, [caseCode]);
    expect((await orderAction(h, c, [orderCode!], 'cancel', { reason: 'Closing' })).code).toBe(200);
    expect((await uploadImage(c.token, 'organization', PNG)).code).toBe(200);
    const keys = [
      ...(await h.db.query<{ key: string }>('SELECT storage_key AS key FROM files WHERE organization_id = $1', [
        c.organizationId,
      ])),
      ...(await h.db.query<{ key: string }>('SELECT logo AS key FROM organizations WHERE id = $1', [c.organizationId])),
    ].map((r) => r.key);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(await stored(key)).toBe(true);

    await verify(c);
    expect(
      (await h.call('company/close_account', { token: c.token, body: { confirmName: `Org ${c.account}` } })).code,
    ).toBe(200);
    // Within the retention nothing is purged.
    expect(await h.app.housekeeping.run('closedOrganizationPurge')).toEqual({ queued: 0 });
    await h.db.query(`UPDATE organizations SET closed_at = now() - interval '31 days' WHERE id = $1`, [
      c.organizationId,
    ]);
    await verify(admin);
    expect((await h.call('company/restore', { token: admin.token, body: { organizationCode: c.code } })).code).toBe(
      2083,
    );

    expect(await h.app.housekeeping.run('closedOrganizationPurge')).toEqual({ queued: 1 });
    // Queued once, however often the upkeep runs before the job does.
    expect(await h.app.housekeeping.run('closedOrganizationPurge')).toEqual({ queued: 0 });
    await h.app.platform.jobs.drain();

    expect(await count(h, 'organizations WHERE id = $1', [c.organizationId])).toBe(0);
    expect(await count(h, 'users WHERE organization_id = $1', [c.organizationId])).toBe(0);
    expect(await count(h, 'cases WHERE organization_id = $1', [c.organizationId])).toBe(0);
    expect(await count(h, 'orders WHERE code = $1', [orderCode])).toBe(0);
    expect(await count(h, 'partnerships WHERE code = $1', [partnerCode])).toBe(0);
    expect(await count(h, 'blob_deletions')).toBe(0);
    for (const key of keys) expect(await stored(key)).toBe(false);
    // The laboratory carries on.
    expect((await h.call('user/info', { token: lab.token })).code).toBe(200);
    expect((await h.call('partner/list', { token: lab.token, body: { tab: 'mine' } })).data.total).toBe(0);
  }, 60_000);
});
