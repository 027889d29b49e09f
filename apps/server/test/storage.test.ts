import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStore, readAll, type BlobStore } from '../src/platform/storage.js';
import { S3BlobStore } from '../src/platform/storage-s3.js';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { startS3 } from './s3.js';
import { binaryStl, PNG, tusRefusal, tusUpload } from './uploads.js';

let s3: Awaited<ReturnType<typeof startS3>>;
const localRoot = mkdtempSync(join(tmpdir(), 'portal-store-'));
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3.stop();
  rmSync(localRoot, { recursive: true, force: true });
});

const stores: Array<[string, () => BlobStore]> = [
  ['local folder', () => new LocalStore(localRoot)],
  [
    'S3-compatible',
    () =>
      new S3BlobStore({
        bucket: s3.env.S3_BUCKET,
        endpoint: s3.env.S3_ENDPOINT,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      }),
  ],
];

/** The same suite for both implementations. */
describe.each(stores)('blob store: %s', (_name, make) => {
  it('writes, reads whole and by range, sizes and deletes', async () => {
    const store = make();
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    expect(await store.write('exports/test.zip', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]))).toBe(
      bytes.length,
    );
    expect(await store.size('exports/test.zip')).toBe(bytes.length);
    expect(Buffer.compare(await readAll(await store.read('exports/test.zip')), bytes)).toBe(0);
    expect(
      Buffer.compare(
        await readAll(await store.read('exports/test.zip', { start: 10, end: 19 })),
        bytes.subarray(10, 20),
      ),
    ).toBe(0);
    await store.delete('exports/test.zip');
    expect(await store.size('exports/test.zip')).toBeNull();
  });

  it('lists a listed folder in name order, the erasure ledger (none before the first entry)', async () => {
    const store = make();
    const before = await store.list('erasures');
    const names = [`b${Date.now()}`, `a${Date.now()}`];
    for (const n of names) await store.write(`erasures/${n}.json`, Readable.from([Buffer.from('{}')]));
    await store.write('exports/beside.zip', Readable.from([Buffer.from('x')]));
    const listed = await store.list('erasures');
    expect(listed.filter((k) => !before.includes(k))).toEqual(names.map((n) => `erasures/${n}.json`).sort());
    for (const n of names) await store.delete(`erasures/${n}.json`);
    await store.delete('exports/beside.zip');
    expect(await store.list('erasures')).toEqual(before);
  });

  it('lists every key it holds with its size, for backups: uploads under uploads/, nothing from outside its folders', async () => {
    const store = make();
    const stamp = Date.now().toString(36);
    const wanted = { [`uploads/up${stamp}`]: 1234, [`viewer/v${stamp}.mesh`]: 56, [`erasures/e${stamp}.json`]: 7 };
    for (const [key, size] of Object.entries(wanted)) await store.write(key, Readable.from([Buffer.alloc(size, 1)]));
    if (store.kind === 's3') {
      // Someone else's object in the bucket is not the portal's.
      const { PutObjectCommand } = await import('@aws-sdk/client-s3');
      await new S3Client({
        endpoint: s3.env.S3_ENDPOINT,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }).send(new PutObjectCommand({ Bucket: s3.env.S3_BUCKET, Key: `stray/${stamp}`, Body: 'x' }));
    }
    const listed = new Map<string, number>();
    for await (const { key, size } of store.listAll()) listed.set(key, size);
    for (const [key, size] of Object.entries(wanted)) expect(listed.get(key), key).toBe(size);
    expect([...listed.keys()].filter((k) => k.includes('stray'))).toEqual([]);
    for (const key of Object.keys(wanted)) await store.delete(key);
  });

  it('refuses keys that could escape the store', async () => {
    const store = make();
    for (const key of ['../etc/passwd', 'uploads/../../x', '/abs', 'other/x', 'uploads/a/b']) {
      await expect(store.write(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/invalid storage key/);
    }
  });

  it('signs direct downloads where the store can', async () => {
    const store = make();
    await store.write('viewer/signed.mesh', Readable.from([Buffer.from('hello')]));
    const url = await store.presignedGet('viewer/signed.mesh', 'scan.mesh', 60);
    if (store.kind === 's3') {
      expect(url).toMatch(/X-Amz-Signature=/);
      const res = await fetch(url!);
      expect(await res.text()).toBe('hello');
    } else {
      expect(url).toBeNull(); // the portal signs its own route instead
    }
  });
});

describe('uploads end to end on the S3-compatible store', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ ...s3.env, UPLOAD_MAX_MB: '20' });
  });
  afterAll(() => h.close());

  it('stores an upload in the bucket, serves it by a pre-signed link, refuses a mislabelled one, and deletes on purge', async () => {
    const base = await h.listen();
    const token = (await login(h, (await createUser(h.db)).account)).accessToken;
    const caseCode = (await h.call('case/create', { token, body: { name: 'S3', patientName: 'Ola' } })).data.caseCode;
    const stl = binaryStl(200_000); // 10 MB: two parts of the multipart upload
    await tusUpload(base, token, stl, { caseCode, filename: 'lower.stl' }, 8 * 1024 * 1024);
    const file = (await h.call('case/detail', { token, body: { caseCode } })).data.files[0];
    expect(file.size).toBe(stl.length);
    const grant = (await h.call('file/downloadGrant', { token, body: { fileCode: file.fileCode } })).data;
    expect(grant.url).toContain(s3.env.S3_ENDPOINT);
    const body = Buffer.from(await (await fetch(grant.url)).arrayBuffer());
    expect(Buffer.compare(body, stl)).toBe(0);
    // Refused from its first bytes, it leaves nothing in the bucket (objects, or an open multipart upload).
    const client = new S3Client({
      endpoint: s3.env.S3_ENDPOINT,
      region: s3.env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const objects = async () =>
      ((await client.send(new ListObjectsV2Command({ Bucket: s3.env.S3_BUCKET }))).Contents ?? []).map((o) => o.Key);
    const before = await objects();
    const wrong = Buffer.alloc(9 * 1024 * 1024);
    PNG.copy(wrong);
    await expect(tusUpload(base, token, PNG, { caseCode, filename: 'x.ply' })).rejects.toSatisfy(
      (e) => tusRefusal(e).code === 2026,
    );
    await expect(tusUpload(base, token, wrong, { caseCode, filename: 'y.stl' }, 9 * 1024 * 1024)).rejects.toSatisfy(
      (e) => tusRefusal(e).code === 2026,
    );
    expect(await objects()).toEqual(before);
    expect(await h.db.query('SELECT id FROM uploads')).toEqual([]);
    client.destroy();
    await h.call('case/delete', { token, body: { caseCodes: [caseCode] } });
    await h.call('case/purge', { token, body: { caseCodes: [caseCode] } });
    expect((await fetch(grant.url)).status).toBe(404);
  });
});
