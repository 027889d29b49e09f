import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType, dateInTimeZone } from '@portal/contracts';
import { createHarness, type Harness } from './harness.js';
import { newCase, partner, side, type Side } from './fixtures.js';

/** A laboratory's catalogue and working calendar, and the delivery dates orders get from them. */
let h: Harness;
let clinic: Side;
let lab: Side;
let otherLab: Side;
let partnerCode: string;
beforeAll(async () => {
  h = await createHarness();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  otherLab = await side(h, OrgType.Lab);
  partnerCode = await partner(h, clinic, lab);
});
afterAll(() => h.close());

const call = (path: string, s: Side, body: Record<string, unknown> = {}) =>
  h.call(`catalogue/${path}`, { token: s.token, body });
const ZIRCONIA_CROWN = {
  name: 'Zirconia crown',
  workType: 'Crown',
  materials: ['Zirconia', 'Zirconia HT'],
  turnaroundDays: 2,
  price: 89.5,
  currency: 'EUR',
  requiredFields: ['shade'],
};
/** What catalogue calls may change: a refused one must leave all of it as it was. */
async function catalogueState() {
  const tables = ['lab_products', 'lab_calendars', 'lab_closed_dates', 'orders'];
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = await h.db.query(`SELECT * FROM ${t} ORDER BY 1, 2`);
  return JSON.stringify(out);
}
const utcDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('the product catalogue', () => {
  it('a laboratory adds, changes, lists and removes its products; its clinics read them', async () => {
    const made = await call('saveProduct', lab, ZIRCONIA_CROWN);
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ ...ZIRCONIA_CROWN, productCode: expect.stringMatching(/^p/) });
    const code = made.data.productCode as string;

    const changed = await call('saveProduct', lab, {
      ...ZIRCONIA_CROWN,
      productCode: code,
      turnaroundDays: 4,
      price: null,
      materials: ['Zirconia', 'Zirconia'],
    });
    expect(changed.data).toMatchObject({ productCode: code, turnaroundDays: 4, price: null, currency: null });
    expect(changed.data.materials).toEqual(['Zirconia']);

    const veneer = await call('saveProduct', lab, { name: 'E.max veneer', workType: 'Veneer', turnaroundDays: 5 });
    expect(veneer.data).toMatchObject({ materials: [], requiredFields: [], price: null });

    const own = await call('products', lab);
    expect(own.data.list.map((p: { name: string }) => p.name)).toEqual(['E.max veneer', 'Zirconia crown']);
    const seen = await call('products', clinic, { partnerCode });
    expect(seen.data.labName).toBeTruthy();
    expect(seen.data.list).toEqual(own.data.list);

    expect((await call('deleteProduct', lab, { productCode: veneer.data.productCode })).code).toBe(200);
    expect((await call('products', lab)).data.list.map((p: { name: string }) => p.name)).toEqual(['Zirconia crown']);
    // Gone is gone: a second removal and a change answer 404.
    expect((await call('deleteProduct', lab, { productCode: veneer.data.productCode })).status).toBe(404);
  });

  it('one name per live product, whatever its case; a removed name may be used again', async () => {
    const first = await call('saveProduct', lab, { ...ZIRCONIA_CROWN, name: 'Night guard', workType: 'BiteSplint' });
    const before = await catalogueState();
    const again = await call('saveProduct', lab, { ...ZIRCONIA_CROWN, name: 'NIGHT GUARD' });
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ field: 'name' });
    expect(await catalogueState()).toEqual(before);
    // Another laboratory has its own names.
    expect((await call('saveProduct', otherLab, { ...ZIRCONIA_CROWN, name: 'Night guard' })).code).toBe(200);
    await call('deleteProduct', lab, { productCode: first.data.productCode });
    expect((await call('saveProduct', lab, { ...ZIRCONIA_CROWN, name: 'Night guard' })).code).toBe(200);
  });

  it('bad input names its field and changes nothing', async () => {
    const before = await catalogueState();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ZIRCONIA_CROWN, name: '  ' }, 'name'],
      [{ ...ZIRCONIA_CROWN, workType: 'Bridge' }, 'workType'],
      [{ ...ZIRCONIA_CROWN, turnaroundDays: 121 }, 'turnaroundDays'],
      [{ ...ZIRCONIA_CROWN, turnaroundDays: -1 }, 'turnaroundDays'],
      [{ ...ZIRCONIA_CROWN, turnaroundDays: 1.5 }, 'turnaroundDays'],
      [{ ...ZIRCONIA_CROWN, price: -1 }, 'price'],
      [{ ...ZIRCONIA_CROWN, price: 10.005 }, 'price'],
      [{ ...ZIRCONIA_CROWN, currency: undefined }, 'currency'],
      [{ ...ZIRCONIA_CROWN, currency: 'XYZ' }, 'currency'],
      [{ ...ZIRCONIA_CROWN, requiredFields: ['colour'] }, 'requiredFields.0'],
      [{ ...ZIRCONIA_CROWN, materials: ['x'.repeat(61)] }, 'materials.0'],
    ];
    for (const [body, field] of cases) {
      const res = await call('saveProduct', lab, body);
      expect(res.status, field).toBe(400);
      expect(res.data?.field, JSON.stringify(body)).toBe(field);
    }
    const calendarCases: [Record<string, unknown>, string][] = [
      [{ workingWeekdays: [], closedDates: [], timeZone: 'UTC' }, 'workingWeekdays'],
      [{ workingWeekdays: [1, 8], closedDates: [], timeZone: 'UTC' }, 'workingWeekdays.1'],
      [{ workingWeekdays: [1], closedDates: [{ date: '2026-02-30' }], timeZone: 'UTC' }, 'closedDates.0.date'],
      [{ workingWeekdays: [1], closedDates: [], timeZone: 'Mars/Olympus' }, 'timeZone'],
    ];
    for (const [body, field] of calendarCases) {
      const res = await call('saveCalendar', lab, body);
      expect(res.status, field).toBe(400);
      expect(res.data?.field).toBe(field);
    }
    expect(await catalogueState()).toEqual(before);
  });

  it("another organization's product answers 404 and changes nothing; a clinic cannot edit a catalogue", async () => {
    const theirs = await call('saveProduct', otherLab, { ...ZIRCONIA_CROWN, name: 'Their crown' });
    const productCode = theirs.data.productCode as string;
    const before = await catalogueState();
    expect((await call('saveProduct', lab, { ...ZIRCONIA_CROWN, name: 'Mine now', productCode })).status).toBe(404);
    expect((await call('deleteProduct', lab, { productCode })).status).toBe(404);
    expect((await call('estimate', clinic, { partnerCode, productCode })).status).toBe(404);
    expect((await call('saveProduct', clinic, { ...ZIRCONIA_CROWN, name: 'Clinic crown' })).status).toBe(403);
    expect((await call('deleteProduct', clinic, { productCode })).status).toBe(403);
    expect(
      (await call('saveCalendar', clinic, { workingWeekdays: [1], closedDates: [], timeZone: 'UTC' })).status,
    ).toBe(403);
    // A clinic reads only the catalogues of its partners.
    const stranger = await side(h, OrgType.Clinic);
    expect((await call('products', stranger, { partnerCode })).status).toBe(404);
    expect((await call('products', stranger)).data).toMatchObject({ field: 'partnerCode' });
    expect(await catalogueState()).toEqual(before);
  });
});

describe('the working calendar and delivery dates', () => {
  it('defaults to Monday to Friday in UTC until the laboratory saves its own', async () => {
    const fresh = await side(h, OrgType.Lab);
    expect((await call('calendar', fresh)).data).toEqual({
      workingWeekdays: [1, 2, 3, 4, 5],
      closedDates: [],
      timeZone: 'UTC',
      saved: false,
    });
  });

  it('a laboratory saves its weekdays, closed dates and timezone', async () => {
    const saved = await call('saveCalendar', lab, {
      workingWeekdays: [5, 1, 2, 2],
      closedDates: [{ date: '2026-12-25', note: 'Christmas' }, { date: '2026-12-24' }, { date: '2026-12-25' }],
      timeZone: 'Europe/Copenhagen',
    });
    expect(saved.data).toEqual({
      workingWeekdays: [1, 2, 5],
      closedDates: [
        { date: '2026-12-24', note: null },
        { date: '2026-12-25', note: null },
      ],
      timeZone: 'Europe/Copenhagen',
      saved: true,
    });
    expect((await call('calendar', lab)).data).toEqual(saved.data);
  });

  it('the estimate and the order skip closed days; the order stores its product and estimate', async () => {
    // Every weekday works, so only the closed days (tomorrow and the day after) are skipped.
    await call('saveCalendar', lab, {
      workingWeekdays: [1, 2, 3, 4, 5, 6, 7],
      closedDates: [{ date: utcDay(1) }, { date: utcDay(2) }],
      timeZone: 'UTC',
    });
    const product = (
      await call('saveProduct', lab, {
        name: 'Layered crown',
        workType: 'Crown',
        materials: ['Lithium disilicate'],
        turnaroundDays: 2,
        requiredFields: ['shade'],
      })
    ).data;
    const estimate = await call('estimate', clinic, { partnerCode, productCode: product.productCode });
    expect(estimate.data).toEqual({ receivedOn: utcDay(0), turnaroundDays: 2, estimatedDeliveryDate: utcDay(4) });

    const caseCode = await newCase(h, clinic);
    const body = {
      caseCodes: [caseCode],
      partnerCode,
      orderType: 'restoration',
      workTypes: ['Inlay'],
      productCode: product.productCode,
      teeth: [{ number: 16, shade: 'A2', material: 'Lithium disilicate' }],
    };
    const sent = await h.call('order/create', { token: clinic.token, body });
    expect(sent.code).toBe(200);
    const order = sent.data.list[0];
    expect(order).toMatchObject({
      estimatedDeliveryDate: utcDay(4),
      product: { productCode: product.productCode, name: 'Layered crown' },
      workTypes: ['Inlay', 'Crown'],
    });
    // Both sides see it, in lists too; removing the product later leaves the order's.
    await call('deleteProduct', lab, { productCode: product.productCode });
    const seen = await h.call('order/list', { token: lab.token, body: { pageSize: 100 } });
    expect(seen.data.list.find((o: { orderCode: string }) => o.orderCode === order.orderCode)).toMatchObject({
      estimatedDeliveryDate: utcDay(4),
      product: { name: 'Layered crown' },
    });
  });

  it('a shipment without a date is dated today where the laboratory works, not in UTC', async () => {
    // Kiritimati (UTC+14) and Pago Pago (UTC−11) never share a day: the laboratory's timezone decides it.
    const today = (zone: string) => dateInTimeZone(new Date(), zone);
    const { saved: _, ...calendarBefore } = (await call('calendar', lab)).data;
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      await call('saveCalendar', lab, { workingWeekdays: [1, 2, 3, 4, 5, 6, 7], closedDates: [], timeZone });
      const body = {
        caseCodes: [await newCase(h, clinic)],
        partnerCode,
        orderType: 'restoration',
        workTypes: ['Crown'],
      };
      const orderCode = (await h.call('order/create', { token: clinic.token, body })).data.list[0].orderCode as string;
      for (const action of ['accept', 'ready'])
        await h.call('order/action', { token: lab.token, body: { orderCodes: [orderCode], action } });
      const shipped = await h.call('order/action', {
        token: lab.token,
        body: { orderCodes: [orderCode], action: 'ship', trackingNumber: 'DHL-1' },
        // The person shipping may be elsewhere: their own timezone does not date the shipment.
        headers: { timezone: 'Europe/Berlin' },
      });
      expect(shipped.data.results[0].ok).toBe(true);
      const detail = await h.call('order/detail', { token: clinic.token, body: { orderCode } });
      expect([timeZone, detail.data.shipDate]).toEqual([timeZone, today(timeZone)]);
    }
    // Saved back as it was read (notes null included).
    expect((await call('saveCalendar', lab, calendarBefore)).code).toBe(200);
  });

  it("an order of a product holds to its materials and required fields, and refuses another laboratory's product", async () => {
    const product = (await call('saveProduct', lab, { ...ZIRCONIA_CROWN, name: 'Monolithic crown' })).data;
    const theirs = (await call('saveProduct', otherLab, { ...ZIRCONIA_CROWN, name: 'Foreign crown' })).data;
    const caseCode = await newCase(h, clinic);
    const body = {
      caseCodes: [caseCode],
      partnerCode,
      orderType: 'restoration',
      workTypes: ['Crown'],
      productCode: product.productCode,
      teeth: [
        { number: 16, shade: 'A2', material: 'Zirconia' },
        { number: 17, shade: 'A2', material: 'Gold' },
      ],
    };
    const before = await catalogueState();
    const stray = await h.call('order/create', { token: clinic.token, body });
    expect(stray.status).toBe(400);
    expect(stray.data).toEqual({ field: 'teeth.1.material' });
    const unshaded = await h.call('order/create', {
      token: clinic.token,
      body: { ...body, teeth: [{ number: 16, material: 'Zirconia' }] },
    });
    expect(unshaded.code).toBe(2037);
    const foreign = await h.call('order/create', {
      token: clinic.token,
      body: { ...body, productCode: theirs.productCode, teeth: [body.teeth[0]] },
    });
    expect(foreign.status).toBe(404);
    expect(await catalogueState()).toEqual(before);
    // Without a product the laboratory gives the estimate when it ships, as before.
    const plain = await h.call('order/create', {
      token: clinic.token,
      body: { ...body, productCode: undefined, teeth: [body.teeth[1]] },
    });
    expect(plain.data.list[0]).toMatchObject({ estimatedDeliveryDate: null, product: null });
  });

  it("lists only the orders late on the reader's day, for both sides", async () => {
    // One partnership of its own, so the other tests' orders stay out of the count.
    const ownLab = await side(h, OrgType.Lab);
    const ownPartner = await partner(h, clinic, ownLab);
    const make = async (status: string, estimated: string | null, requested: string | null) => {
      const sent = await h.call('order/create', {
        token: clinic.token,
        body: {
          caseCodes: [await newCase(h, clinic)],
          partnerCode: ownPartner,
          orderType: 'restoration',
          workTypes: ['Crown'],
          teeth: [{ number: 16, shade: 'A2' }],
        },
      });
      const code = sent.data.list[0].orderCode as string;
      await h.db.query(
        `UPDATE orders SET status = $2, estimated_delivery_date = $3::date, requested_delivery_date = $4::date
          WHERE code = $1`,
        [code, status, estimated, requested],
      );
      return code;
    };
    const today = utcDay(0);
    const late = [
      await make('pending', utcDay(-1), null),
      // The earlier of the two dates counts: asked for yesterday, estimated for tomorrow.
      await make('accepted', utcDay(1), utcDay(-1)),
      await make('ready', null, utcDay(-3)),
    ];
    await make('shipped', utcDay(-5), utcDay(-5)); // delivered: never late
    await make('canceled', utcDay(-5), null);
    await make('pending', today, null); // due today: not yet late
    await make('pending', null, null); // no date: never late
    for (const who of [clinic, ownLab]) {
      const list = async (body: Record<string, unknown>) =>
        (await h.call('order/list', { token: who.token, body: { pageSize: 100, partnerCode: ownPartner, ...body } }))
          .data;
      const found = await list({ lateOn: today });
      expect(found.total).toBe(3);
      expect(found.list.map((o: { orderCode: string }) => o.orderCode).sort()).toEqual([...late].sort());
      expect((await list({})).total).toBe(7);
      // Seen from a later day, the order due today is late too.
      expect((await list({ lateOn: utcDay(1) })).total).toBe(4);
    }
    const bad = await h.call('order/list', { token: clinic.token, body: { lateOn: '2026-02-30' } });
    expect([bad.status, bad.data.field]).toEqual([400, 'lateOn']);
  });
});
