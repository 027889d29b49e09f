import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, OrgType } from '@portal/contracts';
import { createHarness, type Harness } from './harness.js';
import { member, newCase, partner, sendToLab, side, type Side } from './fixtures.js';

/** order/parties: the order list's partner filter for roles that read orders but not the partner screens. */
let h: Harness;
let clinic: Side;
let labs: Side[];
let codes: string[];

const orgName = async (s: Side) =>
  (await h.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [s.organizationId]))[0]!.name;
const parties = (s: { token: string }) => h.call('order/parties', { token: s.token, body: {} });

beforeAll(async () => {
  h = await createHarness();
  clinic = await side(h, OrgType.Clinic);
  labs = [await side(h, OrgType.Lab), await side(h, OrgType.Lab), await side(h, OrgType.Lab)];
  codes = [];
  for (const lab of labs) codes.push(await partner(h, clinic, lab));
  // Two orders to the first laboratory, one to the second, none to the third.
  await sendToLab(h, clinic, codes[0]!, [await newCase(h, clinic, 'First'), await newCase(h, clinic, 'Second')]);
  await sendToLab(h, clinic, codes[1]!, [await newCase(h, clinic, 'Third')]);
});
afterAll(() => h.close());

describe('order/parties', () => {
  it('answers each side the other side of its own orders, once per partnership, by name; a partner without orders is not one', async () => {
    const expected = [
      { partnerCode: codes[0]!, name: await orgName(labs[0]!) },
      { partnerCode: codes[1]!, name: await orgName(labs[1]!) },
    ].sort((x, y) => x.name.localeCompare(y.name));
    const res = await parties(clinic);
    expect([res.status, res.code]).toEqual([200, 200]);
    expect(res.data.list).toEqual(expected);
    expect((await parties(labs[0]!)).data.list).toEqual([{ partnerCode: codes[0]!, name: await orgName(clinic) }]);
    expect((await parties(labs[2]!)).data.list).toEqual([]);
    // Each answer is a filter of the list that finds that party's orders.
    const first = await h.call('order/list', { token: clinic.token, body: { partnerCode: codes[0]!, pageSize: 100 } });
    expect(first.data.total).toBe(2);
  });

  it('needs only order:view: a member who reads orders gets it without the partner screens, one without orders is refused', async () => {
    const reader = await member(h, labs[0]!, OrgType.Lab, ['orders', 'orderDetail']);
    expect((await parties(reader)).data.list).toEqual([{ partnerCode: codes[0]!, name: await orgName(clinic) }]);
    const partnerList = await h.call('partner/list', { token: reader.token, body: { tab: 'mine' } });
    expect([partnerList.status, partnerList.code]).toEqual([403, ERRORS.PARTNER_NO_ACCESS.code]);
    const staff = await member(h, clinic, OrgType.Clinic, ['dashboard', 'ownSpace']);
    const refused = await parties(staff);
    expect([refused.status, refused.code]).toEqual([403, ERRORS.NO_PERMISSION.code]);
    expect(refused.data).toBeNull();
  });

  it('order/labs answers the clinic every accepted partnership, orders or not, and needs only order:create', async () => {
    const expected = await Promise.all(labs.map(async (l, i) => ({ partnerCode: codes[i]!, name: await orgName(l) })));
    expected.sort((x, y) => x.name.localeCompare(y.name) || x.partnerCode.localeCompare(y.partnerCode));
    const labsOf = (s: { token: string }) => h.call('order/labs', { token: s.token, body: {} });
    expect((await labsOf(clinic)).data.list).toEqual(expected);
    const sender = await member(h, clinic, OrgType.Clinic, ['orders', 'orders.create']);
    expect((await labsOf(sender)).data.list).toEqual(expected);
    const reader = await member(h, clinic, OrgType.Clinic, ['orders', 'orderDetail']);
    expect([(await labsOf(reader)).status, (await labsOf(reader)).code]).toEqual([403, ERRORS.NO_PERMISSION.code]);
    // An ended partnership is no longer a place to send to.
    expect(
      (
        await h.call('partner/terminate', {
          token: labs[2]!.token,
          body: { partnerCode: codes[2]!, reason: 'Closing' },
        })
      ).code,
    ).toBe(200);
    expect((await labsOf(clinic)).data.list.map((l: { partnerCode: string }) => l.partnerCode)).not.toContain(codes[2]);
    expect((await labsOf(await side(h, OrgType.Clinic))).data.list).toEqual([]);
  });

  it('holds nothing of other organizations for a stranger, and refuses a caller without a token', async () => {
    const stranger = await side(h, OrgType.Clinic);
    expect((await parties(stranger)).data.list).toEqual([]);
    const anonymous = await h.call('order/parties', { body: {} });
    expect(anonymous.status).toBe(401);
  });
});
