import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Upload } from '@tus/server';
import { ERRORS, OrgType } from '@portal/contracts';
import { newCode } from '../../src/platform/crypto.js';
import type { Uploader } from '../../src/modules/files/uploads.service.js';
import { binaryStl } from '../uploads.js';
import { actor, caseOf, newCase, refused, serviceWorld, type ServiceWorld } from './kit.js';

/**
 * UploadsService's rules without the tus protocol: creating an upload reserves its bytes against the organization's
 * quota and counts against the case's limit of files; finishing it makes the file (or finds the same bytes already in
 * the case), moves the bytes from reserved to used and the case's totals and status with them.
 */
const QUOTA_GB = 0.001;
const QUOTA = Math.round(QUOTA_GB * 1024 ** 3);
const MAX_FILES = 3;

let w: ServiceWorld;
let clinic: Awaited<ReturnType<typeof actor>>;
let uploader: Uploader;

beforeAll(async () => {
  w = await serviceWorld({ STORAGE_QUOTA_GB: String(QUOTA_GB), UPLOAD_MAX_FILES_PER_CASE: String(MAX_FILES) });
  clinic = await actor(w.db, OrgType.Clinic);
  uploader = { organizationId: clinic.organizationId, userId: clinic.userId, deviceId: null };
});
afterAll(() => w.close());

function reserve(caseCode: string, size: number, filename = 'upper.stl', who: Uploader = uploader) {
  const id = newCode('up');
  return w.uploads
    .reserve(who, { id, size, metadata: { filename, caseCode, jaw: 'upper' }, createdAt: new Date() })
    .then((name) => ({ id, name }));
}

/** The upload's bytes arrive in the store, and tus tells the service it is whole. */
async function finish(id: string, bytes: Buffer) {
  await w.store.write(w.store.uploadKey(id), Readable.from([bytes]));
  const upload = new Upload({ id, size: bytes.length, offset: bytes.length, metadata: {}, creation_date: undefined });
  return w.uploads.complete(upload, 'en');
}

async function reserved(orgId = clinic.organizationId) {
  const [row] = await w.db.query<{ n: number; bytes: string }>(
    'SELECT count(*)::int AS n, COALESCE(sum(size), 0) AS bytes FROM uploads WHERE organization_id = $1',
    [orgId],
  );
  return { count: row!.n, bytes: Number(row!.bytes) };
}

/** A refusal tus answers as it is: the catalogue's body with its HTTP status. */
async function tusRefusal(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => undefined,
    (e: unknown) => e as { status_code: number; body: string },
  );
  expect(thrown?.body, 'a tus error body').toBeTypeOf('string');
  return { status: thrown!.status_code, code: (JSON.parse(thrown!.body) as { code: number }).code };
}

describe('the storage quota', () => {
  it('counts unfinished uploads as reserved, so two cannot both squeeze in; a discarded one gives its bytes back', async () => {
    const org = await actor(w.db, OrgType.Clinic);
    const who = { organizationId: org.organizationId, userId: org.userId, deviceId: null };
    const c = await newCase(w, org);
    const half = Math.floor(QUOTA * 0.6);
    const first = await reserve(c.code, half, 'a.stl', who);
    expect(await reserved(org.organizationId)).toEqual({ count: 1, bytes: half });
    await refused(reserve(c.code, half, 'b.stl', who), 'INSUFFICIENT_STORAGE');
    expect(await reserved(org.organizationId)).toEqual({ count: 1, bytes: half });
    await w.uploads.discard(first.id);
    expect(await reserved(org.organizationId)).toEqual({ count: 0, bytes: 0 });
    await reserve(c.code, half, 'b.stl', who);
    // Exactly the quota is allowed, a byte more is not.
    const d = await newCase(w, org);
    await refused(reserve(d.code, QUOTA - half + 1, 'c.stl', who), 'INSUFFICIENT_STORAGE');
    await reserve(d.code, QUOTA - half, 'c.stl', who);
  });

  it('moves a finished upload’s bytes from reserved to used, and a deleted file gives them back', async () => {
    const c = await newCase(w, clinic);
    const before = await w.files.usage(clinic.organizationId);
    const bytes = binaryStl(200, 7);
    const up = await reserve(c.code, bytes.length);
    expect((await w.files.usage(clinic.organizationId)).usedBytes).toBe(before.usedBytes);
    await finish(up.id, bytes);
    expect(await reserved()).toEqual({ count: 0, bytes: 0 });
    const after = await w.files.usage(clinic.organizationId);
    expect(after.usedBytes).toBe(before.usedBytes + bytes.length);
    expect(after.quotaBytes).toBe(QUOTA);
    const detail = await caseOf(w, clinic.organizationId, c.code);
    expect(detail).toMatchObject({ fileCount: 1, size: bytes.length });
    expect(detail.files).toEqual([expect.objectContaining({ name: 'upper.stl', size: bytes.length, jaw: 'upper' })]);
    await w.files.delete(clinic.organizationId, detail.files[0]!.fileCode);
    expect((await w.files.usage(clinic.organizationId)).usedBytes).toBe(before.usedBytes);
    expect(await caseOf(w, clinic.organizationId, c.code)).toMatchObject({ fileCount: 0, size: 0, files: [] });
  });

  it('keeps the same bytes once per case: a second identical upload becomes the first file', async () => {
    const c = await newCase(w, clinic);
    const used = (await w.files.usage(clinic.organizationId)).usedBytes;
    const bytes = binaryStl(120, 3);
    const [a, b] = [await reserve(c.code, bytes.length), await reserve(c.code, bytes.length)];
    await finish(a.id, bytes);
    await finish(b.id, bytes);
    expect(await reserved()).toEqual({ count: 0, bytes: 0 });
    expect((await w.files.usage(clinic.organizationId)).usedBytes).toBe(used + bytes.length);
    expect(await caseOf(w, clinic.organizationId, c.code)).toMatchObject({ fileCount: 1, size: bytes.length });
    // Told again that the upload finished (a client that lost the answer): the same success, nothing twice.
    await expect(finish(b.id, bytes)).resolves.toEqual({});
    expect((await caseOf(w, clinic.organizationId, c.code)).fileCount).toBe(1);
  });

  it('refuses content that is not what its name says, and drops the reservation', async () => {
    const c = await newCase(w, clinic);
    const junk = Buffer.alloc(4000, 0x41);
    const up = await reserve(c.code, junk.length);
    expect(await tusRefusal(finish(up.id, junk))).toEqual({
      status: ERRORS.FILE_CONTENT_MISMATCH.status,
      code: ERRORS.FILE_CONTENT_MISMATCH.code,
    });
    expect(await reserved()).toEqual({ count: 0, bytes: 0 });
    expect(await caseOf(w, clinic.organizationId, c.code)).toMatchObject({ fileCount: 0, size: 0 });
  });
});

describe('the files of a case', () => {
  it(`counts files and unfinished uploads together against the limit (${MAX_FILES} here)`, async () => {
    const c = await newCase(w, clinic);
    const bytes = binaryStl(50, 11);
    const first = await reserve(c.code, bytes.length);
    await finish(first.id, bytes);
    const second = await reserve(c.code, 1000, 'lower.stl');
    await reserve(c.code, 1000, 'bite.stl');
    const err = await refused(reserve(c.code, 1000, 'extra.stl'), 'TOO_MANY_FILES');
    expect(err.params).toEqual({ count: MAX_FILES });
    // Another case has its own limit; an upload given up frees its place.
    await reserve((await newCase(w, clinic)).code, 1000);
    await w.uploads.discard(second.id);
    await reserve(c.code, 1000, 'extra.stl');
    await refused(reserve(c.code, 1000, 'more.stl'), 'TOO_MANY_FILES');
  });

  it('moves a registered case to be progressed at its first upload, and to uploaded when the last one finishes', async () => {
    const c = await newCase(w, clinic);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('registered');
    const [upper, lower] = [binaryStl(60, 21), binaryStl(60, 22)];
    const a = await reserve(c.code, upper.length, 'upper.stl');
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('toBeProgressed');
    const b = await reserve(c.code, lower.length, 'lower.stl');
    await finish(a.id, upper);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('toBeProgressed');
    await finish(b.id, lower);
    expect(await caseOf(w, clinic.organizationId, c.code)).toMatchObject({
      status: 'uploaded',
      fileCount: 2,
      size: upper.length + lower.length,
    });
  });

  it('takes uploads only to a live case of the uploader’s organization, the granted one, in an accepted format', async () => {
    const before = await reserved();
    const other = await actor(w.db, OrgType.Clinic);
    const theirs = await newCase(w, other);
    await refused(reserve(theirs.code, 1000), 'NOT_FOUND');
    await refused(reserve('c_unknown', 1000), 'NOT_FOUND');
    const binned = await newCase(w, clinic);
    await w.cases.moveToBin(clinic.organizationId, [binned.code]);
    await refused(reserve(binned.code, 1000), 'NOT_FOUND');
    const granted = await newCase(w, clinic);
    const mine = await newCase(w, clinic);
    await refused(reserve(mine.code, 1000, 'upper.stl', { ...uploader, onlyCase: granted.code }), 'NOT_FOUND');
    await refused(reserve(mine.code, 1000, 'notes.exe'), 'FILE_FORMAT_NOT_ACCEPTED');
    await refused(reserve(mine.code, 1000, '   '), 'PARAM_INVALID');
    await refused(reserve(mine.code, 0), 'PARAM_INVALID');
    expect(await reserved()).toEqual(before);
    expect((await caseOf(w, clinic.organizationId, mine.code)).status).toBe('registered');
    const ok = await reserve(granted.code, 1000, ' scan .stl', { ...uploader, onlyCase: granted.code });
    expect(ok.name).toBe('scan .stl');
  });
});
