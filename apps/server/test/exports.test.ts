import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipEntries } from './zip.js';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { binaryStl, PNG, tusUpload } from './uploads.js';

let h: Harness;
let base: string;
let token: string;
let other: string;
beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  token = (await login(h, (await createUser(h.db)).account)).accessToken;
  other = (await login(h, (await createUser(h.db, { orgType: OrgType.Lab })).account)).accessToken;
});
afterAll(() => h.close());

/** How each entry was packed: 0 stored, 8 deflated. */
const methods = new Map<string, number>();
async function zipEntries(buf: Buffer): Promise<Map<string, Buffer>> {
  const entries = await unzipEntries(buf);
  for (const [name, e] of entries) methods.set(name, e.method);
  return new Map([...entries].map(([name, e]) => [name, e.bytes]));
}

async function caseWith(name: string, files: Array<[Buffer, string]>) {
  const caseCode = (
    await h.call('case/create', { token, body: { name, patientName: 'Eva Lind', treatments: ['Crown'] } })
  ).data.caseCode as string;
  for (const [bytes, filename] of files) await tusUpload(base, token, bytes, { caseCode, filename });
  return caseCode;
}

describe('exports', () => {
  it('packs one folder per case with a summary and the chosen types, and streams the zip', async () => {
    const upper = binaryStl(3000, 1);
    const lower = binaryStl(2000, 2);
    const a = await caseWith('Upper crown', [
      [upper, 'upper.stl'],
      [PNG, 'photo.png'],
    ]);
    const b = await caseWith('Lower crown', [[lower, 'lower.stl']]);
    const created = await h.call('export/create', { token, body: { caseCodes: [a, b], types: ['stl', 'png'] } });
    expect(created.data).toMatchObject({ status: 0, progress: 0, downloadUrl: null });
    await h.app.platform.jobs.drain();
    const status = (await h.call('export/status', { token, body: { exportCode: created.data.exportCode } })).data;
    expect(status).toMatchObject({ status: 1, progress: 100 });
    const url = new URL(status.downloadUrl);
    const res = await fetch(`${base}${url.pathname}${url.search}`);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const entries = await zipEntries(Buffer.from(await res.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual([
      'Eva Lind - Lower crown/case.txt',
      'Eva Lind - Lower crown/lower.stl',
      'Eva Lind - Upper crown/case.txt',
      'Eva Lind - Upper crown/photo.png',
      'Eva Lind - Upper crown/upper.stl',
    ]);
    // Scans are deflated; an image, compressed already, is stored as it is.
    expect([methods.get('Eva Lind - Upper crown/upper.stl'), methods.get('Eva Lind - Upper crown/photo.png')]).toEqual([
      8, 0,
    ]);
    expect(Buffer.compare(entries.get('Eva Lind - Upper crown/photo.png')!, PNG)).toBe(0);
    expect(Buffer.compare(entries.get('Eva Lind - Upper crown/upper.stl')!, upper)).toBe(0);
    expect(entries.get('Eva Lind - Upper crown/case.txt')!.toString()).toContain('Patient: Eva Lind');
    // The link is signed: tampering is refused.
    expect(
      (await (await fetch(`${base}${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${'A'.repeat(43)}`)).json())
        .code,
    ).toBe(2021);
  });

  it('answers no file (3) and no required file (4)', async () => {
    const empty = await caseWith('Nothing yet', []);
    const photos = await caseWith('Photos only', [[PNG, 'smile.png']]);
    const e1 = (await h.call('export/create', { token, body: { caseCodes: [empty], types: ['stl'] } })).data.exportCode;
    const e2 = (await h.call('export/create', { token, body: { caseCodes: photos, types: 'stl,ply' } })).data
      .exportCode;
    await h.app.platform.jobs.drain();
    expect((await h.call('export/status', { token, body: { exportCode: e1 } })).data.status).toBe(3);
    expect((await h.call('export/status', { token, body: { exportCode: e2 } })).data.status).toBe(4);
  });

  it("exports nothing of another organization's cases", async () => {
    const mine = await caseWith('Private', [[PNG, 'p.png']]);
    expect((await h.call('export/create', { token: other, body: { caseCodes: [mine], types: ['png'] } })).code).toBe(
      404,
    );
    const e = (await h.call('export/create', { token, body: { caseCodes: [mine], types: ['png'] } })).data.exportCode;
    expect((await h.call('export/status', { token: other, body: { exportCode: e } })).code).toBe(404);
    expect((await h.call('export/create', { token, body: { caseCodes: [mine], types: ['exe'] } })).data.field).toMatch(
      /^types/,
    );
    expect((await h.call('export/create', { token, body: { caseCodes: [], types: ['png'] } })).data.field).toBe(
      'caseCodes',
    );
  });
});
