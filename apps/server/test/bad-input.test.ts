import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, snapshot, type Harness } from './harness.js';
import { count, newCase, partner, sendToLab, side, type Side } from './fixtures.js';
import { PNG } from './uploads.js';

/**
 * What the schema fuzz (fuzz.test.ts) does not say by itself: the text and days that must be accepted next to those
 * refused, and what a multipart request refused part-way keeps and is charged. The refusals of every field of every
 * call (control characters, lone surrogates, impossible days, numbers no column holds, nested bodies, extra and
 * repeated parts) are the fuzz's.
 */
let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
let partnerCode: string;
let orderCode: string;
beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  partnerCode = await partner(h, clinic, lab);
  orderCode = (await sendToLab(h, clinic, partnerCode, [await newCase(h, clinic)]))[0]!;
});
afterAll(() => h.close());

describe('text and days that are accepted', () => {
  it('tab, line breaks and pairs of surrogates (an emoji) are text', async () => {
    const fine = await h.call('case/create', {
      token: clinic.token,
      body: { name: 'Upper 😀', patientName: 'P', memo: 'line one\r\n\tline two' },
    });
    expect(fine.code).toBe(200);
    expect(fine.data.memo).toBe('line one\r\n\tline two');
  });

  it('a leap day that exists is a day', async () => {
    expect((await h.call('case/list', { token: clinic.token, body: { dateFrom: '2028-02-29' } })).code).toBe(200);
  });
});

describe('multipart requests', () => {
  async function attach(fields: Array<[string, string | { name: string; bytes: Buffer }]>) {
    const form = new FormData();
    for (const [name, value] of fields) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, new Blob([new Uint8Array(value.bytes)]), value.name);
    }
    const res = await fetch(`${base}/api/v2/order/save_attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clinic.token}` },
      body: form,
    });
    return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: any }) };
  }
  const png = (name = 'photo.png') => ({ name, bytes: PNG });
  const storageUsed = async () =>
    (
      await h.db.query<{ used: string }>('SELECT used_bytes AS used FROM storage_accounts WHERE organization_id = $1', [
        clinic.organizationId,
      ])
    )[0]?.used ?? '0';

  it('keep nothing and charge nothing when any part is refused', async () => {
    const usedBefore = await storageUsed();
    const before = await snapshot(h.db);
    const files = async () => count(h, 'order_attachments');
    const stranger = await side(h, OrgType.Clinic);
    const foreignOrder = (
      await sendToLab(h, stranger, await partner(h, stranger, lab), [await newCase(h, stranger)])
    )[0]!;
    const snapBefore = await snapshot(h.db);

    // Eleven files: the eleventh is refused, and so are the ten before it.
    const eleven = await attach([
      ['orderCode', orderCode],
      ...Array.from({ length: 11 }, () => ['file', png()] as [string, ReturnType<typeof png>]),
    ]);
    expect([eleven.status, eleven.code]).toEqual([409, 2027]);
    // A second order named later in the request.
    const twoOrders = await attach([
      ['orderCode', orderCode],
      ['file', png()],
      ['orderCode', foreignOrder],
      ['file', png()],
    ]);
    expect([twoOrders.status, twoOrders.code]).toEqual([400, 400]);
    // A picture named as a pdf after a good file.
    const mismatch = await attach([
      ['orderCode', orderCode],
      ['file', png()],
      ['file', png('report.pdf')],
    ]);
    expect([mismatch.status, mismatch.code]).toEqual([415, 2026]);
    // Extra and repeated fields, and more fields than the call has.
    const extra = await attach([
      ['orderCode', orderCode],
      ['note', 'x'],
      ['file', png()],
    ]);
    expect([extra.status, extra.code, extra.data?.field]).toEqual([400, 400, 'note']);
    const many = await attach([
      ['orderCode', orderCode],
      ...Array.from({ length: 7 }, (_, i) => [`f${i}`, 'x'] as [string, string]),
      ['file', png()],
    ]);
    expect([many.status, many.code]).toEqual([400, 400]);
    // An unsafe order code.
    const nul = await attach([
      ['orderCode', 'o\u0000x'],
      ['file', png()],
    ]);
    expect([nul.status, nul.code, nul.data?.field]).toEqual([400, 400, 'orderCode']);
    // A file before the order is named.
    const early = await attach([
      ['file', png()],
      ['orderCode', orderCode],
    ]);
    expect([early.status, early.code, early.data?.field]).toEqual([400, 400, 'orderCode']);

    expect(await files()).toBe(0);
    expect(await storageUsed()).toBe(usedBefore);
    expect(await snapshot(h.db)).toBe(snapBefore);
    expect(before).not.toBe(snapBefore);

    // The same request without the refused part keeps every file and charges them.
    const good = await attach([
      ['orderCode', orderCode],
      ['file', png()],
      ['file', png('second.png')],
    ]);
    expect(good.code).toBe(200);
    expect(good.data.list).toHaveLength(2);
    expect(Number(await storageUsed())).toBe(Number(usedBefore) + 2 * PNG.length);
  });
});
