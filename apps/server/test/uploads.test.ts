import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { binaryStl, PNG, tusRefusal, tusUpload } from './uploads.js';

let h: Harness;
let base: string;
let token: string;
let orgId: number;
let other: string;
beforeAll(async () => {
  // A quota of 2 MiB and files of at most 1 MiB make the limits easy to reach.
  h = await createHarness({ STORAGE_QUOTA_GB: String(2 / 1024), UPLOAD_MAX_MB: '1', UPLOAD_MAX_FILES_PER_CASE: '5' });
  base = await h.listen();
  const u = await createUser(h.db);
  orgId = u.organizationId;
  token = (await login(h, u.account)).accessToken;
  other = (await login(h, (await createUser(h.db, { orgType: OrgType.Lab })).account)).accessToken;
});
afterAll(() => h.close());

const newCase = async () =>
  (await h.call('case/create', { token, body: { name: 'Scan', patientName: 'Jon Berg' } })).data.caseCode as string;
/** The bytes the organization uses, as accounted and as the file rows add up: they must agree. */
async function usage() {
  const [row] = await h.db.query<{ used: string; actual: string; reserved: string }>(
    `SELECT COALESCE((SELECT used_bytes FROM storage_accounts WHERE organization_id = $1), 0) AS used,
            COALESCE((SELECT sum(size) FROM files WHERE organization_id = $1), 0) AS actual,
            COALESCE((SELECT sum(size) FROM uploads WHERE organization_id = $1), 0) AS reserved`,
    [orgId],
  );
  expect(Number(row!.used)).toBe(Number(row!.actual));
  // Each case's own totals agree with its files too.
  const drift = await h.db.query(
    `SELECT c.id FROM cases c LEFT JOIN (SELECT case_id, count(*) AS n, sum(size) AS bytes FROM files GROUP BY case_id) f ON f.case_id = c.id
      WHERE c.organization_id = $1 AND (c.file_count <> COALESCE(f.n, 0) OR c.file_bytes <> COALESCE(f.bytes, 0))`,
    [orgId],
  );
  expect(drift).toEqual([]);
  return { used: Number(row!.used), reserved: Number(row!.reserved) };
}
const storedUploads = () => {
  const dir = join(h.config.dataDir, 'files', 'uploads');
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.json')) : [];
};

describe('uploads', () => {
  it('takes a model resumably, checks it, accounts for it, and serves it back by a signed link', async () => {
    const caseCode = await newCase();
    const stl = binaryStl(4000); // ~200 KB
    await tusUpload(base, token, stl, { caseCode, filename: 'C:\\scans\\upper.stl', jaw: 'upper' }, 64 * 1024);
    const detail = (await h.call('case/detail', { token, body: { caseCode } })).data;
    expect(detail.status).toBe('uploaded');
    expect(detail.files).toHaveLength(1);
    expect(detail.files[0]).toMatchObject({
      name: 'upper.stl',
      format: 'stl',
      kind: 'model',
      jaw: 'upper',
      size: stl.length,
      uploadTag: 'finished',
      viewerStatus: 'pending',
    });
    expect((await usage()).used).toBe(stl.length);

    const grant = (await h.call('file/downloadGrant', { token, body: { fileCode: detail.files[0].fileCode } })).data;
    const path = new URL(grant.url).pathname + new URL(grant.url).search;
    const got = await h.app.inject({ url: path });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-disposition']).toContain("attachment; filename*=UTF-8''upper.stl");
    expect(Buffer.compare(got.rawPayload, stl)).toBe(0);
    const ranged = await h.app.inject({ url: path, headers: { range: 'bytes=80-83' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.readUInt32LE(0)).toBe(4000);
    // The viewer version is not ready yet: 2007, and the viewer falls back to the original.
    const viewer = await h.app.inject({ url: new URL(grant.viewerUrl).pathname + new URL(grant.viewerUrl).search });
    expect(viewer.json().code).toBe(2007);
    // Tampered or expired links are refused.
    expect(
      (await h.app.inject({ url: path.replace(/sig=[^&]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') })).json()
        .code,
    ).toBe(2021);
    const expired = path.replace(/exp=\d+/, `exp=${Math.floor(Date.now() / 1000) - 10}`);
    expect((await h.app.inject({ url: expired })).json().code).toBe(2021);
    // Another organization gets no grant.
    expect(
      (await h.call('file/downloadGrant', { token: other, body: { fileCode: detail.files[0].fileCode } })).code,
    ).toBe(404);
    expect((await h.call('file/delete', { token: other, body: { fileCode: detail.files[0].fileCode } })).code).toBe(
      404,
    );
  });

  it('refuses mislabelled, unaccepted, oversized and over-quota files, leaving nothing behind', async () => {
    const caseCode = await newCase();
    const before = await usage();
    const filesBefore = storedUploads().length;
    const refusal = async (bytes: Buffer, filename: string) => {
      try {
        await tusUpload(base, token, bytes, { caseCode, filename });
      } catch (err) {
        return tusRefusal(err);
      }
      throw new Error(`${filename} was accepted`);
    };
    const mislabelled = await refusal(PNG, 'lower.stl');
    expect([mislabelled.status, mislabelled.code]).toEqual([415, 2026]);
    const exe = await refusal(Buffer.from('MZ'), 'setup.exe');
    expect([exe.status, exe.code]).toEqual([415, 2024]);
    expect(exe.msg).toContain('stl');
    const big = await refusal(binaryStl(22_000), 'big.stl'); // 1.05 MiB > 1 MiB
    expect([big.status, big.code]).toEqual([413, 2025]);
    expect(big.msg).toContain('1 MB');
    const truncated = binaryStl(1000).subarray(0, 30_000);
    expect((await refusal(Buffer.from(truncated), 'cut.stl')).code).toBe(2026);
    // 2 MiB quota: fill most of it, then one more does not fit (different bytes: the same twice is one file).
    await tusUpload(base, token, binaryStl(16_000, 1), { caseCode, filename: 'a.stl' });
    await tusUpload(base, token, binaryStl(16_000, 2), { caseCode, filename: 'b.stl' });
    const over = await refusal(binaryStl(16_000, 3), 'c.stl');
    expect([over.status, over.code, over.msg]).toEqual([507, 2022, 'Insufficient storage space. Free up some space.']);
    const after = await usage();
    expect(after.used - before.used).toBe(2 * binaryStl(16_000).length);
    expect(after.reserved).toBe(0);
    expect(storedUploads().length - filesBefore).toBe(2);
    const refusedWithoutCase = await refusal(PNG, 'x.png').catch(() => null);
    void refusedWithoutCase;
  });

  it('refuses uploads to cases of other organizations and unknown cases', async () => {
    const caseCode = await newCase();
    await expect(tusUpload(base, other, binaryStl(10), { caseCode, filename: 'x.stl' })).rejects.toSatisfy(
      (e) => tusRefusal(e).code === 404,
    );
    await expect(tusUpload(base, token, binaryStl(10), { caseCode: 'nope', filename: 'x.stl' })).rejects.toSatisfy(
      (e) => tusRefusal(e).code === 404,
    );
    await expect(tusUpload(base, 'garbage', binaryStl(10), { caseCode, filename: 'x.stl' })).rejects.toSatisfy(
      (e) => tusRefusal(e).status === 401,
    );
  });

  it('resumes an interrupted upload from its offset; another organization cannot touch it', async () => {
    const caseCode = await newCase();
    const stl = binaryStl(2000);
    const meta = (o: Record<string, string>) =>
      Object.entries(o)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(',');
    const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
    const created = await fetch(`${base}/api/v2/files/tus`, {
      method: 'POST',
      headers: {
        ...headers,
        'upload-length': String(stl.length),
        'upload-metadata': meta({ caseCode, filename: 'resume.stl' }),
      },
    });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location')!, base).toString();
    const patch = (from: number, to: number, auth = headers) =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': String(from), 'content-type': 'application/offset+octet-stream' },
        body: stl.subarray(from, to),
      });
    expect((await patch(0, 40_000)).status).toBe(204);
    // The connection drops; the client asks where to go on.
    const head = await fetch(url, { method: 'HEAD', headers });
    expect(head.headers.get('upload-offset')).toBe('40000');
    expect((await usage()).reserved).toBe(stl.length);
    const stranger = { 'tus-resumable': '1.0.0', authorization: `Bearer ${other}` };
    expect((await fetch(url, { method: 'HEAD', headers: stranger })).status).toBe(404);
    expect((await patch(40_000, stl.length, stranger)).status).toBe(404);
    expect((await patch(40_000, stl.length)).status).toBe(204);
    const detail = (await h.call('case/detail', { token, body: { caseCode } })).data;
    expect(detail.files[0]).toMatchObject({ name: 'resume.stl', size: stl.length });
    expect((await usage()).reserved).toBe(0);
  });

  it('keeps usage exact through file deletion, the recycle bin and purging', async () => {
    const caseCode = await newCase();
    const start = (await usage()).used;
    await tusUpload(base, token, binaryStl(1000), { caseCode, filename: 'one.stl' });
    await tusUpload(base, token, PNG, { caseCode, filename: 'photo.png' });
    const files = (await h.call('case/detail', { token, body: { caseCode } })).data.files;
    expect((await usage()).used).toBe(start + binaryStl(1000).length + PNG.length);
    const png = files.find((f: { format: string }) => f.format === 'png');
    expect((await h.call('file/delete', { token, body: { fileCode: png.fileCode } })).code).toBe(200);
    expect((await usage()).used).toBe(start + binaryStl(1000).length);
    await h.call('case/delete', { token, body: { caseCodes: [caseCode] } });
    expect((await usage()).used).toBe(start + binaryStl(1000).length); // the bin still holds it
    const storage = (await h.call('storage/usage', { token })).data;
    expect(storage.recycleBinBytes).toBeGreaterThanOrEqual(binaryStl(1000).length);
    await h.call('case/restore', { token, body: { caseCodes: [caseCode] } });
    await h.call('case/delete', { token, body: { caseCodes: [caseCode] } });
    const storedBefore = storedUploads().length;
    await h.call('case/purge', { token, body: { caseCodes: [caseCode] } });
    expect((await usage()).used).toBe(start);
    expect(storedUploads().length).toBe(storedBefore - 1);
  });

  it('issues temporary upload credentials for one case (oss/ossSts) and a blob token for downloads', async () => {
    const caseCode = await newCase();
    const otherCase = await newCase();
    const sts = await h.call(`oss/ossSts?caseCode=${caseCode}`, { method: 'GET', token });
    expect(sts.data.endpoint).toBe('http://portal.test/api/v2/files/tus');
    expect(sts.data.token).toMatch(/^upl_/);
    await tusUpload(base, sts.data.token, PNG, { caseCode, filename: 'sts.png' });
    await expect(tusUpload(base, sts.data.token, PNG, { caseCode: otherCase, filename: 'x.png' })).rejects.toSatisfy(
      (e) => tusRefusal(e).code === 404,
    );
    await expect(
      tusUpload(base, `${sts.data.token.slice(0, -3)}AAA`, PNG, { caseCode, filename: 'x.png' }),
    ).rejects.toSatisfy((e) => tusRefusal(e).status === 401);
    expect((await h.call(`oss/ossSts?caseCode=${caseCode}`, { method: 'GET', token: other })).code).toBe(404);
    const file = (await h.call('case/detail', { token, body: { caseCode } })).data.files[0];
    const blob = await h.call(`oss/blobToken?fileCode=${file.fileCode}`, { method: 'GET', token });
    expect(blob.data.url).toContain(`/api/v2/file/download/${file.fileCode}?`);
    expect((await h.call(`oss/blobToken?fileCode=${file.fileCode}`, { method: 'GET', token: other })).code).toBe(404);
  });

  it('reports storage by kind with the largest cases and files', async () => {
    const res = await h.call('storage/usage', { token });
    expect(res.data.quotaBytes).toBe(2 * 1024 * 1024);
    expect(res.data.usedBytes).toBe((await usage()).used);
    expect(res.data.byKind.find((k: { kind: string }) => k.kind === 'model').count).toBeGreaterThan(0);
    expect(res.data.largestFiles.length).toBeGreaterThan(0);
    expect(res.data.largestCases[0].size).toBeGreaterThanOrEqual(res.data.largestCases.at(-1).size);
  });
});
