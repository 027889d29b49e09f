import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS_BY_ORDER,
  ORDER_ACTIONS,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  OrgType,
  canOrder,
  dateInTimeZone,
} from '@portal/contracts';
import { MIGRATIONS_DIR } from '../src/platform/paths.js';
import { createHarness, createUser, login, snapshot, type Harness } from './harness.js';

let h: Harness;
let clinic: { token: string };
let lab: { token: string };
let stranger: { token: string };
let partnerCode: string;
beforeAll(async () => {
  h = await createHarness();
  const c = await createUser(h.db, { orgType: OrgType.Clinic });
  const l = await createUser(h.db, { orgType: OrgType.Lab });
  clinic = { token: (await login(h, c.account)).accessToken };
  lab = { token: (await login(h, l.account)).accessToken };
  stranger = { token: (await login(h, (await createUser(h.db, { orgType: OrgType.Lab })).account)).accessToken };
  const [labOrg] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
    l.organizationId,
  ]);
  partnerCode = (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: labOrg!.code } })).data
    .partnerCode;
  await h.call('partner/accept', { token: lab.token, body: { partnerCode } });
});
afterAll(() => h.close());

async function send(over: Record<string, unknown> = {}, cases = 1) {
  const caseCodes: string[] = [];
  for (let i = 0; i < cases; i++)
    caseCodes.push(
      (await h.call('case/create', { token: clinic.token, body: { name: `Crown ${i}`, patientName: 'Greta Lund' } }))
        .data.caseCode,
    );
  const res = await h.call('order/create', {
    token: clinic.token,
    body: {
      caseCodes,
      partnerCode,
      orderType: 'restoration',
      workTypes: ['Crown'],
      teeth: [{ number: 16, shade: 'A2', material: 'Zirconia', method: 'screwRetained', implant: true }],
      requestedDeliveryDate: '2026-12-10',
      ...over,
    },
  });
  return { res, caseCodes };
}
const act = (token: string, orderCodes: string[], action: string, extra: Record<string, unknown> = {}) =>
  h.call('order/action', { token, body: { orderCodes, action, ...extra } });

describe('orders', () => {
  it('go from prescription to completion, with the timeline both sides see and the case following', async () => {
    const { res, caseCodes } = await send();
    expect(res.data.list).toHaveLength(1);
    const order = res.data.list[0];
    expect(order).toMatchObject({
      status: 'pending',
      patientName: 'Greta Lund',
      teeth: [{ number: 16, shade: 'A2', material: 'Zirconia', implant: true }],
    });
    expect((await h.call('case/detail', { token: clinic.token, body: { caseCode: caseCodes[0] } })).data.status).toBe(
      'sent',
    );
    for (const [token, action, extra] of [
      [lab.token, 'accept', {}],
      [lab.token, 'startProcessing', {}],
      [lab.token, 'ready', {}],
      [lab.token, 'ship', { trackingNumber: 'DHL-123', estimatedDeliveryDate: '2026-12-09' }],
      [clinic.token, 'complete', {}],
    ] as const) {
      const r = await act(token, [order.orderCode], action, extra);
      expect(r.data.results[0], action).toMatchObject({ ok: true });
    }
    const fromLab = (await h.call('order/detail', { token: lab.token, body: { orderCode: order.orderCode } })).data;
    const fromClinic = (await h.call('order/detail', { token: clinic.token, body: { orderCode: order.orderCode } }))
      .data;
    expect(fromLab.events).toEqual(fromClinic.events);
    expect(fromLab.events.map((e: { action: string; to: string }) => `${e.action}:${e.to}`)).toEqual([
      'create:pending',
      'accept:accepted',
      'startProcessing:accepted',
      'ready:ready',
      'ship:shipped',
      'complete:completed',
    ]);
    expect(fromLab).toMatchObject({
      status: 'completed',
      processing: true,
      trackingNumber: 'DHL-123',
      estimatedDeliveryDate: '2026-12-09',
    });
    expect((await h.call('case/detail', { token: clinic.token, body: { caseCode: caseCodes[0] } })).data.status).toBe(
      'completed',
    );
  });

  it('enforce the transition table for every action, status and side; illegal moves change nothing', async () => {
    // The table itself: who may do what from where.
    for (const action of ORDER_ACTIONS) {
      for (const status of ORDER_STATUSES) {
        for (const side of ['clinic', 'lab'] as const) {
          const t = ORDER_TRANSITIONS[action];
          expect(canOrder(action, status, side, false)).toBe(t.by === side && t.from.includes(status));
        }
      }
    }
    expect(canOrder('startProcessing', 'accepted', 'lab', true)).toBe(false);
    // And the server: a pending order refuses what the table refuses.
    const order = (await send()).res.data.list[0].orderCode;
    const before = await snapshot(h.db);
    // Actions of the other side are not even among the role's buttons: refused as a whole (1002).
    for (const [token, action] of [
      [clinic.token, 'accept'],
      [lab.token, 'cancel'],
    ] as const) {
      const r = await act(token, [order], action, { trackingNumber: 'X' });
      expect([r.status, r.code], action).toEqual([403, 1002]);
    }
    // Actions of the right side from the wrong status: each order answers 2035.
    for (const [token, action] of [
      [lab.token, 'ready'],
      [lab.token, 'ship'],
      [clinic.token, 'complete'],
      [lab.token, 'startProcessing'],
    ] as const) {
      const r = await act(token, [order], action, { trackingNumber: 'X' });
      expect(r.data.results[0], `${action}`).toMatchObject({ ok: false, code: 2035 });
    }
    expect((await act(lab.token, [order], 'reject')).data.field).toBe('reason');
    expect((await act(lab.token, [order], 'ship')).data.field).toBe('trackingNumber');
    expect(await snapshot(h.db)).toBe(before);
    expect((await act(clinic.token, [order], 'cancel')).data.results[0].ok).toBe(true);
    expect((await act(lab.token, [order], 'accept')).data.results[0]).toMatchObject({ ok: false, code: 2035 });
  });

  it('hide the patient name from the laboratory when it is not shared', async () => {
    const order = (await send({ sharePatientName: false })).res.data.list[0].orderCode;
    expect(
      (await h.call('order/detail', { token: lab.token, body: { orderCode: order } })).data.patientName,
    ).toBeNull();
    expect(
      (await h.call('order/list', { token: lab.token, body: {} })).data.list.find(
        (o: { orderCode: string }) => o.orderCode === order,
      ).patientName,
    ).toBeNull();
    expect((await h.call('order/detail', { token: clinic.token, body: { orderCode: order } })).data.patientName).toBe(
      'Greta Lund',
    );
  });

  it('go only to accepted partners, and only each side sees its orders', async () => {
    const before = (await send()).res.data.list[0].orderCode;
    await h.call('partner/terminate', { token: clinic.token, body: { partnerCode } });
    const refused = await send();
    expect([refused.res.status, refused.res.code]).toEqual([409, 2036]);
    // Orders made before the partnership ended stay readable to both sides; their thread takes no new messages.
    for (const token of [clinic.token, lab.token]) {
      expect((await h.call('order/detail', { token, body: { orderCode: before } })).data.orderCode).toBe(before);
      expect((await h.call('msg/send', { token, body: { orderCode: before, content: 'still here' } })).code).toBe(2088);
    }
    await h.call('partner/apply', {
      token: clinic.token,
      body: {
        organizationCode: (await h.call('user/getPartnerInfo', { token: clinic.token, body: { partnerCode } })).data
          .organization.code,
      },
    });
    await h.call('partner/accept', { token: lab.token, body: { partnerCode } });
    const order = (await send()).res.data.list[0].orderCode;
    expect((await h.call('order/detail', { token: stranger.token, body: { orderCode: order } })).code).toBe(404);
    expect((await h.call('order/list', { token: stranger.token, body: {} })).data.total).toBe(0);
    expect((await act(stranger.token, [order], 'accept')).data.results[0]).toMatchObject({ ok: false, code: 404 });
    const dealer = (await login(h, (await createUser(h.db, { orgType: OrgType.Dealer })).account)).accessToken;
    expect((await h.call('order/list', { token: dealer, body: {} })).code).toBe(1002);
  });

  it("filter by the reader's days: a day starts at midnight in the timezone the request names", async () => {
    const order = (await send()).res.data.list[0].orderCode as string;
    // Kiritimati is UTC+14 and Pago Pago UTC−11: whenever this runs, Kiritimati's today is a later day there.
    const today = (zone: string) => dateInTimeZone(new Date(), zone);
    const ahead = today('Pacific/Kiritimati');
    const listed = async (zone: string | undefined, day: string) =>
      (
        await h.call('order/list', {
          token: clinic.token,
          body: { dateFrom: day, dateTo: day, pageSize: 100 },
          headers: zone ? { timezone: zone } : {},
        })
      ).data.list.map((o: { orderCode: string }) => o.orderCode) as string[];
    expect(await listed('Pacific/Kiritimati', ahead)).toContain(order);
    expect(await listed('Pacific/Pago_Pago', ahead)).not.toContain(order);
    expect(await listed('Pacific/Pago_Pago', today('Pacific/Pago_Pago'))).toContain(order);
    // No timezone, or one nobody knows: UTC days.
    expect(await listed(undefined, today('UTC'))).toContain(order);
    expect(await listed('Mars/Olympus_Mons', today('UTC'))).toContain(order);
  });

  it('ship in batches, each order answering for itself', async () => {
    const created = (await send({}, 3)).res.data.list.map((o: { orderCode: string }) => o.orderCode);
    await act(lab.token, created, 'accept');
    await act(lab.token, created.slice(0, 2), 'ready');
    const shipped = await act(lab.token, created, 'ship', { trackingNumber: 'UPS-9' });
    expect(shipped.data.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
    expect(
      (await h.call('order/list', { token: clinic.token, body: { status: 'shipped' } })).data.total,
    ).toBeGreaterThanOrEqual(2);
  });

  it('leave one winner when 50 conflicting actions hit one order at once', async () => {
    const order = (await send()).res.data.list[0].orderCode;
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 3 === 0
        ? act(lab.token, [order], 'accept')
        : i % 3 === 1
          ? act(lab.token, [order], 'reject', { reason: 'no' })
          : act(clinic.token, [order], 'cancel'),
    );
    const results = (await Promise.all(calls)).map((r) => r.data.results[0]);
    expect(results.filter((r: { ok: boolean }) => r.ok)).toHaveLength(1);
    const detail = (await h.call('order/detail', { token: clinic.token, body: { orderCode: order } })).data;
    expect(detail.events).toHaveLength(2);
    expect(detail.events[1].to).toBe(detail.status);
  });
});

describe('a case', () => {
  const caseStatus = async (caseCode: string) =>
    (await h.call('case/detail', { token: clinic.token, body: { caseCode } })).data.status;
  const recentCase = async (token: string, caseCode: string) =>
    (await h.call('user/indexDashboard', { token, body: {} })).data.recentCases.find(
      (c: { caseCode: string }) => c.caseCode === caseCode,
    )?.status;
  const sendAgain = async (caseCode: string) =>
    (
      await h.call('order/create', {
        token: clinic.token,
        body: {
          caseCodes: [caseCode],
          partnerCode,
          orderType: 'restoration',
          workTypes: ['Crown'],
          teeth: [{ number: 16 }],
        },
      })
    ).data.list[0].orderCode as string;

  it('follows its order in every status, ready and shipped included, on its page, the list and both dashboards', async () => {
    const { res, caseCodes } = await send();
    const [caseCode] = caseCodes as [string];
    const order = res.data.list[0].orderCode;
    expect(await caseStatus(caseCode)).toBe('sent');
    for (const [token, action, extra, status] of [
      [lab.token, 'accept', {}, 'accepted'],
      [lab.token, 'startProcessing', {}, 'accepted'],
      [lab.token, 'ready', {}, 'ready'],
      [lab.token, 'ship', { trackingNumber: 'GLS-7' }, 'shipped'],
      [clinic.token, 'complete', {}, 'completed'],
    ] as const) {
      expect((await act(token, [order], action, extra)).data.results[0], action).toMatchObject({ ok: true });
      expect(await caseStatus(caseCode), action).toBe(status);
      // The dashboards' recent cases read the same status (the defect: "Accepted" while the order was shipped).
      expect(await recentCase(clinic.token, caseCode), action).toBe(status);
      expect(await recentCase(lab.token, caseCode), action).toBe(status);
      const listed = await h.call('case/list', { token: clinic.token, body: { status, pageSize: 100 } });
      expect(
        listed.data.list.map((c: { caseCode: string }) => c.caseCode),
        action,
      ).toContain(caseCode);
    }
  });

  it('sent more than once follows its running order, then its settled one, never a withdrawn one', async () => {
    const { res, caseCodes } = await send();
    const [caseCode] = caseCodes as [string];
    const first = res.data.list[0].orderCode;
    await act(lab.token, [first], 'accept');
    const second = await sendAgain(caseCode);
    expect(await caseStatus(caseCode)).toBe('sent');
    // Withdrawing the second order does not say "not sent" while the first is in the laboratory's hands.
    expect((await act(clinic.token, [second], 'cancel')).data.results[0].ok).toBe(true);
    expect(await caseStatus(caseCode)).toBe('accepted');
    await act(lab.token, [first], 'ready');
    await act(lab.token, [first], 'ship', { trackingNumber: 'GLS-8' });
    expect(await caseStatus(caseCode)).toBe('shipped');
    await act(clinic.token, [first], 'complete');
    expect(await caseStatus(caseCode)).toBe('completed');
    // A remake sent after the completed order is what the case follows now; rejected, it is what the case says.
    const remake = await sendAgain(caseCode);
    expect(await caseStatus(caseCode)).toBe('sent');
    await act(lab.token, [remake], 'reject', { reason: 'Scan too short' });
    expect(await caseStatus(caseCode)).toBe('rejected');
  });

  it('that has orders is set again by migration 0018 with the rule the orders service follows', async () => {
    const one = new Map<string, string>();
    for (const status of ORDER_STATUSES) {
      const { res, caseCodes } = await send();
      await h.db.query('UPDATE orders SET status = $2 WHERE code = $1', [res.data.list[0].orderCode, status]);
      one.set(caseCodes[0]!, CASE_STATUS_BY_ORDER[status]);
    }
    // Two orders: the running one counts over a newer canceled one.
    const { res, caseCodes } = await send();
    const [twice] = caseCodes as [string];
    await h.db.query(`UPDATE orders SET status = 'shipped' WHERE code = $1`, [res.data.list[0].orderCode]);
    await h.db.query(`UPDATE orders SET status = 'canceled' WHERE code = $1`, [await sendAgain(twice)]);
    await h.db.query(`UPDATE cases SET status = 'accepted' WHERE code = ANY ($1::text[])`, [[...one.keys(), twice]]);
    const sql = readFileSync(join(MIGRATIONS_DIR, '0018_case_follows_its_order.sql'), 'utf8');
    for (const statement of sql.split(/^--;\s*$/m)) if (statement.trim()) await h.db.query(statement);
    for (const [caseCode, status] of one) expect(await caseStatus(caseCode), caseCode).toBe(status);
    expect(await caseStatus(twice)).toBe('shipped');
  });
});
