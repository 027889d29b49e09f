import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, type Harness } from './harness.js';

let h: Harness;
let clinic: { token: string };
let lab: { token: string; userId: number; organizationId: number };
let otherClinic: { token: string };
let partnerCode: string;
let otherPartnerCode: string;

async function partner(clinicToken: string, labToken: string, labOrgId: number) {
  const [labOrg] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [labOrgId]);
  const code = (await h.call('partner/apply', { token: clinicToken, body: { organizationCode: labOrg!.code } })).data
    .partnerCode as string;
  await h.call('partner/accept', { token: labToken, body: { partnerCode: code } });
  return code;
}

beforeAll(async () => {
  h = await createHarness();
  const c = await createUser(h.db, { orgType: OrgType.Clinic });
  const l = await createUser(h.db, { orgType: OrgType.Lab });
  const c2 = await createUser(h.db, { orgType: OrgType.Clinic });
  clinic = { token: (await login(h, c.account)).accessToken };
  lab = { token: (await login(h, l.account)).accessToken, userId: l.userId, organizationId: l.organizationId };
  otherClinic = { token: (await login(h, c2.account)).accessToken };
  partnerCode = await partner(clinic.token, lab.token, l.organizationId);
  otherPartnerCode = await partner(otherClinic.token, lab.token, l.organizationId);
});
afterAll(() => h.close());

const act = (token: string, orderCodes: string[], action: string, extra: Record<string, unknown> = {}) =>
  h.call('order/action', { token, body: { orderCodes, action, ...extra } });

/** A new order of the clinic at the laboratory, taken as far as `upTo`. */
async function order(upTo: 'pending' | 'ready' | 'shipped' | 'completed' = 'shipped', name = 'Crown') {
  const caseCode = (await h.call('case/create', { token: clinic.token, body: { name, patientName: 'Greta Lund' } }))
    .data.caseCode as string;
  const made = await h.call('order/create', {
    token: clinic.token,
    body: {
      caseCodes: [caseCode],
      partnerCode,
      orderType: 'implant',
      workTypes: ['Crown', 'Pontic'],
      teeth: [
        { number: 14, shade: 'A2', material: 'Zirconia' },
        { number: 16, shade: 'A2', material: 'Zirconia', implant: true },
      ],
      memo: 'Light contacts please',
    },
  });
  const code = made.data.list[0].orderCode as string;
  if (upTo === 'pending') return { code, caseCode };
  await act(lab.token, [code], 'accept');
  await act(lab.token, [code], 'ready');
  if (upTo === 'ready') return { code, caseCode };
  await act(lab.token, [code], 'ship', { trackingNumber: 'DHL-1' });
  if (upTo === 'completed') await act(clinic.token, [code], 'complete');
  return { code, caseCode };
}

const remake = (token: string, body: Record<string, unknown>) => h.call('order/remake', { token, body });
const detail = async (token: string, orderCode: string) =>
  (await h.call('order/detail', { token, body: { orderCode } })).data;

/** What a refused remake must leave as it was. */
async function orderState() {
  const out: unknown[] = [];
  for (const t of ['orders', 'order_events', 'cases', 'lab_scorecard_days'])
    out.push(await h.db.query(`SELECT * FROM ${t} ORDER BY 1, 2`));
  // Mails of earlier changes may still be leaving (they clear mail_batch after the answer): the rows themselves count.
  out.push(await h.db.query(`SELECT id, user_id, order_id, event, params FROM notifications ORDER BY id`));
  return JSON.stringify(out);
}

describe('remakes', () => {
  it('make a new pending order at the same laboratory, with the case and prescription, linked both ways', async () => {
    const original = await order('shipped');
    const res = await remake(clinic.token, { orderCode: original.code, reason: 'fit', note: ' Margin open at 16 ' });
    expect(res.code).toBe(200);
    const made = res.data;
    expect(made).toMatchObject({
      status: 'pending',
      caseCode: original.caseCode,
      orderType: 'implant',
      workTypes: ['Crown', 'Pontic'],
      teeth: [
        { number: 14, shade: 'A2', material: 'Zirconia' },
        { number: 16, shade: 'A2', material: 'Zirconia', implant: true },
      ],
      memo: 'Light contacts please',
      remakeOf: { orderCode: original.code, reason: 'fit', note: 'Margin open at 16' },
      remakes: [],
      trackingNumber: null,
    });
    expect(made.orderCode).not.toBe(original.code);
    expect(made.events).toEqual([
      expect.objectContaining({
        action: 'remake',
        to: 'pending',
        reason: 'Margin open at 16',
        linkedOrderCode: original.code,
      }),
    ]);
    // The original keeps its status; its timeline names the remake, on both sides.
    for (const token of [clinic.token, lab.token]) {
      const o = await detail(token, original.code);
      expect(o.status).toBe('shipped');
      expect(o.remakes).toEqual([{ orderCode: made.orderCode, reason: 'fit', status: 'pending' }]);
      expect(o.events.at(-1)).toMatchObject({
        action: 'remakeRequested',
        from: 'shipped',
        to: 'shipped',
        linkedOrderCode: made.orderCode,
      });
      expect((await detail(token, made.orderCode)).remakeOf).toMatchObject({ orderCode: original.code });
    }
    // The case follows its running remake; the laboratory is told as of a new order.
    expect(
      (await h.call('case/detail', { token: clinic.token, body: { caseCode: original.caseCode } })).data.status,
    ).toBe('sent');
    const [notice] = await h.db.query<{ event: string; params: unknown }>(
      `SELECT n.event, n.params FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.code = $1 AND n.user_id = $2`,
      [made.orderCode, lab.userId],
    );
    expect(notice).toMatchObject({ event: 'remake', params: { original: original.code } });
    // The laboratory takes the remake like any order.
    expect((await act(lab.token, [made.orderCode], 'accept')).data.results[0].ok).toBe(true);
  });

  it('are asked of completed orders too, one standing remake at a time', async () => {
    const original = await order('completed');
    const first = await remake(clinic.token, { orderCode: original.code, reason: 'shade' });
    expect(first.code).toBe(200);
    expect(first.data.remakeOf).toEqual({ orderCode: original.code, reason: 'shade', note: null });
    const before = await orderState();
    const again = await remake(clinic.token, { orderCode: original.code, reason: 'fit' });
    expect([again.status, again.code]).toEqual([409, 2059]);
    expect(again.msg).toContain(first.data.orderCode);
    expect(await orderState()).toBe(before);
    // Once the first is withdrawn, another may be asked.
    await act(clinic.token, [first.data.orderCode], 'cancel');
    const second = await remake(clinic.token, { orderCode: original.code, reason: 'fit' });
    expect(second.code).toBe(200);
    expect((await detail(clinic.token, original.code)).remakes.map((r: { status: string }) => r.status)).toEqual([
      'canceled',
      'pending',
    ]);
  });

  it('are refused for orders not yet shipped, for others, for laboratories and for bad input, changing nothing', async () => {
    const pending = await order('pending');
    const ready = await order('ready');
    const shipped = await order('shipped');
    const before = await orderState();
    for (const code of [pending.code, ready.code]) {
      const r = await remake(clinic.token, { orderCode: code, reason: 'fit' });
      expect([r.status, r.code]).toEqual([409, 2058]);
    }
    // Another clinic cannot tell the order from one that does not exist; a laboratory has no such button.
    expect((await remake(otherClinic.token, { orderCode: shipped.code, reason: 'fit' })).code).toBe(404);
    expect((await remake(clinic.token, { orderCode: 'o-none', reason: 'fit' })).code).toBe(404);
    const byLab = await remake(lab.token, { orderCode: shipped.code, reason: 'fit' });
    expect([byLab.status, byLab.code]).toEqual([403, 1002]);
    for (const [body, field] of [
      [{ orderCode: shipped.code, reason: 'ugly' }, 'reason'],
      [{ orderCode: shipped.code }, 'reason'],
      [{ orderCode: shipped.code, reason: 'fit', note: 'x'.repeat(2001) }, 'note'],
      [{ reason: 'fit' }, 'orderCode'],
    ] as const) {
      const r = await remake(clinic.token, body);
      expect([r.status, r.data?.field]).toEqual([400, field]);
    }
    expect(await orderState()).toBe(before);
  });

  it('are refused once the partnership has ended', async () => {
    const shipped = await order('shipped');
    await h.db.query(`UPDATE partnerships SET status = 3 WHERE code = $1`, [partnerCode]);
    try {
      const r = await remake(clinic.token, { orderCode: shipped.code, reason: 'fit' });
      expect([r.status, r.code]).toEqual([409, 2036]);
    } finally {
      await h.db.query(`UPDATE partnerships SET status = 1 WHERE code = $1`, [partnerCode]);
    }
  });
});

describe('lab scorecards', () => {
  it('give on-time rate, remakes by reason and median turnaround per window, as computed by hand', async () => {
    // A laboratory of its own, so the figures hold only this test's orders.
    const l = await createUser(h.db, { orgType: OrgType.Lab });
    const labToken = (await login(h, l.account)).accessToken;
    const code = await partner(clinic.token, labToken, l.organizationId);
    const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
    // Five orders shipped today, made N days ago, with their due dates (estimated wins over requested):
    // A 2 days, requested +5 → on time        B 3 days, estimated -1 (requested +10) → late
    // C 3 days, no due date → not counted     D 8 days, requested -2 → late        E 0 days, estimated today → on time
    const plan = [
      { name: 'A', age: 2, requested: day(5), estimated: null },
      { name: 'B', age: 3, requested: day(10), estimated: day(-1) },
      { name: 'C', age: 3, requested: null, estimated: null },
      { name: 'D', age: 8, requested: day(-2), estimated: null },
      { name: 'E', age: 0, requested: null, estimated: day(0) },
    ];
    const codes: Record<string, string> = {};
    for (const p of plan) {
      const caseCode = (
        await h.call('case/create', { token: clinic.token, body: { name: p.name, patientName: 'Ida Roth' } })
      ).data.caseCode;
      const made = await h.call('order/create', {
        token: clinic.token,
        body: { caseCodes: [caseCode], partnerCode: code, orderType: 'restoration', workTypes: ['Crown'], teeth: [] },
      });
      const o = made.data.list[0].orderCode as string;
      codes[p.name] = o;
      await h.db.query(
        `UPDATE orders SET created_at = now() - make_interval(days => $2), requested_delivery_date = $3, estimated_delivery_date = $4 WHERE code = $1`,
        [o, p.age, p.requested, p.estimated],
      );
      await act(labToken, [o], 'accept');
      await act(labToken, [o], 'ready');
      // The arrival estimate given when shipping does not move the due date the order was shipped against.
      await act(labToken, [o], 'ship', { trackingNumber: 'UPS-1', estimatedDeliveryDate: day(30) });
    }
    // Remakes: A for fit, B for shade; D's remake (fit) is withdrawn and does not count.
    const remakeOf = async (name: string, reason: string) =>
      (await remake(clinic.token, { orderCode: codes[name]!, reason })).data.orderCode as string;
    await remakeOf('A', 'fit');
    const remakeB = await remakeOf('B', 'shade');
    await act(clinic.token, [await remakeOf('D', 'fit')], 'cancel');

    const card = async (token: string, body: Record<string, unknown> = {}) =>
      (await h.call('scorecard/lab', { token, body })).data;
    const pick = (w: {
      days: number;
      shipped: number;
      dueCounted: number;
      onTime: number;
      onTimeRate: number | null;
      remakes: number;
      remakeRate: number | null;
      medianTurnaroundDays: number | null;
      remakesByReason: { reason: string; count: number }[];
    }) => [
      w.days,
      w.shipped,
      w.dueCounted,
      w.onTime,
      w.onTimeRate,
      w.remakes,
      w.remakeRate,
      w.medianTurnaroundDays,
      Object.fromEntries(w.remakesByReason.filter((r) => r.count).map((r) => [r.reason, r.count])),
    ];
    let mine = await card(labToken);
    expect(mine.lab.code).toBeTruthy();
    // 30 days: shipped 5; due dates on A, B, D, E; on time A, E → 2/4; remakes fit 1, shade 1 → 2/5; 0 2 3 3 8 → 3.
    for (const w of mine.windows) expect(pick(w)).toEqual([w.days, 5, 4, 2, 0.5, 2, 0.4, 3, { fit: 1, shade: 1 }]);
    // The clinic sees the same card through its partnership.
    expect(await card(clinic.token, { partnerCode: code })).toEqual(mine);

    // D shipped 60 days ago and B's remake was asked then: they leave the 30-day window, not the 90-day one.
    await h.db.query(
      `UPDATE lab_scorecard_days SET day = day - 60 WHERE lab_organization_id = $1 AND turnaround_days = 8`,
      [l.organizationId],
    );
    await h.db.query(`UPDATE orders SET created_at = created_at - interval '60 days' WHERE code = $1`, [remakeB]);
    // The card computed above is kept until the laboratory's figures change; moving rows by hand is no such change,
    // so the kept card is dropped as a shipment drops it.
    await h.db.query(`UPDATE lab_scorecards SET version = version + 1, figures = NULL WHERE lab_organization_id = $1`, [
      l.organizationId,
    ]);
    mine = await card(labToken);
    // 30 days: A B C E shipped (2 3 3 0 → 2.5); due A B E, on time A E → 2/3; remakes fit 1 → 1/4.
    expect(pick(mine.windows[0])).toEqual([30, 4, 3, 2, 2 / 3, 1, 0.25, 2.5, { fit: 1 }]);
    expect(pick(mine.windows[1])).toEqual([90, 5, 4, 2, 0.5, 2, 0.4, 3, { fit: 1, shade: 1 }]);
    expect(pick(mine.windows[2])).toEqual([365, 5, 4, 2, 0.5, 2, 0.4, 3, { fit: 1, shade: 1 }]);
    // The weekly trend: this week A B C E and A's remake; D and B's remake in the week 60 days ago.
    expect(mine.weeks).toHaveLength(12);
    expect(mine.weeks.at(-1)).toMatchObject({ shipped: 4, onTimeRate: 2 / 3, remakeRate: 0.25 });
    const monday = (d: string) => {
      const x = new Date(`${d}T00:00:00Z`);
      x.setUTCDate(x.getUTCDate() - ((x.getUTCDay() + 6) % 7));
      return x.toISOString().slice(0, 10);
    };
    expect(mine.weeks.find((w: { weekStart: string }) => w.weekStart === monday(day(-60)))).toEqual({
      weekStart: monday(day(-60)),
      shipped: 1,
      onTimeRate: 0,
      remakeRate: 1,
    });
    expect(mine.weeks.reduce((s: number, w: { shipped: number }) => s + w.shipped, 0)).toBe(5);

    // The kept card follows every change: a sixth shipment (made today, no due date), then A's remake withdrawn.
    const caseF = (await h.call('case/create', { token: clinic.token, body: { name: 'F', patientName: 'Ida Roth' } }))
      .data.caseCode;
    const f = (
      await h.call('order/create', {
        token: clinic.token,
        body: { caseCodes: [caseF], partnerCode: code, orderType: 'restoration', workTypes: ['Crown'], teeth: [] },
      })
    ).data.list[0].orderCode as string;
    for (const [action, extra] of [
      ['accept', {}],
      ['ready', {}],
      ['ship', { trackingNumber: 'UPS-2' }],
    ] as const)
      await act(labToken, [f], action, extra);
    // 30 days: 0 0 2 3 3 → 2; 2 of 3 on time; 1 remake of 5.
    expect(pick((await card(labToken)).windows[0])).toEqual([30, 5, 3, 2, 2 / 3, 1, 0.2, 2, { fit: 1 }]);
    const remakeA = (await detail(clinic.token, codes.A!)).remakes[0].orderCode as string;
    await act(clinic.token, [remakeA], 'cancel');
    expect(pick((await card(clinic.token, { partnerCode: code })).windows[0])).toEqual([
      30,
      5,
      3,
      2,
      2 / 3,
      0,
      0,
      2,
      {},
    ]);
  });

  it('show a clinic only the laboratories on its partner list, and a laboratory only its own', async () => {
    // The other clinic's partnership with the same laboratory is not this clinic's to name.
    const r = await h.call('scorecard/lab', { token: clinic.token, body: { partnerCode: otherPartnerCode } });
    expect(r.code).toBe(404);
    const none = await h.call('scorecard/lab', { token: clinic.token, body: {} });
    expect([none.status, none.data.field]).toEqual([400, 'partnerCode']);
    const own = await h.call('scorecard/lab', { token: lab.token, body: { partnerCode } });
    const mine = await h.call('scorecard/lab', { token: lab.token, body: {} });
    expect(own.data).toEqual(mine.data);
    expect(
      (await h.call('scorecard/lab', { token: otherClinic.token, body: { partnerCode: otherPartnerCode } })).data.lab,
    ).toEqual(mine.data.lab);
  });
});
