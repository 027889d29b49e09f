import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS_BY_ORDER,
  CreateOrderBody,
  ERRORS,
  ORDER_ACTIONS,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  OrgType,
  canOrder,
  type OrderAction,
  type OrderStatus,
} from '@portal/contracts';
import type { AuthContext } from '../../src/platform/auth.js';
import {
  actor,
  caseOf,
  readerFor,
  CROWN,
  newCase,
  partnership,
  refused,
  send,
  serviceWorld,
  type ServiceWorld,
} from './kit.js';

/**
 * OrdersService on its own: the order state machine of contracts (ORDER_TRANSITIONS), the case following its order
 * (CASE_STATUS_BY_ORDER, CASE_FOLLOWS_RANK), the refusals of order creation and remakes.
 */
let w: ServiceWorld;
let clinic: Awaited<ReturnType<typeof actor>>;
let lab: Awaited<ReturnType<typeof actor>>;
let otherLab: Awaited<ReturnType<typeof actor>>;
let partnerCode: string;
let otherPartnerCode: string;

beforeAll(async () => {
  w = await serviceWorld();
  clinic = await actor(w.db, OrgType.Clinic);
  lab = await actor(w.db, OrgType.Lab);
  otherLab = await actor(w.db, OrgType.Lab);
  partnerCode = await partnership(w, clinic, lab);
  otherPartnerCode = await partnership(w, clinic, otherLab);
});
afterAll(() => w.close());

const EXTRA = { reason: 'No capacity this week', trackingNumber: 'TRK-1' };

async function act(by: AuthContext, orderCode: string, action: OrderAction) {
  const { results } = await w.orders.act(by, { orderCodes: [orderCode], action, ...EXTRA });
  return results[0]!;
}

/** The legal way to each status from pending, and whether the order is then in production. */
const PATHS: Array<{ status: OrderStatus; processing: boolean; path: OrderAction[] }> = [
  { status: 'pending', processing: false, path: [] },
  { status: 'accepted', processing: false, path: ['accept'] },
  { status: 'accepted', processing: true, path: ['accept', 'startProcessing'] },
  { status: 'ready', processing: true, path: ['accept', 'startProcessing', 'ready'] },
  { status: 'shipped', processing: true, path: ['accept', 'startProcessing', 'ready', 'ship'] },
  { status: 'completed', processing: true, path: ['accept', 'startProcessing', 'ready', 'ship', 'complete'] },
  { status: 'rejected', processing: false, path: ['reject'] },
  { status: 'canceled', processing: false, path: ['cancel'] },
];

async function orderIn(status: OrderStatus, path: OrderAction[]) {
  const c = await newCase(w, clinic);
  const [orderCode] = await send(w, clinic, partnerCode, [c.code]);
  for (const action of path) {
    const by = ORDER_TRANSITIONS[action].by === 'clinic' ? clinic : lab;
    expect((await act(by, orderCode!, action)).ok, `${action} on the way to ${status}`).toBe(true);
  }
  const detail = await w.orders.detail(clinic, orderCode!, readerFor(clinic));
  expect(detail.status).toBe(status);
  return { orderCode: orderCode!, caseCode: c.code };
}

describe('the order state machine', () => {
  it('covers every status', () => {
    expect(new Set(PATHS.map((p) => p.status))).toEqual(new Set(ORDER_STATUSES));
  });

  for (const { status, processing, path } of PATHS) {
    it(`from ${status}${processing ? ' (in production)' : ''}: each action by each side as ORDER_TRANSITIONS says`, async () => {
      for (const action of ORDER_ACTIONS) {
        for (const side of ['clinic', 'lab'] as const) {
          const { orderCode, caseCode } = await orderIn(status, path);
          const caseBefore = (await caseOf(w, clinic.organizationId, caseCode)).status;
          const result = await act(side === 'clinic' ? clinic : lab, orderCode, action);
          const allowed = canOrder(action, status, side, processing);
          const after = await w.orders.detail(clinic, orderCode, readerFor(clinic));
          const caseAfter = (await caseOf(w, clinic.organizationId, caseCode)).status;
          const what = `${action} by the ${side} from ${status}`;
          if (allowed) {
            expect(result.ok, what).toBe(true);
            expect(after.status, what).toBe(ORDER_TRANSITIONS[action].to);
            expect(caseAfter, what).toBe(CASE_STATUS_BY_ORDER[ORDER_TRANSITIONS[action].to]);
            if (action === 'startProcessing') expect(after.processing, what).toBe(true);
            if (action === 'ship') expect(after.trackingNumber, what).toBe(EXTRA.trackingNumber);
            expect(after.events.at(-1), what).toMatchObject({ action, from: status, to: after.status });
          } else {
            expect(result, what).toMatchObject({ ok: false, code: ERRORS.ORDER_TRANSITION.code });
            expect(after.status, what).toBe(status);
            expect(after.processing, what).toBe(processing);
            expect(caseAfter, what).toBe(caseBefore);
            expect(after.events.length, what).toBe(path.length + 1);
          }
        }
      }
    });
  }

  it('refuses a rejection without a reason and a shipment without a tracking number, naming the field', async () => {
    const { orderCode } = await orderIn('pending', []);
    await refused(w.orders.act(lab, { orderCodes: [orderCode], action: 'reject', reason: '  ' }), 'PARAM_INVALID', {
      field: 'reason',
    });
    const ready = await orderIn('ready', ['accept', 'ready']);
    await refused(w.orders.act(lab, { orderCodes: [ready.orderCode], action: 'ship' }), 'PARAM_INVALID', {
      field: 'trackingNumber',
    });
    expect((await w.orders.detail(clinic, orderCode, readerFor(clinic))).status).toBe('pending');
    expect((await w.orders.detail(clinic, ready.orderCode, readerFor(clinic))).status).toBe('ready');
  });

  it('answers each order of a batch for itself: another laboratory finds nothing, the others move', async () => {
    const a = await orderIn('pending', []);
    const b = await orderIn('accepted', ['accept']);
    const { results } = await w.orders.act(lab, { orderCodes: [a.orderCode, b.orderCode], action: 'accept' });
    expect(results.map((r) => [r.ok, r.code])).toEqual([
      [true, 200],
      [false, ERRORS.ORDER_TRANSITION.code],
    ]);
    const c = await orderIn('pending', []);
    const [foreign] = (await w.orders.act(otherLab, { orderCodes: [c.orderCode], action: 'accept' })).results;
    expect(foreign).toMatchObject({ ok: false, code: ERRORS.NOT_FOUND.code });
    expect((await w.orders.detail(clinic, c.orderCode, readerFor(clinic))).status).toBe('pending');
  });
});

describe('the case follows its order', () => {
  it('follows the newest running order, then the settled one, then the canceled one', async () => {
    const c = await newCase(w, clinic);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('registered');
    const [first] = await send(w, clinic, partnerCode, [c.code]);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('sent');
    await act(lab, first!, 'reject');
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('rejected');
    // Sent again, elsewhere: the running order outranks the rejected one.
    const [second] = await send(w, clinic, otherPartnerCode, [c.code]);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('sent');
    await act(otherLab, second!, 'accept');
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('accepted');
    // The rejection of the first order, older and settled, does not take the case back.
    expect((await act(lab, first!, 'accept')).ok).toBe(false);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('accepted');
    // Withdrawn: a canceled order ranks below the settled one.
    const [third] = await send(w, clinic, partnerCode, [c.code]);
    await act(clinic, third!, 'cancel');
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('accepted');
  });

  it('goes back to not sent when its only order is canceled', async () => {
    const { caseCode } = await orderIn('canceled', ['cancel']);
    expect((await caseOf(w, clinic.organizationId, caseCode)).status).toBe(CASE_STATUS_BY_ORDER.canceled);
  });
});

describe('sending cases', () => {
  const body = (caseCodes: string[], extra: Record<string, unknown> = {}) =>
    CreateOrderBody.parse({
      caseCodes,
      partnerCode,
      orderType: 'restoration',
      workTypes: ['Crown'],
      teeth: [CROWN],
      ...extra,
    });

  it('is the clinic’s: a laboratory may not send', async () => {
    const c = await newCase(w, clinic);
    await refused(w.orders.create(lab, body([c.code])), 'NO_PERMISSION');
  });

  it('needs an accepted partnership', async () => {
    const applyingLab = await actor(w.db, OrgType.Lab);
    const applied = await w.partners.apply(clinic, applyingLab.orgCode);
    const c = await newCase(w, clinic);
    await refused(
      w.orders.create(clinic, body([c.code], { partnerCode: applied.partnerCode })),
      'PARTNER_NOT_ACCEPTED',
    );
    await w.partners.act(applyingLab, applied.partnerCode, 'accept');
    await w.partners.act(clinic, applied.partnerCode, 'terminate');
    await refused(
      w.orders.create(clinic, body([c.code], { partnerCode: applied.partnerCode })),
      'PARTNER_NOT_ACCEPTED',
    );
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('registered');
  });

  it('sends all cases or none: a case of another clinic is not found', async () => {
    const otherClinic = await actor(w.db, OrgType.Clinic);
    const mine = await newCase(w, clinic);
    const theirs = await newCase(w, otherClinic);
    await refused(w.orders.create(clinic, body([mine.code, theirs.code])), 'NOT_FOUND');
    expect((await caseOf(w, clinic.organizationId, mine.code)).status).toBe('registered');
    const two = [mine.code, (await newCase(w, clinic)).code];
    const made = await w.orders.create(clinic, body(two));
    expect(made.list.map((o) => o.caseCode).sort()).toEqual([...two].sort());
    expect(made.list.every((o) => o.status === 'pending')).toBe(true);
  });

  it('refuses a prescription the laboratory’s rules ask more of, listing what is missing', async () => {
    const strictLab = await actor(w.db, OrgType.Lab);
    const code = await partnership(w, clinic, strictLab);
    await w.orders.saveRequiredFields(strictLab, [{ workType: 'Crown', fields: ['shade', 'crownType'] }]);
    const c = await newCase(w, clinic);
    const err = await refused(w.orders.create(clinic, body([c.code], { partnerCode: code })), 'ORDER_FIELDS_REQUIRED');
    expect(err.data).toMatchObject({ missing: [{ workType: 'Crown', fields: ['crownType'] }] });
    const ok = await w.orders.create(
      clinic,
      body([c.code], { partnerCode: code, teeth: [{ ...CROWN, crownType: 'fullContour' }] }),
    );
    expect(ok.list).toHaveLength(1);
  });

  it('refuses what no laboratory could make, naming the tooth', async () => {
    const c = await newCase(w, clinic);
    const err = await refused(
      w.orders.create(clinic, body([c.code], { teeth: [{ number: 16, unit: 'pontic' }] })),
      'PARAM_INVALID',
    );
    expect(String((err.data as { field: string }).field)).toMatch(/^teeth\.0\./);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('registered');
  });
});

describe('remakes', () => {
  it('are the clinic’s, of a shipped or completed order, one standing at a time', async () => {
    const pending = await orderIn('pending', []);
    await refused(w.orders.remake(clinic, { orderCode: pending.orderCode, reason: 'fit' }), 'ORDER_REMAKE_NOT_ALLOWED');
    const shipped = await orderIn('shipped', ['accept', 'ready', 'ship']);
    await refused(w.orders.remake(lab, { orderCode: shipped.orderCode, reason: 'fit' }), 'NO_PERMISSION');
    const remake = await w.orders.remake(clinic, { orderCode: shipped.orderCode, reason: 'shade', note: 'Too dark' });
    expect(remake).toMatchObject({
      status: 'pending',
      caseCode: shipped.caseCode,
      remakeOf: { orderCode: shipped.orderCode, reason: 'shade', note: 'Too dark' },
    });
    expect((await caseOf(w, clinic.organizationId, shipped.caseCode)).status).toBe('sent');
    const original = await w.orders.detail(clinic, shipped.orderCode, readerFor(clinic));
    expect(original.status).toBe('shipped');
    expect(original.remakes).toEqual([{ orderCode: remake.orderCode, reason: 'shade', status: 'pending' }]);
    await refused(w.orders.remake(clinic, { orderCode: shipped.orderCode, reason: 'fit' }), 'ORDER_REMAKE_EXISTS');
    // A remake the laboratory rejected no longer stands: another may be asked.
    await act(lab, remake.orderCode, 'reject');
    const again = await w.orders.remake(clinic, { orderCode: shipped.orderCode, reason: 'fit' });
    expect(again.status).toBe('pending');
  });
});

describe('a partnership that ends', () => {
  it('cancels its pending orders and lets the accepted ones go on', async () => {
    const endingLab = await actor(w.db, OrgType.Lab);
    const code = await partnership(w, clinic, endingLab);
    const [a, b] = await Promise.all([newCase(w, clinic), newCase(w, clinic)]).then(async ([x, y]) => [
      { caseCode: x.code, orderCode: (await send(w, clinic, code, [x.code]))[0]! },
      { caseCode: y.code, orderCode: (await send(w, clinic, code, [y.code]))[0]! },
    ]);
    expect((await act(endingLab, b!.orderCode, 'accept')).ok).toBe(true);
    await w.partners.act(endingLab, code, 'terminate');
    const canceled = await w.orders.detail(clinic, a!.orderCode, readerFor(clinic));
    expect(canceled.status).toBe('canceled');
    expect(canceled.events.at(-1)).toMatchObject({ action: 'partnershipEnded', from: 'pending', to: 'canceled' });
    expect((await caseOf(w, clinic.organizationId, a!.caseCode)).status).toBe('notSent');
    expect((await w.orders.detail(clinic, b!.orderCode, readerFor(clinic))).status).toBe('accepted');
    expect((await caseOf(w, clinic.organizationId, b!.caseCode)).status).toBe('accepted');
  });
});
