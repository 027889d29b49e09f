import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, snapshot, type Harness } from './harness.js';

let h: Harness;
let clinic: string;
let lab: string;
let clinicOrgId: number;
let partnerCode: string;
let caseCode: string;
beforeAll(async () => {
  h = await createHarness();
  const c = await createUser(h.db, { orgType: OrgType.Clinic });
  const l = await createUser(h.db, { orgType: OrgType.Lab });
  clinic = (await login(h, c.account)).accessToken;
  clinicOrgId = c.organizationId;
  lab = (await login(h, l.account)).accessToken;
  const [labOrg] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
    l.organizationId,
  ]);
  partnerCode = (await h.call('partner/apply', { token: clinic, body: { organizationCode: labOrg!.code } })).data
    .partnerCode;
  await h.call('partner/accept', { token: lab, body: { partnerCode } });
  caseCode = (await h.call('case/create', { token: clinic, body: { name: 'Bridge 14-16', patientName: 'Ida Berg' } }))
    .data.caseCode;
});
afterAll(() => h.close());

const send = (teeth: unknown[]) =>
  h.call('order/create', {
    token: clinic,
    body: { caseCodes: [caseCode], partnerCode, orderType: 'restoration', workTypes: ['Crown', 'Pontic'], teeth },
  });

const bridge = [
  { number: 14, unit: 'abutment', bridgeGroup: 1, shade: 'A2', stumpShade: 'ND3' },
  { number: 15, unit: 'pontic', bridgeGroup: 1, shade: 'A2', missing: true },
  { number: 16, unit: 'abutment', bridgeGroup: 1, shade: '3M2' },
];

describe('a prescription', () => {
  it.each([
    ['a shade of no guide', [{ number: 16, shade: 'A2+' }], 'teeth.0.shade'],
    ['a stump shade of no guide', [{ number: 16, shade: 'A2', stumpShade: 'A2' }], 'teeth.0.stumpShade'],
    [
      'a pontic without an abutment',
      [
        { number: 15, unit: 'pontic', bridgeGroup: 1 },
        { number: 16, unit: 'pontic', bridgeGroup: 1 },
      ],
      'teeth.0.unit',
    ],
    ['a pontic outside any bridge', [{ number: 15, unit: 'pontic' }], 'teeth.0.bridgeGroup'],
    ['a bridge with a gap', [bridge[0], bridge[2]], 'teeth.0.bridgeGroup'],
    ['a pontic on an implant', [bridge[0], { ...bridge[1], implant: true }, bridge[2]], 'teeth.1.implant'],
    ['a tooth twice', [{ number: 16 }, { number: 16 }], 'teeth.1.number'],
  ])('refuses %s with 400 naming the field, and changes nothing', async (_what, teeth, field) => {
    const before = await snapshot(h.db);
    const res = await send(teeth);
    expect(res.status).toBe(400);
    expect(res.data.field).toBe(field);
    expect(await snapshot(h.db)).toBe(before);
  });

  it('keeps a bridge with its abutments, pontic, missing tooth and shades, and the detail shows it', async () => {
    const res = await send(bridge);
    expect(res.status).toBe(200);
    const orderCode = res.data.list[0].orderCode as string;
    const detail = await h.call('order/detail', { token: clinic, body: { orderCode } });
    expect(detail.data.teeth).toEqual(bridge);
  });

  it('still shows the free-text shade of an order made before the guides', async () => {
    const res = await send([{ number: 21, shade: 'A2' }]);
    const orderCode = res.data.list[0].orderCode as string;
    await h.db.query(`UPDATE orders SET teeth = $2 WHERE code = $1`, [
      orderCode,
      JSON.stringify([{ number: 21, shade: 'like 22, slightly warmer' }]),
    ]);
    const detail = await h.call('order/detail', { token: clinic, body: { orderCode } });
    expect(detail.status).toBe(200);
    expect(detail.data.teeth).toEqual([{ number: 21, shade: 'like 22, slightly warmer' }]);
  });

  it('says why an order cannot be completed in words, its status translated', async () => {
    const res = await send([{ number: 11, shade: 'B1' }]);
    const orderCode = res.data.list[0].orderCode as string;
    const refused = await h.call('order/action', {
      token: clinic,
      body: { orderCodes: [orderCode], action: 'complete' },
    });
    expect(refused.data.results[0]).toMatchObject({
      ok: false,
      code: 2035,
      msg: 'This order cannot be changed that way in its current state (Pending).',
    });
  });
});

describe("the laboratory's progress per tooth", () => {
  it('is marked by the laboratory while it produces the order, and the clinic reads it on the order', async () => {
    // A stage is no part of a prescription: the clinic cannot send one.
    const sent = await send([...bridge, { number: 26, shade: 'A3', stage: 'done' }]);
    const orderCode = sent.data.list[0].orderCode as string;
    const stage = (token: string, body: Record<string, unknown>) =>
      h.call('order/toothStage', { token, body: { orderCode, ...body } });
    const detail = async () => (await h.call('order/detail', { token: clinic, body: { orderCode } })).data.teeth;
    expect((await detail()).find((t: { number: number }) => t.number === 26).stage).toBeUndefined();

    // Not before the laboratory has accepted it.
    const early = await stage(lab, { teeth: [26], stage: 'design' });
    expect([early.status, early.code]).toEqual([409, 2035]);
    await h.call('order/action', { token: lab, body: { orderCodes: [orderCode], action: 'accept' } });

    // The bridge in design, the crown in milling.
    expect((await stage(lab, { teeth: [14, 15, 16], stage: 'design' })).code).toBe(200);
    expect((await stage(lab, { teeth: [26], stage: 'milling' })).code).toBe(200);
    const teeth = await detail();
    expect(teeth.map((t: { number: number; stage?: string }) => [t.number, t.stage])).toEqual([
      [14, 'design'],
      [15, 'design'],
      [16, 'design'],
      [26, 'milling'],
    ]);
    // What the clinic prescribed is kept as it was.
    expect(teeth[0]).toMatchObject({ unit: 'abutment', bridgeGroup: 1, shade: 'A2', stumpShade: 'ND3' });

    // Refused, nothing changed: a tooth not in the order (named), a stage that does not exist, the clinic.
    const before = await snapshot(h.db);
    const stray = await stage(lab, { teeth: [26, 36], stage: 'done' });
    expect([stray.status, stray.data.field]).toEqual([400, 'teeth.1']);
    const unknown = await stage(lab, { teeth: [26], stage: 'polishing' });
    expect([unknown.status, unknown.data.field]).toEqual([400, 'stage']);
    expect((await stage(clinic, { teeth: [26], stage: 'done' })).code).toBe(1002);
    expect(await snapshot(h.db)).toBe(before);

    // Once ready, the stages stay as the laboratory left them and no longer change.
    await h.call('order/action', { token: lab, body: { orderCodes: [orderCode], action: 'ready' } });
    expect((await stage(lab, { teeth: [26], stage: 'done' })).code).toBe(2035);
    expect((await detail()).find((t: { number: number }) => t.number === 26).stage).toBe('milling');
  });
});

describe('tooth numbering of a new user', () => {
  async function addUser() {
    const account = `staff${Math.random().toString(36).slice(2, 8)}`;
    const roles = await h.call('user/role/list', { token: clinic });
    const roleCode = roles.data.list.find((r: { builtIn: boolean }) => r.builtIn).roleCode as string;
    const res = await h.call('user/save_or_update', {
      token: clinic,
      body: { account, displayName: 'Sam Staff', email: `${account}@example.test`, roleCode },
    });
    expect(res.code).toBe(200);
    const [row] = await h.db.query<{ tooth_numbering_system: string }>(
      'SELECT tooth_numbering_system FROM users WHERE account = $1',
      [account],
    );
    return row!.tooth_numbering_system;
  }

  it('follows where the organization works: Universal in the United States and Canada, FDI elsewhere', async () => {
    await h.db.query('UPDATE organizations SET country = $2 WHERE id = $1', [clinicOrgId, 'Canada']);
    expect(await addUser()).toBe('universal');
    await h.db.query('UPDATE organizations SET country = $2 WHERE id = $1', [clinicOrgId, 'Germany']);
    expect(await addUser()).toBe('fdi');
  });
});
