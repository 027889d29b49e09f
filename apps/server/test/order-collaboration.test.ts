import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { OrgType, dateInTimeZone } from '@portal/contracts';
import { newCode } from '../src/platform/crypto.js';
import { createHarness, createUser, login, mailBatchesSettled, type Harness } from './harness.js';

// A 1×1 PNG: real image bytes for content checks.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let h: Harness;
let base: string;
type Side = { token: string; userId: number; organizationId: number; code: string; email: string };
let clinic: Side;
let lab: Side;
let otherLab: Side;
let stranger: Side;
let partnerCode: string;
let otherPartnerCode: string;

async function side(orgType: number, language = 'en'): Promise<Side> {
  const u = await createUser(h.db, { orgType, language });
  const [org] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [u.organizationId]);
  return {
    token: (await login(h, u.account)).accessToken,
    userId: u.userId,
    organizationId: u.organizationId,
    code: org!.code,
    email: u.email,
  };
}
async function partner(c: Side, l: Side) {
  const code = (await h.call('partner/apply', { token: c.token, body: { organizationCode: l.code } })).data
    .partnerCode as string;
  await h.call('partner/accept', { token: l.token, body: { partnerCode: code } });
  return code;
}
async function newCase(name = 'Crown case', patientName = 'Greta Lund') {
  return (await h.call('case/create', { token: clinic.token, body: { name, patientName } })).data.caseCode as string;
}
const crown = { number: 16, shade: 'A2', material: 'Zirconia', method: 'screwRetained' };
async function send(caseCodes: string[], over: Record<string, unknown> = {}) {
  return h.call('order/create', {
    token: clinic.token,
    body: { caseCodes, partnerCode, orderType: 'restoration', workTypes: ['Crown'], teeth: [crown], ...over },
  });
}
const act = (s: Side, orderCodes: string[], action: string, extra: Record<string, unknown> = {}) =>
  h.call('order/action', { token: s.token, body: { orderCodes, action, ...extra } });
const count = async (sql: string, params: unknown[] = []) =>
  (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;
async function upload(s: Side, orderCode: string | null, files: { name: string; bytes: Buffer }[]) {
  const form = new FormData();
  if (orderCode !== null) form.append('orderCode', orderCode);
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
  const res = await fetch(`${base}/api/v2/order/save_attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}` },
    body: form,
  });
  return (await res.json()) as {
    code: number;
    msg: string;
    data: { list: { code: string; name: string; size: number; mine: boolean }[] };
  };
}
/** Mails are sent after the change commits; wait for them to reach the outbox. */
async function mailsTo(email: string, expected: number) {
  for (let i = 0; i < 50; i++) {
    const rows = await h.db.query<{ subject: string; body_text: string; language: string }>(
      'SELECT subject, body_text, language FROM mail_outbox WHERE to_address = $1 ORDER BY id',
      [email],
    );
    if (rows.length >= expected) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return h.db.query<{ subject: string; body_text: string; language: string }>(
    'SELECT subject, body_text, language FROM mail_outbox WHERE to_address = $1 ORDER BY id',
    [email],
  );
}
/** How many mails an address has once every earlier action's mail batch is in the outbox (a count taken sooner races them). */
async function settledMailCount(email: string) {
  await mailBatchesSettled(h.db);
  return (await mailsTo(email, 0)).length;
}

beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(OrgType.Clinic);
  lab = await side(OrgType.Lab, 'de');
  otherLab = await side(OrgType.Lab);
  stranger = await side(OrgType.Clinic);
  partnerCode = await partner(clinic, lab);
  otherPartnerCode = await partner(clinic, otherLab);
});
afterAll(() => h.close());

describe('required prescription fields', () => {
  it('block an order that lacks what the laboratory requires, naming the fields, and change nothing', async () => {
    expect(
      (
        await h.call('order/saveRequiredFields', {
          token: lab.token,
          body: { rules: [{ workType: 'Crown', fields: ['shade', 'material'] }] },
        })
      ).code,
    ).toBe(200);
    expect((await h.call('order/saveRequiredFields', { token: clinic.token, body: { rules: [] } })).code).toBe(1002);
    const rules = await h.call('order/requiredFields', { token: clinic.token, body: { partnerCode } });
    expect(rules.data).toEqual({
      labName: expect.any(String),
      rules: [{ workType: 'Crown', fields: ['shade', 'material'] }],
    });

    const caseCode = await newCase();
    const orders = await count('orders');
    const refused = await send([caseCode], { teeth: [{ number: 16, shade: 'A2' }] });
    expect(refused.code).toBe(2037);
    expect(refused.msg).toContain('material');
    expect(refused.msg).not.toContain('shade');
    expect(refused.data.missing).toEqual([{ workType: 'Crown', fields: ['material'] }]);
    expect((await send([caseCode], { teeth: [] })).msg).toContain('tooth items');
    expect(await count('orders')).toBe(orders);
    expect((await h.call('case/detail', { token: clinic.token, body: { caseCode } })).data.status).not.toBe('sent');
    // Other work types and other labs are free; a complete prescription goes through.
    expect((await send([await newCase()], { workTypes: ['StudyModel'], teeth: [] })).code).toBe(200);
    expect((await send([caseCode])).code).toBe(200);
    expect(
      (
        await h.call('order/saveRequiredFields', {
          token: lab.token,
          body: { rules: [{ workType: 'Crown', fields: ['nope'] }] },
        })
      ).code,
    ).toBe(400);
  });
});

describe('device limit types', () => {
  async function deviceCase(limitType: number, oemOrgId: number | null) {
    const serial = newCode('SN');
    const [d] = await h.db.query<{ id: number }>(
      `INSERT INTO devices (serial_number, model, oem_organization_id, clinic_organization_id, limit_type, status, activation_code_hash)
       VALUES ($1, 'X1', $2, $3, $4, 'Activated', 'x') RETURNING id`,
      [serial, oemOrgId, clinic.organizationId, limitType],
    );
    const caseCode = await newCase(`Scan ${serial}`);
    await h.db.query('UPDATE cases SET device_id = $2 WHERE code = $1', [caseCode, d!.id]);
    return { serial, caseCode };
  }

  it('send limit-1 cases only to designated laboratories, limit-2 only to certified ones, limit-3 anywhere', async () => {
    const oem = await side(OrgType.Oem);
    const designated = await deviceCase(1, oem.organizationId);
    const refused = await send([designated.caseCode]);
    expect(refused.code).toBe(2038);
    expect(refused.msg).toContain(`Scan ${designated.serial}`);
    expect(
      (
        await h.call('equipment/saveDesignatedLabs', {
          token: clinic.token,
          body: { serialNumber: designated.serial, labCodes: [clinic.code] },
        })
      ).code,
    ).toBe(2041);
    expect(
      (
        await h.call('equipment/saveDesignatedLabs', {
          token: stranger.token,
          body: { serialNumber: designated.serial, labCodes: [lab.code] },
        })
      ).code,
    ).toBe(404);
    expect(
      (
        await h.call('equipment/saveDesignatedLabs', {
          token: clinic.token,
          body: { serialNumber: designated.serial, labCodes: [lab.code] },
        })
      ).code,
    ).toBe(200);
    expect(
      (
        await h.call('equipment/listDesignatedLabs', { token: clinic.token, body: { serialNumber: designated.serial } })
      ).data.list.map((l: { code: string }) => l.code),
    ).toEqual([lab.code]);
    expect((await send([designated.caseCode])).code).toBe(200);
    // Designated for `lab`, so the other laboratory is still refused.
    const again = await deviceCase(1, oem.organizationId);
    await h.call('equipment/saveDesignatedLabs', {
      token: clinic.token,
      body: { serialNumber: again.serial, labCodes: [lab.code] },
    });
    expect((await send([again.caseCode], { partnerCode: otherPartnerCode })).code).toBe(2038);

    const certified = await deviceCase(2, oem.organizationId);
    expect((await send([certified.caseCode])).code).toBe(2039);
    expect(
      (await h.call('equipment/saveCertifiedLabs', { token: clinic.token, body: { labCodes: [lab.code] } })).code,
    ).toBe(1002);
    expect(
      (await h.call('equipment/saveCertifiedLabs', { token: oem.token, body: { labCodes: [lab.code] } })).code,
    ).toBe(200);
    expect((await h.call('equipment/listCertifiedLabs', { token: oem.token })).data.list).toEqual([
      { code: lab.code, name: expect.any(String) },
    ]);
    expect((await send([certified.caseCode])).code).toBe(200);

    const free = await deviceCase(3, oem.organizationId);
    expect((await send([free.caseCode], { partnerCode: otherPartnerCode })).code).toBe(200);
    // A batch with one limited case sends nothing.
    const mixed = [await newCase(), (await deviceCase(1, oem.organizationId)).caseCode];
    const before = await count('orders');
    expect((await send(mixed)).code).toBe(2038);
    expect(await count('orders')).toBe(before);
  });
});

describe('attachments and the case files through the order', () => {
  it('lets both sides attach and read files of their orders, nobody else', async () => {
    const caseCode = await newCase();
    const orderCode = (await send([caseCode])).data.list[0].orderCode as string;
    const saved = await upload(clinic, orderCode, [{ name: 'photo.png', bytes: PNG }]);
    expect(saved.code).toBe(200);
    expect(saved.data.list).toEqual([expect.objectContaining({ name: 'photo.png', size: PNG.length, mine: true })]);
    const labSaved = await upload(lab, orderCode, [{ name: 'note.png', bytes: PNG }]);
    expect(labSaved.code).toBe(200);
    // Several files in one request, larger than the plugin's 5 MB default (a PNG with trailing bytes).
    const big = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
    const several = await upload(lab, orderCode, [
      { name: 'big.png', bytes: big },
      { name: 'small.png', bytes: PNG },
    ]);
    expect(several.code).toBe(200);
    expect(several.data.list.map((a) => [a.name, a.size])).toEqual([
      ['big.png', big.length],
      ['small.png', PNG.length],
    ]);
    const tooBig = await upload(lab, orderCode, [
      { name: 'huge.png', bytes: Buffer.concat([PNG, Buffer.alloc(21 * 1024 * 1024)]) },
    ]);
    expect(tooBig.code).toBe(2025);

    const seen = (await h.call('order/detail', { token: lab.token, body: { orderCode } })).data.attachments;
    expect(seen.map((a: { name: string; mine: boolean }) => [a.name, a.mine])).toEqual([
      ['photo.png', false],
      ['note.png', true],
      ['big.png', true],
      ['small.png', true],
    ]);
    const link = await h.call('order/attachmentLink', {
      token: lab.token,
      body: { attachmentCode: saved.data.list[0]!.code },
    });
    const downloaded = Buffer.from(
      await (await fetch(link.data.url.replace('http://portal.test', base))).arrayBuffer(),
    );
    expect(downloaded.equals(PNG)).toBe(true);
    expect(
      (
        await h.call('order/attachmentLink', {
          token: stranger.token,
          body: { attachmentCode: saved.data.list[0]!.code },
        })
      ).code,
    ).toBe(404);
    expect(
      (await fetch(link.data.url.replace('http://portal.test', base).replace(/sig=[^&]+/, 'sig=forgedforgedforged')))
        .status,
    ).toBe(404);

    // Refused uploads store nothing and do not touch usage.
    const usage = await h.db.query('SELECT used_bytes FROM storage_accounts WHERE organization_id = $1', [
      clinic.organizationId,
    ]);
    const attachments = await count('order_attachments');
    expect((await upload(clinic, orderCode, [{ name: 'fake.png', bytes: Buffer.from('not a png at all') }])).code).toBe(
      2026,
    );
    expect((await upload(clinic, orderCode, [{ name: 'script.exe', bytes: PNG }])).code).toBe(2024);
    expect((await upload(stranger, orderCode, [{ name: 'photo.png', bytes: PNG }])).code).toBe(404);
    expect((await upload(clinic, null, [{ name: 'photo.png', bytes: PNG }])).code).toBe(400);
    expect(await count('order_attachments')).toBe(attachments);
    expect(
      await h.db.query('SELECT used_bytes FROM storage_accounts WHERE organization_id = $1', [clinic.organizationId]),
    ).toEqual(usage);
  });

  it("gives the laboratory the case's files and download grants, and a stranger nothing", async () => {
    const caseCode = await newCase();
    const [c] = await h.db.query<{ id: number }>('SELECT id FROM cases WHERE code = $1', [caseCode]);
    const fileCode = newCode('f');
    await h.db.query(
      `INSERT INTO files (code, organization_id, case_id, name, format, kind, size, storage_key) VALUES ($1, $2, $3, 'upper.stl', 'stl', 'model', 84, 'k')`,
      [fileCode, clinic.organizationId, c!.id],
    );
    expect((await h.call('file/downloadGrant', { token: lab.token, body: { fileCode } })).code).toBe(404);
    const orderCode = (await send([caseCode])).data.list[0].orderCode;
    // Sent, not yet accepted: the laboratory reads the order, the scans come with its acceptance.
    expect((await h.call('file/downloadGrant', { token: lab.token, body: { fileCode } })).code).toBe(2089);
    await act(lab, [orderCode], 'accept');
    const detail = (await h.call('order/detail', { token: lab.token, body: { orderCode } })).data;
    expect(detail.files.map((f: { fileCode: string }) => f.fileCode)).toEqual([fileCode]);
    expect((await h.call('file/downloadGrant', { token: lab.token, body: { fileCode } })).code).toBe(200);
    expect((await h.call('file/downloadGrant', { token: otherLab.token, body: { fileCode } })).code).toBe(404);
    expect((await h.call('file/downloadGrant', { token: stranger.token, body: { fileCode } })).code).toBe(404);
  });
});

describe('messages and notifications', () => {
  it('carry a thread both ways, with unread counts, pop-up data and read marks', async () => {
    const orderCode = (await send([await newCase('Thread case')])).data.list[0].orderCode as string;
    await h.call('msg/read', { token: lab.token, body: {} });
    await h.call('msg/read', { token: clinic.token, body: {} });

    expect((await h.call('msg/send', { token: clinic.token, body: { orderCode, content: '   ' } })).code).toBe(2040);
    expect((await h.call('msg/send', { token: stranger.token, body: { orderCode, content: 'hi' } })).code).toBe(404);
    const sent = await h.call('msg/send', {
      token: clinic.token,
      body: { orderCode, content: 'Please use a lighter shade on 16.' },
    });
    expect(sent.data).toMatchObject({ content: 'Please use a lighter shade on 16.', mine: true });

    const unread = (await h.call('msg/unreadCount', { token: lab.token })).data;
    expect(unread.total).toBe(1);
    expect(unread.counts).toEqual([
      { msgType: 2, count: 1 },
      { msgType: 5, count: 0 },
    ]);
    // The lab reads German.
    expect(unread.latest).toMatchObject({ msgType: 2, code: orderCode, read: false });
    expect(unread.latest.title).toContain('Nachricht');
    expect(unread.latest.content).toContain('Please use a lighter shade');
    expect((await h.call('order/detail', { token: lab.token, body: { orderCode } })).data.unreadMessages).toBe(1);

    const thread = await h.call('msg/listMsgByOrder', {
      token: lab.token,
      body: { orderCode, pageNum: 1, pageSize: 20 },
    });
    expect(thread.data.list).toEqual([
      expect.objectContaining({ content: 'Please use a lighter shade on 16.', mine: false }),
    ]);
    expect((await h.call('msg/unreadCount', { token: lab.token })).data.total).toBe(0);

    // The lab answers with an attachment.
    const att = (await upload(lab, orderCode, [{ name: 'shade.png', bytes: PNG }])).data.list[0]!;
    const reply = await h.call('msg/send', {
      token: lab.token,
      body: { orderCode, content: 'Done, see photo.', attachmentCodes: [att.code] },
    });
    expect(reply.data.attachments).toEqual([expect.objectContaining({ code: att.code, name: 'shade.png' })]);
    expect(
      (
        await h.call('msg/send', {
          token: lab.token,
          body: { orderCode, content: 'again', attachmentCodes: [att.code] },
        })
      ).code,
    ).toBe(404);
    const clinicThread = await h.call('msg/listMsgByOrder', {
      token: clinic.token,
      body: { orderCode, pageNum: 1, pageSize: 20 },
    });
    expect(clinicThread.data.list.map((m: { content: string; mine: boolean }) => [m.content, m.mine])).toEqual([
      ['Done, see photo.', false],
      ['Please use a lighter shade on 16.', true],
    ]);
    expect(
      (await h.call('msg/listMsgByOrder', { token: stranger.token, body: { orderCode, pageNum: 1, pageSize: 20 } }))
        .code,
    ).toBe(404);
  });

  it('tell the other side about every status change, in its language, and mark them read', async () => {
    const codes = [
      (await send([await newCase()])).data.list[0].orderCode,
      (await send([await newCase()])).data.list[0].orderCode,
    ] as string[];
    await h.call('msg/read', { token: clinic.token, body: {} });
    for (const action of ['accept', 'startProcessing', 'ready']) await act(lab, codes, action);
    await act(lab, codes, 'ship', { trackingNumber: 'DHL-777' });
    const list = await h.call('msg/listSysMsg', {
      token: clinic.token,
      body: { pageNum: 1, pageSize: 50, msgType: 5, unreadOnly: true },
    });
    expect(list.data.total).toBe(8);
    expect(list.data.counts).toEqual([
      { msgType: 2, count: 0 },
      { msgType: 5, count: 8 },
    ]);
    const shipped = list.data.list.filter((m: { title: string }) => m.title === 'Order shipped');
    expect(shipped).toHaveLength(2);
    expect(shipped[0].content).toContain('DHL-777');
    await h.call('msg/read', { token: clinic.token, body: { ids: [shipped[0].id] } });
    expect((await h.call('msg/unreadCount', { token: clinic.token })).data.total).toBe(7);
    // Another user's ids are not the caller's to mark.
    await h.call('msg/read', { token: stranger.token, body: { ids: [shipped[1].id] } });
    expect((await h.call('msg/unreadCount', { token: clinic.token })).data.total).toBe(7);
    await h.call('msg/read', { token: clinic.token, body: { msgType: 5 } });
    expect((await h.call('msg/unreadCount', { token: clinic.token })).data.total).toBe(0);
    // A rejected order carries its reason to the clinic.
    const rejected = (await send([await newCase()])).data.list[0].orderCode;
    await act(lab, [rejected], 'reject', { reason: 'Scan incomplete' });
    expect((await h.call('msg/unreadCount', { token: clinic.token })).data.latest.content).toContain('Scan incomplete');
  });
});

describe('order mails', () => {
  it('go to the other side in its language, one per batch, never to users who turned them off, never with an unshared patient name', async () => {
    const quietLab = await side(OrgType.Lab);
    const quietCode = await partner(clinic, quietLab);
    await h.db.query('UPDATE users SET receive_email = false WHERE id = $1', [quietLab.userId]);
    await send([await newCase()], { partnerCode: quietCode });

    const before = await settledMailCount(lab.email);
    await send([await newCase('Hidden case', 'Secret Patient')], { sharePatientName: false });
    const labMails = await mailsTo(lab.email, before + 1);
    expect(labMails).toHaveLength(before + 1);
    const created = labMails.at(-1)!;
    expect(created.language).toBe('de');
    expect(created.subject).toContain('Neuer Auftrag');
    expect(created.body_text).toContain('Hidden case');
    expect(created.body_text).not.toContain('Secret Patient');
    expect(created.body_text).toContain('/order-management/detail/');

    const batch = [];
    for (let i = 0; i < 3; i++)
      batch.push((await send([await newCase(`Batch ${i}`, 'Shared Patient')])).data.list[0].orderCode);
    for (const a of ['accept', 'ready']) await act(lab, batch, a);
    const clinicBefore = await settledMailCount(clinic.email);
    await act(lab, batch, 'ship', { trackingNumber: 'UPS-1' });
    const clinicMails = await mailsTo(clinic.email, clinicBefore + 1);
    expect(clinicMails).toHaveLength(clinicBefore + 1);
    const shipMail = clinicMails.at(-1)!;
    expect(shipMail.subject).toContain('3 orders');
    for (const code of batch) expect(shipMail.body_text).toContain(code);
    expect(shipMail.body_text).toContain('Shared Patient');
    expect(await settledMailCount(quietLab.email)).toBe(0);
  });
});

describe('order list export', () => {
  it('exports the filtered list as xlsx and csv, hiding unshared patient names from the laboratory and neutralising formulas', async () => {
    const hidden = (await send([await newCase('=HYPERLINK("x")', 'Nora Private')], { sharePatientName: false })).data
      .list[0].orderCode;
    const exported = await h.app.inject({
      method: 'POST',
      url: '/api/v2/order/export',
      headers: { authorization: `Bearer ${lab.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ format: 'csv', sortOrder: 'desc' }),
    });
    expect(exported.headers['content-disposition']).toMatch(/attachment; filename\*=UTF-8''.+\.csv/);
    // Dates are the reader's days: the file's name and each order's day (the newest was made just now).
    const kiritimati = dateInTimeZone(new Date(), 'Pacific/Kiritimati');
    const farEast = await h.app.inject({
      method: 'POST',
      url: '/api/v2/order/export',
      headers: {
        authorization: `Bearer ${lab.token}`,
        'content-type': 'application/json',
        timezone: 'Pacific/Kiritimati',
      },
      payload: JSON.stringify({ format: 'csv', sortOrder: 'desc', dateFrom: kiritimati, dateTo: kiritimati }),
    });
    expect(decodeURIComponent(String(farEast.headers['content-disposition']))).toContain(`-${kiritimati}.csv`);
    expect(farEast.body.split('\r\n')[1]).toMatch(new RegExp(`^${hidden},.*,${kiritimati}$`));
    const csv = exported.body;
    const total = (await h.call('order/list', { token: lab.token, body: { pageNum: 1, pageSize: 1 } })).data.total;
    expect(csv.trim().split('\r\n')).toHaveLength(total + 1);
    expect(csv).toContain(hidden);
    expect(csv).not.toContain('Nora Private');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv.split('\r\n')[0]).toContain('Auftrag');

    const xlsx = await h.app.inject({
      method: 'POST',
      url: '/api/v2/order/export',
      headers: { authorization: `Bearer ${clinic.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ format: 'xlsx', status: 'pending' }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows: string[][] = [];
    wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map(String)));
    const pending = (
      await h.call('order/list', { token: clinic.token, body: { pageNum: 1, pageSize: 1, status: 'pending' } })
    ).data.total;
    expect(rows).toHaveLength(pending + 1);
    expect(rows.some((r) => r.includes('Nora Private'))).toBe(true);
    expect(rows.slice(1).every((r) => r[1] === 'Pending')).toBe(true);
    expect((await h.call('order/export', { token: stranger.token, body: { format: 'csv' } })).data).not.toContain(
      hidden,
    );
  });
});

describe('dashboards', () => {
  it('count both sides by status and chart cases and accepted orders per day', async () => {
    const d = await side(OrgType.Clinic);
    const l = await side(OrgType.Lab);
    const code = await partner(d, l);
    const cases = [];
    for (let i = 0; i < 2; i++)
      cases.push(
        (await h.call('case/create', { token: d.token, body: { name: `Dash ${i}`, patientName: 'Ida' } })).data
          .caseCode,
      );
    const sent = await h.call('order/create', {
      token: d.token,
      body: {
        caseCodes: cases,
        partnerCode: code,
        orderType: 'restoration',
        workTypes: ['Crown'],
        teeth: [crown],
        sharePatientName: false,
      },
    });
    await act(l, [sent.data.list[0].orderCode], 'accept');

    const clinicBoard = (await h.call('user/indexDashboard', { token: d.token })).data;
    expect(clinicBoard.side).toBe('clinic');
    expect(clinicBoard.cases.total).toBe(2);
    expect(clinicBoard.orders.byStatus).toEqual(
      expect.arrayContaining([
        { status: 'pending', count: 1 },
        { status: 'accepted', count: 1 },
      ]),
    );
    expect(clinicBoard.partners).toBe(1);
    expect(clinicBoard.recentOrders).toHaveLength(2);
    expect(clinicBoard.recentCases[0].patientName).toBe('Ida');
    const labBoard = (await h.call('user/indexDashboard', { token: l.token })).data;
    expect(labBoard).toMatchObject({ side: 'lab', orders: { total: 2 }, unreadMessages: 2 });
    expect(labBoard.recentCases.every((c: { patientName: string }) => c.patientName === '')).toBe(true);
    expect(labBoard.recentOrders.every((o: { patientName: string | null }) => o.patientName === null)).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    const line = (await h.call('user/lineChart', { token: d.token, body: { period: '7d' } })).data;
    expect(line.points).toHaveLength(7);
    expect(line.points.at(-1)).toEqual({ date: today, count: 2 });
    expect(line.total).toBe(2);
    expect((await h.call('user/lineChart', { token: l.token, body: { period: '30d' } })).data.points).toHaveLength(30);
    for (const s of [d, l]) {
      const accepted = (await h.call('user/acceptOrderLineChart', { token: s.token, body: { period: '90d' } })).data;
      expect(accepted.points).toHaveLength(90);
      expect(accepted.total).toBe(1);
    }
    expect((await h.call('user/lineChart', { token: d.token, body: { period: '2d' } })).code).toBe(400);
    const dealer = await side(OrgType.Dealer);
    expect((await h.call('user/indexDashboard', { token: dealer.token })).code).toBe(1002);
    expect((await h.call('order/list', { token: dealer.token, body: { pageNum: 1, pageSize: 10 } })).code).toBe(1002);
  });
});

describe('order list filters', () => {
  it('filter by status, type, partner and date range, page and sort, each with the right total', async () => {
    const c = await side(OrgType.Clinic);
    const [l1, l2] = [await side(OrgType.Lab), await side(OrgType.Lab)];
    const [p1, p2] = [await partner(c, l1), await partner(c, l2)];
    const make = async (partnerCode: string, orderType: string) => {
      const caseCode = (await h.call('case/create', { token: c.token, body: { name: 'F', patientName: 'P' } })).data
        .caseCode;
      return (
        await h.call('order/create', {
          token: c.token,
          body: { caseCodes: [caseCode], partnerCode, orderType, workTypes: ['Crown'], teeth: [crown] },
        })
      ).data.list[0].orderCode as string;
    };
    const a = await make(p1, 'restoration');
    const b = await make(p1, 'implant');
    const d = await make(p2, 'restoration');
    await act(l1, [a], 'accept');
    const list = async (body: Record<string, unknown>) => {
      const r = await h.call('order/list', { token: c.token, body: { pageNum: 1, pageSize: 10, ...body } });
      return {
        total: r.data.total as number,
        codes: r.data.list.map((o: { orderCode: string }) => o.orderCode) as string[],
      };
    };
    expect(await list({})).toEqual({ total: 3, codes: [d, b, a] });
    expect(await list({ sortOrder: 'asc' })).toEqual({ total: 3, codes: [a, b, d] });
    expect(await list({ status: 'accepted' })).toEqual({ total: 1, codes: [a] });
    expect(await list({ orderType: 'restoration' })).toEqual({ total: 2, codes: [d, a] });
    expect(await list({ partnerCode: p2 })).toEqual({ total: 1, codes: [d] });
    expect(await list({ partnerCode: p1, status: 'pending' })).toEqual({ total: 1, codes: [b] });
    const today = new Date().toISOString().slice(0, 10);
    expect((await list({ dateFrom: today, dateTo: today })).total).toBe(3);
    expect(await list({ dateTo: '2020-01-01' })).toEqual({ total: 0, codes: [] });
    expect(await list({ pageNum: 2, pageSize: 2 })).toEqual({ total: 3, codes: [a] });
    // The other side of a filter: the laboratory sees only its own.
    const fromLab = await h.call('order/list', { token: l2.token, body: { pageNum: 1, pageSize: 10 } });
    expect(fromLab.data.list.map((o: { orderCode: string }) => o.orderCode)).toEqual([d]);
  });
});
