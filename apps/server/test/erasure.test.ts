import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, OrgType } from '@portal/contracts';
import { PASSWORD } from './harness.js';
import { count, member, newCase, partner, sendToLab, side, type Side } from './fixtures.js';
import { oauthFlow, startOAuthWorld, type OAuthWorld } from './oauth-flow.js';
import { pngImage } from './report-images.js';
import { binaryStl, PNG, tusUpload } from './uploads.js';
import { inject, multipart } from './world.js';

/**
 * Erasing a patient's data on request (docs/product-decisions.md, "Erasing a patient's data"): the clinic's
 * administrator erases a patient's cases with everything hanging on them, the laboratory keeps its order without the
 * patient, a certificate says what went, a legal hold stops it, and a database restored from an older backup erases
 * again from the store's ledger.
 */
let w: OAuthWorld;
const { registerApp, configFor, authorize, finish, api } = oauthFlow(() => w);
let clinic: Side;
let lab: Side;

const PATIENT = 'Wilhelmina Østergaard';
const call = (s: { token: string }, path: string, body: Record<string, unknown>) =>
  w.h.call(path, { token: s.token, body });
/** The tests run on the local store. */
const storeRoot = () => {
  const storage = w.h.config.storage;
  if (storage.kind !== 'local') throw new Error('the erasure tests read the local store');
  return storage.root;
};
const stored = (key: string) => existsSync(join(storeRoot(), key));
const ledgerEntries = () => {
  const folder = join(storeRoot(), 'erasures');
  return existsSync(folder) ? readdirSync(folder).length : 0;
};
const usedBytes = async (orgId: number) =>
  Number(
    (
      await w.h.db.query<{ used_bytes: string }>('SELECT used_bytes FROM storage_accounts WHERE organization_id = $1', [
        orgId,
      ])
    )[0]?.used_bytes ?? 0,
  );

/** A case of the patient with a model (prepared for the viewer), answering its code. */
async function caseWithModel(name: string) {
  const caseCode = await newCase(w.h, clinic, name, PATIENT);
  await tusUpload(w.base, clinic.token, binaryStl(300), { caseCode, filename: 'upper.stl', jaw: 'upper' });
  await w.h.app.platform.jobs.drain();
  return caseCode;
}

/** Every stored key of a case's files and viewer versions. */
async function keysOf(caseCode: string) {
  const rows = await w.h.db.query<{ storage_key: string; viewer_key: string | null }>(
    'SELECT f.storage_key, f.viewer_key FROM files f JOIN cases c ON c.id = f.case_id WHERE c.code = $1',
    [caseCode],
  );
  return rows.flatMap((r) => [r.storage_key, ...(r.viewer_key ? [r.viewer_key] : [])]);
}

async function erase(caseCodes: string[], reason = 'Request of 2026-11-02, ref. DPO-118') {
  return call(clinic, 'case/erase', { caseCodes, reason });
}

beforeAll(async () => {
  w = await startOAuthWorld();
  clinic = await side(w.h, OrgType.Clinic);
  lab = await side(w.h, OrgType.Lab);
  // Erasure is a sensitive action: the password within 15 minutes.
  expect((await call(clinic, 'user/checkIdentity', { password: PASSWORD })).code).toBe(200);
});
afterAll(() => w?.h.close());

describe("erasing a patient's data", () => {
  it('removes the cases, their files from the store, reports, shares, exports and attachments; the laboratory keeps its order without the patient', async () => {
    const startBytes = await usedBytes(clinic.organizationId);
    const labBytes = await usedBytes(lab.organizationId);
    const withOrder = await caseWithModel('Crown 16');
    const alone = await caseWithModel('Six-month check');
    const other = await caseWithModel('Another patient'); // same clinic, not erased
    const [orderCode] = await sendToLab(w.h, clinic, await partner(w.h, clinic, lab), [withOrder]);

    // A report with a snapshot, shares of the case and of its order, an export, attachments from both sides.
    const reportCode = (await call(clinic, 'report/create', { caseCode: withOrder })).data.reportCode as string;
    const shot = await inject(w.h, {
      url: '/api/v2/report/snapshot',
      token: clinic.token,
      ...multipart([
        { name: 'reportCode', value: reportCode },
        { name: 'view', value: 'bite' },
        { name: 'file', filename: 'shot.png', bytes: pngImage(40, 30, 3) },
      ]),
    });
    expect(shot.statusCode).toBe(200);
    for (const [resourceType, resourceCode] of [
      ['case', withOrder],
      ['order', orderCode],
    ])
      expect((await call(clinic, 'share/create', { resourceType, resourceCode, expiresInDays: 7 })).code).toBe(200);
    const exported = await call(clinic, 'export/create', { caseCodes: [withOrder, other], types: ['stl'] });
    expect(exported.code).toBe(200);
    await w.h.app.platform.jobs.drain();
    for (const s of [clinic, lab]) {
      const form = new FormData();
      form.append('orderCode', orderCode!);
      form.append('file', new Blob([new Uint8Array(PNG)]), 'photo.png');
      const res = await fetch(`${w.base}/api/v2/order/save_attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}` },
        body: form,
      });
      expect(((await res.json()) as { code: number }).code).toBe(200);
    }
    // An app read the case: it is asked to delete its copy.
    const app = await registerApp({ name: 'Chart Sync' });
    const config = await configFor(app);
    const tokens = await finish(config, await authorize(config, clinic), clinic);
    expect((await api('case/detail', tokens.access_token, { caseCode: withOrder })).code).toBe(200);

    const keys = [...(await keysOf(withOrder)), ...(await keysOf(alone))];
    const otherKeys = await keysOf(other);
    const sideKeys = (
      await w.h.db.query<{ key: string }>(
        `SELECT storage_key AS key FROM report_snapshots
         UNION ALL SELECT storage_key FROM order_attachments
         UNION ALL SELECT storage_key FROM exports WHERE storage_key IS NOT NULL`,
      )
    ).map((r) => r.key);
    expect(keys.length).toBe(4);
    expect(sideKeys.length).toBe(4);
    for (const k of [...keys, ...sideKeys, ...otherKeys]) expect(stored(k)).toBe(true);

    const res = await erase([withOrder, alone]);
    expect(res.code, res.msg).toBe(200);
    const certificate = res.data;
    expect(certificate).toMatchObject({
      reason: 'Request of 2026-11-02, ref. DPO-118',
      userCode: expect.any(String),
      exportCodes: [exported.data.exportCode ?? expect.any(String)],
      appCodes: [app.appCode],
      pendingBlobs: 0,
    });
    expect(certificate.cases).toEqual([
      {
        caseCode: withOrder,
        files: 1,
        bytes: expect.any(Number),
        reports: 1,
        shares: 2,
        attachments: 2,
        orderCodes: [orderCode],
      },
      { caseCode: alone, files: 1, bytes: expect.any(Number), reports: 0, shares: 0, attachments: 0, orderCodes: [] },
    ]);

    // The bytes are gone from the store; the other patient's stay.
    for (const k of [...keys, ...sideKeys]) expect(stored(k), k).toBe(false);
    for (const k of otherKeys) expect(stored(k)).toBe(true);
    // Nothing of the patient is left in the database; the case with an order is a tombstone, the other is gone.
    expect(await count(w.h, 'cases WHERE patient_name = $1', [PATIENT])).toBe(1); // `other`
    expect(
      await count(w.h, 'cases WHERE code = $1 AND erased_at IS NOT NULL AND patient_name = $2', [withOrder, '']),
    ).toBe(1);
    expect(await count(w.h, 'cases WHERE code = $1', [alone])).toBe(0);
    expect(await count(w.h, 'shares')).toBe(0);
    expect(await count(w.h, 'reports')).toBe(0);
    expect(await count(w.h, 'order_attachments')).toBe(0);
    expect(await count(w.h, 'exports')).toBe(0);
    expect(await count(w.h, 'blob_deletions')).toBe(0);
    // The storage given back: the clinic keeps the other case's bytes, the laboratory its own start.
    expect(await usedBytes(clinic.organizationId)).toBe(
      startBytes + Number((await call(clinic, 'case/detail', { caseCode: other })).data.size),
    );
    expect(await usedBytes(lab.organizationId)).toBe(labBytes);

    // The clinic no longer finds the cases; the laboratory still reads its order, without the patient.
    expect((await call(clinic, 'case/detail', { caseCode: withOrder })).code).toBe(ERRORS.NOT_FOUND.code);
    const list = await call(clinic, 'case/list', { pageSize: 100 });
    expect(list.data.list.map((c: { caseCode: string }) => c.caseCode)).toEqual([other]);
    const order = await call(lab, 'order/detail', { orderCode });
    expect(order.code).toBe(200);
    expect(JSON.stringify(order.data)).not.toContain(PATIENT);
    // Webhook receivers hear `case.erased` (from the events the erasure recorded).
    expect(await count(w.h, "events WHERE kind = 'case.changed' AND data->>'change' = 'erased'")).toBe(2);

    // The certificate is kept and listed.
    const listed = await call(clinic, 'case/erasure/list', {});
    expect(listed.data.total).toBe(1);
    expect(listed.data.list[0].erasureCode).toBe(certificate.erasureCode);
    const got = await call(clinic, 'case/erasure/get', { erasureCode: certificate.erasureCode });
    expect(got.data).toEqual(certificate);
    expect(JSON.stringify(await w.h.db.query('SELECT * FROM erasures'))).not.toContain(PATIENT);
    // The ledger entry is in the store.
    expect(stored(`erasures/${certificate.erasureCode}.json`)).toBe(true);
  });

  it('is erased again when the database comes back from a backup older than the erasure', async () => {
    const caseCode = await caseWithModel('Bridge 34-36');
    const [row] = await w.h.db.query<{ id: number }>('SELECT id FROM cases WHERE code = $1', [caseCode]);
    const keys = await keysOf(caseCode);
    // The backup: the case's rows as they are now, and its bytes.
    const { readFileSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const bytes = keys.map((k) => readFileSync(join(storeRoot(), k)));
    await w.h.db.query('CREATE TABLE backup_cases AS SELECT * FROM cases WHERE id = $1', [row!.id]);
    await w.h.db.query('CREATE TABLE backup_files AS SELECT * FROM files WHERE case_id = $1', [row!.id]);

    const erased = await erase([caseCode]);
    expect(erased.code).toBe(200);
    expect(await count(w.h, 'cases WHERE id = $1', [row!.id])).toBe(0);

    // The restore: the rows and the bytes come back, and the database knows nothing of the erasure.
    await w.h.db.query('DELETE FROM erasures WHERE code = $1', [erased.data.erasureCode]);
    await w.h.db.query('INSERT INTO cases SELECT * FROM backup_cases');
    await w.h.db.query('INSERT INTO files SELECT * FROM backup_files');
    keys.forEach((k, i) => {
      mkdirSync(dirname(join(storeRoot(), k)), { recursive: true });
      writeFileSync(join(storeRoot(), k), bytes[i]!);
    });
    expect((await call(clinic, 'case/detail', { caseCode })).data.patientName).toBe(PATIENT);

    // What the portal runs at start, before its first answer.
    expect(await w.h.app.housekeeping.run('erasureReplay')).toEqual({ replayed: 1, skipped: 0 });
    expect(await count(w.h, 'cases WHERE id = $1', [row!.id])).toBe(0);
    for (const k of keys) expect(stored(k)).toBe(false);
    expect(await count(w.h, 'erasures WHERE code = $1', [erased.data.erasureCode])).toBe(1);
    // Once known, nothing more to do.
    expect(await w.h.app.housekeeping.run('erasureReplay')).toEqual({ replayed: 0, skipped: 0 });
    await w.h.db.query('DROP TABLE backup_cases');
    await w.h.db.query('DROP TABLE backup_files');
  });

  it('is stopped by a legal hold, which also keeps the case from the recycle bin’s purge', async () => {
    const caseCode = await caseWithModel('Implant 46');
    const keys = await keysOf(caseCode);
    const held = await call(clinic, 'case/legalHold', { caseCode, reason: 'Malpractice claim 2026/88' });
    expect(held.code).toBe(200);
    expect(held.data).toMatchObject({ caseCode, legalHold: { reason: 'Malpractice claim 2026/88' } });
    expect((await call(clinic, 'case/detail', { caseCode })).data.legalHold).toEqual(held.data.legalHold);
    const erasures = await count(w.h, 'erasures');
    const ledger = ledgerEntries();

    const refused = await erase([caseCode]);
    expect([refused.status, refused.code]).toEqual([409, ERRORS.LEGAL_HOLD.code]);
    expect(refused.data).toEqual({ caseCodes: [caseCode] });
    expect(await count(w.h, 'erasures')).toBe(erasures);
    expect(ledgerEntries()).toBe(ledger);
    for (const k of keys) expect(stored(k)).toBe(true);
    expect((await call(clinic, 'case/detail', { caseCode })).data.patientName).toBe(PATIENT);

    // Binned, it is not purged: by name it is refused; the bin emptied whole keeps it.
    expect((await call(clinic, 'case/delete', { caseCodes: [caseCode] })).code).toBe(200);
    expect((await call(clinic, 'case/purge', { caseCodes: [caseCode] })).code).toBe(ERRORS.LEGAL_HOLD.code);
    expect((await call(clinic, 'case/recycleBin/empty', {})).code).toBe(200);
    expect(await count(w.h, 'cases WHERE code = $1 AND purged_at IS NULL', [caseCode])).toBe(1);

    // Released, the erasure goes through (a binned case included).
    const released = await call(clinic, 'case/legalHold/release', { caseCode });
    expect(released.data).toEqual({ caseCode, legalHold: null });
    expect((await erase([caseCode])).code).toBe(200);
    for (const k of keys) expect(stored(k)).toBe(false);
  });

  it('refuses cases of another organization, callers without the right, and bad input, changing nothing', async () => {
    const caseCode = await caseWithModel('Veneers');
    const stranger = await side(w.h, OrgType.Clinic);
    await call(stranger, 'user/checkIdentity', { password: PASSWORD });
    const strangerCase = await newCase(w.h, stranger, 'Theirs', 'Someone Else');
    const before = await count(w.h, 'erasures');

    // Another organization's case, alone or beside one's own: not found, nothing erased.
    expect((await call(stranger, 'case/erase', { caseCodes: [caseCode], reason: 'x' })).code).toBe(
      ERRORS.NOT_FOUND.code,
    );
    expect((await erase([caseCode, strangerCase])).code).toBe(ERRORS.NOT_FOUND.code);
    expect((await call(stranger, 'case/legalHold', { caseCode, reason: 'x' })).code).toBe(ERRORS.NOT_FOUND.code);
    // A member without the right (a clinic's doctor role has cases but not erasure).
    const nurse = await member(w.h, clinic, OrgType.Clinic, ['cases', 'caseDetail', 'cases.edit']);
    expect((await call(nurse, 'case/erase', { caseCodes: [caseCode], reason: 'x' })).code).toBe(
      ERRORS.NO_PERMISSION.code,
    );
    expect((await call(nurse, 'case/erasure/list', {})).code).toBe(ERRORS.NO_PERMISSION.code);
    // A laboratory cannot erase a clinic's patient.
    expect((await call(lab, 'case/erase', { caseCodes: [caseCode], reason: 'x' })).code).toBe(
      ERRORS.NO_PERMISSION.code,
    );
    // Bad input names the field.
    for (const [body, field] of [
      [{ caseCodes: [], reason: 'x' }, 'caseCodes'],
      [{ caseCodes: [caseCode] }, 'reason'],
      [{ caseCodes: [caseCode], reason: '   ' }, 'reason'],
      [{ caseCodes: [caseCode], reason: 'x'.repeat(501) }, 'reason'],
    ] as const) {
      const res = await call(clinic, 'case/erase', body);
      expect([res.status, res.code, res.data?.field]).toEqual([400, ERRORS.PARAM_INVALID.code, field]);
    }
    expect((await call(clinic, 'case/erasure/get', { erasureCode: 'er-none' })).code).toBe(ERRORS.NOT_FOUND.code);
    expect(await count(w.h, 'erasures')).toBe(before);
    expect((await call(clinic, 'case/detail', { caseCode })).data.patientName).toBe(PATIENT);
  });
});
