import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, type Harness } from './harness.js';
import { newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';
import { PNG, tusUpload } from './uploads.js';

let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
let partnerCode: string;

/** A case of the clinic with one real file; answers the case's and the file's codes. */
async function caseWithScan(name: string) {
  const caseCode = await newCase(h, clinic, name);
  await tusUpload(base, clinic.token, PNG, { caseCode, filename: 'scan.png' });
  const files = (await h.call('case/detail', { token: clinic.token, body: { caseCode } })).data.files as Array<{
    fileCode: string;
  }>;
  return { caseCode, fileCode: files[0]!.fileCode };
}
const grant = (s: Side, fileCode: string) => h.call('file/downloadGrant', { token: s.token, body: { fileCode } });
const detail = async (s: Side, orderCode: string) =>
  (await h.call('order/detail', { token: s.token, body: { orderCode } })).data as {
    status: string;
    teeth: unknown[];
    events: { action: string }[];
    files: { fileCode: string }[];
  };
const post = (s: Side, orderCode: string, content = 'A question') =>
  h.call('msg/send', { token: s.token, body: { orderCode, content } });
/** Moves the order's completion back in time, as if the days had passed. */
const completedDaysAgo = (orderCode: string, days: number) =>
  h.db.query(`UPDATE orders SET completed_at = now() - make_interval(days => $2) WHERE code = $1`, [orderCode, days]);
const setRetention = (s: Side, scanRetentionDays: unknown) =>
  h.call('company/editScanRetention', { token: s.token, body: { scanRetentionDays } });

async function completed(name: string) {
  const scan = await caseWithScan(name);
  const [orderCode] = await sendToLab(h, clinic, partnerCode, [scan.caseCode]);
  await orderAction(h, lab, [orderCode!], 'accept');
  await orderAction(h, lab, [orderCode!], 'ready');
  await orderAction(h, lab, [orderCode!], 'ship', { trackingNumber: 'T-1' });
  await orderAction(h, clinic, [orderCode!], 'complete');
  return { ...scan, orderCode: orderCode! };
}

beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  partnerCode = await partner(h, clinic, lab);
});
afterAll(() => h.close());

describe("the laboratory's access to the patient's scans", () => {
  it('starts at acceptance and lasts through production', async () => {
    const { caseCode, fileCode } = await caseWithScan('Pending crown');
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    // Sent but not accepted: the laboratory reads the order, not the scans.
    expect((await detail(lab, orderCode!)).files).toEqual([]);
    expect((await detail(clinic, orderCode!)).files.map((f) => f.fileCode)).toEqual([fileCode]);
    const refused = await grant(lab, fileCode);
    expect([refused.status, refused.code]).toEqual([403, 2089]);
    expect((await grant(clinic, fileCode)).code).toBe(200);

    await orderAction(h, lab, [orderCode!], 'accept');
    expect((await detail(lab, orderCode!)).files.map((f) => f.fileCode)).toEqual([fileCode]);
    expect((await grant(lab, fileCode)).code).toBe(200);
    await orderAction(h, lab, [orderCode!], 'ready');
    await orderAction(h, lab, [orderCode!], 'ship', { trackingNumber: 'T-1' });
    expect((await grant(lab, fileCode)).code).toBe(200);
  });

  it("ends when the clinic's retention after completion is over; the order's record stays", async () => {
    const { fileCode, orderCode } = await completed('Completed crown');
    const [row] = await h.db.query<{ completed_at: Date | null }>('SELECT completed_at FROM orders WHERE code = $1', [
      orderCode,
    ]);
    expect(row!.completed_at).not.toBeNull();
    expect((await grant(lab, fileCode)).code).toBe(200);

    // The default keeps them 90 days.
    await completedDaysAgo(orderCode, 89);
    expect((await grant(lab, fileCode)).code).toBe(200);
    await completedDaysAgo(orderCode, 91);
    expect((await grant(lab, fileCode)).code).toBe(2089);
    const record = await detail(lab, orderCode);
    expect(record.files).toEqual([]);
    expect(record.status).toBe('completed');
    expect(record.teeth).toHaveLength(1);
    expect(record.events.map((e) => e.action)).toEqual(expect.arrayContaining(['accept', 'ship', 'complete']));
    expect((await grant(clinic, fileCode)).code).toBe(200);

    // The clinic's own retention counts, both ways.
    expect((await setRetention(clinic, 365)).code).toBe(200);
    expect((await grant(lab, fileCode)).code).toBe(200);
    await completedDaysAgo(orderCode, 8);
    expect((await setRetention(clinic, 7)).code).toBe(200);
    expect((await grant(lab, fileCode)).code).toBe(2089);
    expect((await setRetention(clinic, 90)).code).toBe(200);
  });

  it('never starts for an order canceled before acceptance, whose thread becomes read-only', async () => {
    const { caseCode, fileCode } = await caseWithScan('Canceled crown');
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    expect((await post(lab, orderCode!)).code).toBe(200);
    await orderAction(h, clinic, [orderCode!], 'cancel', { reason: 'Changed plan' });
    expect((await grant(lab, fileCode)).code).toBe(2089);
    expect((await detail(lab, orderCode!)).status).toBe('canceled');
    const messages = await h.db.query(
      'SELECT 1 FROM order_messages m JOIN orders o ON o.id = m.order_id WHERE o.code = $1',
      [orderCode],
    );
    for (const s of [lab, clinic]) {
      const refused = await post(s, orderCode!);
      expect([refused.status, refused.code]).toEqual([409, 2088]);
      const thread = await h.call('msg/listMsgByOrder', {
        token: s.token,
        body: { orderCode, pageNum: 1, pageSize: 10 },
      });
      expect(thread.data.total).toBe(1);
    }
    expect(
      await h.db.query('SELECT 1 FROM order_messages m JOIN orders o ON o.id = m.order_id WHERE o.code = $1', [
        orderCode,
      ]),
    ).toHaveLength(messages.length);
  });

  it('ends with the partnership for pending orders; accepted work goes on, its thread read-only', async () => {
    const otherLab = await side(h, OrgType.Lab);
    const code = await partner(h, clinic, otherLab);
    const pending = await caseWithScan('Pending at the end');
    const running = await caseWithScan('Running at the end');
    const [pendingOrder] = await sendToLab(h, clinic, code, [pending.caseCode]);
    const [runningOrder] = await sendToLab(h, clinic, code, [running.caseCode]);
    await orderAction(h, otherLab, [runningOrder!], 'accept');
    expect((await h.call('partner/terminate', { token: clinic.token, body: { partnerCode: code } })).code).toBe(200);

    expect((await detail(otherLab, pendingOrder!)).status).toBe('canceled');
    expect((await grant(otherLab, pending.fileCode)).code).toBe(2089);
    expect((await detail(otherLab, pendingOrder!)).files).toEqual([]);
    expect((await grant(otherLab, running.fileCode)).code).toBe(200);
    for (const s of [otherLab, clinic]) {
      expect((await post(s, pendingOrder!)).code).toBe(2088);
      expect((await post(s, runningOrder!)).code).toBe(2088);
    }
  });

  it("ends for the laboratory's share links of the order too", async () => {
    const { caseCode } = await caseWithScan('Shared crown');
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    await orderAction(h, lab, [orderCode!], 'accept');
    const made = await h.call('share/create', {
      token: lab.token,
      body: { resourceType: 'order', resourceCode: orderCode, expiresInDays: 7 },
    });
    expect(made.code).toBe(200);
    const open = () => h.call('share/open', { body: { code: made.data.shareCode } });
    const before = await open();
    expect(before.data.files).toHaveLength(1);
    const link = new URL(before.data.files[0].url as string);
    expect((await fetch(`${base}${link.pathname}${link.search}`)).status).toBe(200);

    await orderAction(h, lab, [orderCode!], 'ready');
    await orderAction(h, lab, [orderCode!], 'ship', { trackingNumber: 'T-2' });
    await orderAction(h, clinic, [orderCode!], 'complete');
    await completedDaysAgo(orderCode!, 120);
    const after = await open();
    expect(after.code).toBe(200);
    expect(after.data.files).toEqual([]);
    const refused = await fetch(`${base}${link.pathname}${link.search}`);
    expect([refused.status, ((await refused.json()) as { code: number }).code]).toEqual([403, 2089]);
  });
});

describe("the clinic's retention setting", () => {
  it('is 90 days by default, set by the clinic within 7 to 3650 days, refusing bad input by field', async () => {
    expect((await h.call('company/companyInfo', { token: clinic.token })).data.scanRetentionDays).toBe(90);
    for (const bad of [6, 3651, 30.5, '30', null]) {
      const res = await setRetention(clinic, bad);
      expect([res.status, res.data?.field], JSON.stringify(bad)).toEqual([400, 'scanRetentionDays']);
    }
    expect((await h.call('company/companyInfo', { token: clinic.token })).data.scanRetentionDays).toBe(90);
    expect((await setRetention(lab, 30)).code).toBe(1002);
    const saved = await setRetention(clinic, 3650);
    expect([saved.code, saved.data.scanRetentionDays]).toEqual([200, 3650]);
    expect((await setRetention(clinic, 7)).data.scanRetentionDays).toBe(7);
  });
});
