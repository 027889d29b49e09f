import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, OrgType } from '@portal/contracts';
import { count, member, newCase, partner, sendToLab, side, type Side } from './fixtures.js';
import { oauthFlow, startOAuthWorld, type OAuthWorld } from './oauth-flow.js';
import { binaryStl, tusUpload } from './uploads.js';

/**
 * The patient-data access log (docs/product-decisions.md, "Patient-data access log"): every read of patient data is
 * an entry (who, when, what, from where, through which app or share), the administrators read and export it, and no
 * statement can change or remove an entry.
 */
let w: OAuthWorld;
const { registerApp, configFor, authorize, finish, api } = oauthFlow(() => w);
let clinic: Side;
let lab: Side;
let caseCode: string;
let orderCode: string;
let fileCode: string;

const PATIENT = 'Ingrid Halvorsen';

async function log(who: Side, body: Record<string, unknown> = {}) {
  const res = await w.h.call('audit/accessLog', { token: who.token, body: { pageSize: 100, ...body } });
  expect(res.code, res.msg).toBe(200);
  return res.data as { total: number; list: Array<Record<string, unknown>> };
}

beforeAll(async () => {
  w = await startOAuthWorld();
  clinic = await side(w.h, OrgType.Clinic);
  lab = await side(w.h, OrgType.Lab);
  caseCode = await newCase(w.h, clinic, 'Crown 16', PATIENT);
  await tusUpload(w.base, clinic.token, binaryStl(200), { caseCode, filename: 'upper.stl', jaw: 'upper' });
  const detail = await w.h.call('case/detail', { token: clinic.token, body: { caseCode } });
  fileCode = detail.data.files[0].fileCode;
  // A share's page waits while the model is prepared for the viewer (2007).
  await w.h.app.platform.jobs.drain();
  orderCode = (await sendToLab(w.h, clinic, await partner(w.h, clinic, lab), [caseCode]))[0]!;
});
afterAll(() => w?.h.close());

describe('the patient-data access log', () => {
  it('records each read by a member, an app and a share visitor, with ids only', async () => {
    const before = (await log(clinic)).total;
    await w.h.call('case/detail', { token: clinic.token, body: { caseCode } });
    expect((await w.h.call('file/downloadGrant', { token: clinic.token, body: { fileCode } })).code).toBe(200);
    expect(
      (await w.h.call('export/create', { token: clinic.token, body: { caseCodes: [caseCode], types: ['stl'] } })).code,
    ).toBe(200);
    const share = await w.h.call('share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 },
    });
    expect(share.code).toBe(200);
    const opened = await w.h.app.inject({
      method: 'POST',
      url: '/api/v2/share/open',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (Android 14) Chrome/120.0' },
      payload: JSON.stringify({ code: share.data.shareCode }),
      remoteAddress: '203.0.113.9',
    });
    expect(opened.json().code).toBe(200);
    // The laboratory reads the order (its clinic's patient).
    expect((await w.h.call('order/detail', { token: lab.token, body: { orderCode } })).code).toBe(200);
    // An app reads the list and the case for the clinic's administrator.
    const app = await registerApp({ name: 'Chart Sync' });
    const config = await configFor(app);
    const tokens = await finish(config, await authorize(config, clinic), clinic);
    expect((await api('case/list', tokens.access_token, { pageNum: 1, pageSize: 5 })).code).toBe(200);
    expect((await api('case/detail', tokens.access_token, { caseCode })).code).toBe(200);

    const { total, list } = await log(clinic);
    const actions = list.slice(0, 9).map((e) => `${String(e.action)}/${String(e.via)}`);
    expect(actions).toEqual([
      'case.view/app',
      'case.list/app',
      'order.view/member',
      'share.page/share',
      'share.create/member',
      'export.create/member',
      'file.open/member',
      'case.view/member',
      // The detail read in beforeAll, to find the file.
      'case.view/member',
    ]);
    expect(total).toBe(before + 8);
    const [appRead, , labRead, visit, made, exported, file] = list;
    expect(appRead).toMatchObject({ caseCode, appCode: app.appCode, appName: 'Chart Sync', account: clinic.account });
    expect(labRead).toMatchObject({ orderCode, caseCode, account: lab.account });
    expect(labRead!.organizationName).toBeTruthy();
    expect(visit).toMatchObject({ caseCode, userCode: null, userAgent: 'Chrome · Android' });
    expect(visit!.address).toMatch(/^[0-9a-f]{12}$/);
    expect(made).toMatchObject({ caseCode, account: clinic.account, organizationName: null });
    expect(exported).toMatchObject({ caseCode });
    expect(file).toMatchObject({ caseCode, fileCode });

    // Entries hold ids: neither the patient's name nor the visitor's address is stored.
    const rows = await w.h.db.query('SELECT * FROM access_log');
    expect(JSON.stringify(rows)).not.toContain(PATIENT);
    expect(JSON.stringify(rows)).not.toContain('203.0.113.9');

    // The laboratory's administrator holds no access log (the clinic answers for its patients' data).
    expect((await w.h.call('audit/accessLog', { token: lab.token, body: {} })).code).toBe(ERRORS.NO_PERMISSION.code);
  });

  it('filters by day, action, way, member, app and case', async () => {
    const other = await newCase(w.h, clinic, 'Other', 'Someone Else');
    await w.h.call('case/detail', { token: clinic.token, body: { caseCode: other } });
    const byCase = await log(clinic, { caseCode: other });
    expect(byCase.list.map((e) => e.action)).toEqual(['case.view']);
    expect((await log(clinic, { caseCode })).list.every((e) => e.caseCode === caseCode)).toBe(true);
    expect((await log(clinic, { action: 'share.page' })).list.every((e) => e.action === 'share.page')).toBe(true);
    expect((await log(clinic, { via: 'app' })).list.map((e) => e.action)).toEqual(['case.view', 'case.list']);
    expect((await log(clinic, { via: 'share' })).total).toBe(1);
    const labReader = (await log(clinic, { action: 'order.view' })).list[0]!;
    expect(labReader.account).toBe(lab.account);
    const mine = await log(clinic, { userCode: labReader.userCode });
    expect(mine.list.map((e) => e.action)).toEqual(['order.view']);
    const today = new Date().toISOString().slice(0, 10);
    const total = (await log(clinic)).total;
    expect((await log(clinic, { dateFrom: today, dateTo: today })).total).toBe(total);
    expect((await log(clinic, { dateTo: '2020-01-01' })).total).toBe(0);
    // Bad input names the field.
    const bad = await w.h.call('audit/accessLog', { token: clinic.token, body: { action: 'case.delete' } });
    expect(bad).toMatchObject({ status: 400, code: ERRORS.PARAM_INVALID.code });
    expect(bad.data.field).toBe('action');
  });

  it('exports as CSV whose cells a spreadsheet keeps as text', async () => {
    // A member whose name a spreadsheet would run as a formula.
    const sneaky = await member(w.h, clinic, OrgType.Clinic, ['cases']);
    await w.h.db.query(`UPDATE users SET display_name = '=HYPERLINK("x")' WHERE id = $1`, [sneaky.userId]);
    await w.h.call('case/detail', { token: sneaky.token, body: { caseCode } });
    const res = await w.h.app.inject({
      method: 'POST',
      url: '/api/v2/audit/accessLog/export',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${clinic.token}` },
      payload: JSON.stringify({ caseCode }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Time,Action,/);
    expect(lines).toHaveLength(1 + (await log(clinic, { caseCode })).total);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain('Case opened');
  });

  it('is for administrators: a member without audit:read is refused, another organization sees nothing', async () => {
    const nurse = await member(w.h, clinic, OrgType.Clinic, ['cases']);
    expect((await w.h.call('audit/accessLog', { token: nurse.token, body: {} })).code).toBe(1002);
    expect((await w.h.call('audit/accessLog/export', { token: nurse.token, body: {} })).code).toBe(1002);
    const stranger = await side(w.h, OrgType.Clinic);
    expect((await log(stranger)).total).toBe(0);
    expect((await log(stranger, { caseCode })).total).toBe(0);
  });

  it('refuses to change or remove an entry, whoever asks', async () => {
    const n = await count(w.h, 'access_log');
    await expect(w.h.db.query('UPDATE access_log SET address = NULL')).rejects.toThrow(/append-only/);
    await expect(w.h.db.query('DELETE FROM access_log')).rejects.toThrow(/append-only/);
    await expect(w.h.db.query('TRUNCATE access_log')).rejects.toThrow(/append-only/);
    expect(await count(w.h, 'access_log')).toBe(n);
  });

  it('fails the read when its entry cannot be written, rather than hand out unrecorded data', async () => {
    await w.h.db.query(
      `ALTER TABLE access_log ADD CONSTRAINT audit_test_refuse CHECK (action <> 'case.view') NOT VALID`,
    );
    try {
      const res = await w.h.call('case/detail', { token: clinic.token, body: { caseCode } });
      expect(res.status).toBe(500);
      expect(res.data).toBeNull();
    } finally {
      await w.h.db.query('ALTER TABLE access_log DROP CONSTRAINT audit_test_refuse');
    }
  });
});
