import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { runScanner } from '../src/scanner/cli.js';
import { ScannerClient } from '../src/scanner/client.js';
import { createHarness, createUser, login, snapshot, type Harness } from './harness.js';
import { binaryStl } from './uploads.js';

let h: Harness;
let base: string;
let oem: string;
let dealer: string;
let dealerCode: string;
let clinic: string;
const dir = mkdtempSync(join(tmpdir(), 'portal-scanner-'));
beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  oem = (await login(h, (await createUser(h.db, { orgType: OrgType.Oem })).account)).accessToken;
  const d = await createUser(h.db, { orgType: OrgType.Dealer });
  dealer = (await login(h, d.account)).accessToken;
  dealerCode = (
    await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [d.organizationId])
  )[0]!.code;
  clinic = (await login(h, (await createUser(h.db)).account)).accessToken;
});
afterAll(() => h.close());

async function importCatalog(token: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${base}/api/v2/equipment/import_product_catalog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await res.json()) as {
    code: number;
    data: { imported: number; errors: Array<{ row: number; reason: string }> };
  };
}

describe('scanners', () => {
  it('imports a catalogue all or nothing, reporting every bad row', async () => {
    const before = await snapshot(h.db);
    const bad = await importCatalog(
      oem,
      Buffer.from(
        'model,serialNumber,activationCode,warrantyDate,limitType\nX1,SN-0001,secret-1,2028-01-01,3\n,SN-0002,secret-2,,\nX1,S!,short,31.12.2028,9\nX1,SN-0001,secret-9,,\n',
      ),
      'c.csv',
    );
    expect(bad.data.imported).toBe(0);
    expect(bad.data.errors.map((e) => e.row)).toEqual([3, 4, 5]);
    expect(bad.data.errors[1]!.reason).toMatch(/serialNumber.*activationCode.*warrantyDate.*limitType/);
    expect(bad.data.errors[2]!.reason).toContain('repeats row 2');
    expect(await snapshot(h.db)).toBe(before);
    expect((await importCatalog(oem, Buffer.from('serial\nx\n'), 'c.csv')).data.errors[0]!.reason).toContain(
      'missing column model',
    );
    expect((await importCatalog(clinic, Buffer.from('x'), 'c.csv')).code).toBe(1002);

    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Catalogue');
    sheet.addRow(['Model', 'Serial Number', 'Activation Code', 'Warranty Date', 'Limit Type']);
    sheet.addRow(['IOS-5', 'SN-1001', 'act-1001-x', '2029-06-30', 3]);
    sheet.addRow(['IOS-5', 'SN-1002', 'act-1002-x', '', 1]);
    const good = await importCatalog(oem, Buffer.from(await wb.xlsx.writeBuffer()), 'c.xlsx');
    expect(good.data).toEqual({ imported: 2, errors: [] });
    const again = await importCatalog(oem, Buffer.from(await wb.xlsx.writeBuffer()), 'c.xlsx');
    expect(again.data.errors[0]!.reason).toContain('already exists');
  });

  it('shows each organization the scanners it makes, sells or owns', async () => {
    expect(
      (await h.call('equipment/assignDealer', { token: oem, body: { serialNumbers: ['SN-1001'], dealerCode } })).data
        .count,
    ).toBe(1);
    expect((await h.call('equipment/listEquipment', { token: oem, body: {} })).data.total).toBe(2);
    const sold = (await h.call('equipment/listEquipment', { token: dealer, body: {} })).data;
    expect(sold.list.map((d: { serialNumber: string }) => d.serialNumber)).toEqual(['SN-1001']);
    expect((await h.call('equipment/listEquipment', { token: clinic, body: {} })).data.total).toBe(0);
    expect(
      (await h.call('equipment/assignDealer', { token: dealer, body: { serialNumbers: ['SN-1002'], dealerCode } }))
        .code,
    ).toBe(1002);
  });

  it('binds a scanner to the clinic that activates it with the right code', async () => {
    expect(
      (
        await h.call('equipment/activate', {
          token: clinic,
          body: { serialNumber: 'SN-1001', activationCode: 'wrong-code' },
        })
      ).code,
    ).toBe(2029);
    const res = await h.call('equipment/activate', {
      token: clinic,
      body: { serialNumber: 'sn-1001', activationCode: 'act-1001-x' },
    });
    expect(res.data).toMatchObject({
      serialNumber: 'SN-1001',
      status: 'Activated',
      warrantyDate: '2029-06-30',
      limitType: 3,
    });
    const otherClinic = (await login(h, (await createUser(h.db)).account)).accessToken;
    expect(
      (
        await h.call('equipment/activate', {
          token: otherClinic,
          body: { serialNumber: 'SN-1001', activationCode: 'act-1001-x' },
        })
      ).code,
    ).toBe(2029);
    expect(
      (await h.call('equipment/editName', { token: clinic, body: { serialNumber: 'SN-1001', name: 'Chair 2' } })).code,
    ).toBe(200);
    expect(
      (await h.call('equipment/editName', { token: otherClinic, body: { serialNumber: 'SN-1001', name: 'Mine' } }))
        .code,
    ).toBe(404);
    expect((await h.call('equipment/listEquipment', { token: clinic, body: {} })).data.list[0].name).toBe('Chair 2');
  });

  it('lets the scanner command activate, upload a case with progress, and complete it', async () => {
    const state = join(dir, 'state.json');
    const upper = join(dir, 'upper.stl');
    const lower = join(dir, 'lower.stl');
    writeFileSync(upper, binaryStl(5000, 1));
    writeFileSync(lower, binaryStl(4000, 2));
    const lines: string[] = [];
    await runScanner(
      ['activate', '--url', base, '--state', state, '--serial', 'SN-1001', '--code', 'act-1001-x'],
      (l) => lines.push(l),
    );
    expect(JSON.parse(readFileSync(state, 'utf8')).deviceToken).toMatch(/^dvc_/);
    await runScanner(['heartbeat', '--state', state, '--battery', '87'], (l) => lines.push(l));
    const caseCode = await runScanner(
      [
        'upload',
        '--state',
        state,
        '--patient',
        'Lena Roth',
        '--patient-id',
        'LR-7',
        '--treatment',
        'Crown',
        '--chunk-mb',
        '0.1',
        upper,
        lower,
      ],
      (l) => lines.push(l),
    );
    expect(lines.some((l) => l.includes('upper.stl') && l.includes('100%'))).toBe(true);
    const detail = (await h.call('case/detail', { token: clinic, body: { caseCode } })).data;
    expect(detail).toMatchObject({
      patientName: 'Lena Roth',
      patientId: 'LR-7',
      status: 'uploaded',
      deviceSerial: 'SN-1001',
      treatments: ['Crown'],
    });
    expect(detail.files.map((f: { jaw: string }) => f.jaw).sort()).toEqual(['lower', 'upper']);
    const device = (await h.call('equipment/listEquipment', { token: clinic, body: {} })).data.list[0];
    expect(device).toMatchObject({ status: 'DataTransferred', batteryHealth: 87 });
  });

  it('resumes an interrupted upload where it stopped', async () => {
    const state = join(dir, 'state.json');
    const token = JSON.parse(readFileSync(state, 'utf8')).deviceToken as string;
    const client = new ScannerClient(base, token);
    const { caseCode } = await client.createCase({ name: 'Resume', patientName: 'Tom Vogt' });
    const big = join(dir, 'bite.stl');
    writeFileSync(big, binaryStl(20_000, 3)); // ~1 MB in 100 KB chunks
    const abort = new AbortController();
    let sentBeforeAbort = 0;
    await expect(
      client.upload(
        big,
        { caseCode },
        {
          stateFile: join(dir, 'uploads.json'),
          chunkSize: 100_000,
          signal: abort.signal,
          onProgress: (sent) => {
            sentBeforeAbort = sent;
            if (sent >= 300_000) abort.abort();
          },
        },
      ),
    ).rejects.toThrow('interrupted');
    const [pending] = await h.db.query<{ id: string }>('SELECT id FROM uploads');
    expect(pending).toBeTruthy();
    let firstProgress = -1;
    await client.upload(
      big,
      { caseCode },
      {
        stateFile: join(dir, 'uploads.json'),
        chunkSize: 100_000,
        onProgress: (sent) => {
          if (firstProgress < 0) firstProgress = sent;
        },
      },
    );
    // The second run started from the server's offset, not from zero, and finished the same upload.
    expect(firstProgress).toBeGreaterThan(0);
    expect(sentBeforeAbort).toBeGreaterThanOrEqual(300_000);
    const files = (await h.call('case/detail', { token: clinic, body: { caseCode } })).data.files;
    expect(files).toHaveLength(1);
    const [row] = await h.db.query<{ storage_key: string }>('SELECT storage_key FROM files WHERE code = $1', [
      files[0].fileCode,
    ]);
    expect(row!.storage_key).toBe(`uploads/${pending!.id}`);
  });

  it('refuses device calls without a valid device token', async () => {
    const res = await fetch(`${base}/api/v2/device/case/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer dvc_nope' },
      body: '{"name":"x","patientName":"y"}',
    });
    expect((await res.json()).code).toBe(401);
    expect(
      (await h.call('device/activate', { body: { serialNumber: 'SN-1002', activationCode: 'act-1002-x' } })).code,
    ).toBe(2029); // not bound to a clinic yet
  });
});
