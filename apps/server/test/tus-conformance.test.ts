import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultHttpStack, Upload, type HttpRequest, type HttpStack, type UploadOptions } from 'tus-js-client';
import { buildApp } from '../src/app.js';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { startS3 } from './s3.js';
import { binaryStl, tusRefusal } from './uploads.js';

/**
 * tus 1.0 as a third-party uploader sees it, driven by the official client (tus-js-client) where it can and by
 * plain requests where it cannot (checksums, headers), on both stores.
 */
let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.stop());

const MAX_MB = 8;
const DAY_MS = 24 * 3_600_000;
const sha = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('base64');
const metadataHeader = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

describe.each([
  ['local folder', () => ({})],
  ['S3-compatible', () => s3.env],
])('tus 1.0 on the %s store', (_name, storeEnv) => {
  let h: Harness;
  let base: string;
  let endpoint: string;
  let token: string;
  let orgId: number;
  let other: string;
  beforeAll(async () => {
    h = await createHarness({ ...storeEnv(), UPLOAD_MAX_MB: String(MAX_MB) });
    base = await h.listen();
    endpoint = `${base}/api/v2/files/tus`;
    const u = await createUser(h.db);
    orgId = u.organizationId;
    token = (await login(h, u.account)).accessToken;
    other = (await login(h, (await createUser(h.db)).account)).accessToken;
  });
  afterAll(() => h.close());

  const auth = () => ({ 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` });
  const newCase = async () =>
    (await h.call('case/create', { token, body: { name: 'Scan', patientName: 'Ida Lund' } })).data.caseCode as string;
  const filesOf = async (caseCode: string) =>
    (await h.call('case/detail', { token, body: { caseCode } })).data.files as Array<{
      fileCode: string;
      name: string;
      size: number;
    }>;
  /** The bytes the case's unfinished uploads hold against the quota. */
  const reserved = async (caseCode: string) => {
    const [row] = await h.db.query<{ n: string }>(
      'SELECT COALESCE(sum(u.size), 0) AS n FROM uploads u JOIN cases c ON c.id = u.case_id WHERE c.code = $1',
      [caseCode],
    );
    return Number(row!.n);
  };
  const used = async () => {
    const [row] = await h.db.query<{ n: string }>(
      'SELECT COALESCE((SELECT used_bytes FROM storage_accounts WHERE organization_id = $1), 0) AS n',
      [orgId],
    );
    return Number(row!.n);
  };
  const idOf = (url: string) => url.split('/').pop()!;
  const stored = (url: string) => h.app.platform.store.size(`uploads/${idOf(url)}`);
  const downloaded = async (fileCode: string) => {
    const grant = (await h.call('file/downloadGrant', { token, body: { fileCode } })).data;
    const link = grant.url.startsWith(s3.env.S3_ENDPOINT)
      ? grant.url
      : `${base}${new URL(grant.url).pathname}${new URL(grant.url).search}`;
    return Buffer.from(await (await fetch(link)).arrayBuffer());
  };
  const head = (url: string, headers = auth()) => fetch(url, { method: 'HEAD', headers });
  const create = async (bytes: Buffer, caseCode: string, filename: string) => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'upload-length': String(bytes.length),
        'upload-metadata': metadataHeader({ caseCode, filename }),
      },
    });
    expect(res.status).toBe(201);
    return { url: new URL(res.headers.get('location')!, base).toString(), res };
  };
  const patch = (url: string, offset: number, body: Buffer<ArrayBuffer>, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        ...headers,
      },
      body,
    });
  /** An upload by tus-js-client; answers its URL and the methods of the requests it sent. */
  const upload = (bytes: Buffer, meta: Record<string, string>, options: Partial<UploadOptions> = {}) => {
    const methods: string[] = [];
    let url = '';
    const done = new Promise<void>((resolve, reject) => {
      const up = new Upload(bytes, {
        endpoint,
        headers: { authorization: `Bearer ${token}` },
        metadata: meta,
        chunkSize: 256 * 1024,
        retryDelays: [],
        onBeforeRequest: (req) => void methods.push(req.getMethod()),
        onUploadUrlAvailable: () => void (url = up.url!),
        onError: reject,
        onSuccess: () => resolve(),
        ...options,
      });
      up.start();
    });
    return { done: done.then(() => ({ url, methods })), methods };
  };

  it('offers its version, extensions, checksum algorithms and maximum size (OPTIONS)', async () => {
    const res = await fetch(endpoint, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    const extensions = res.headers.get('tus-extension')!.split(',');
    expect(extensions).toEqual(
      expect.arrayContaining(['creation', 'creation-with-upload', 'termination', 'checksum', 'expiration']),
    );
    // Not offered: the quota is reserved from Upload-Length at creation.
    expect(extensions).not.toContain('creation-defer-length');
    expect(res.headers.get('tus-checksum-algorithm')!.split(',')).toEqual(
      expect.arrayContaining(['sha1', 'sha256', 'md5']),
    );
    expect(res.headers.get('tus-max-size')).toBe(String(MAX_MB * 1024 * 1024));
  });

  it('announces the expiry on creation and on each PATCH, and refuses what it does not speak, changing nothing', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(4000);
    const before = Date.now();
    const { url, res } = await create(bytes, caseCode, 'expires.stl');
    const expires = Date.parse(res.headers.get('upload-expires')!);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const first = await patch(url, 0, bytes.subarray(0, 50_000));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-expires')).toBe(res.headers.get('upload-expires'));

    // A version it does not speak, or none: 412 with the versions it does.
    for (const version of ['0.2.2', undefined]) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'upload-offset': '50000' };
      if (version) headers['tus-resumable'] = version;
      const refused = await fetch(url, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/offset+octet-stream' },
        body: bytes.subarray(50_000),
      });
      expect(refused.status).toBe(412);
      expect(refused.headers.get('tus-version')).toBe('1.0.0');
      expect(refused.headers.get('tus-resumable')).toBe('1.0.0');
    }
    // A PATCH without the tus content type, or with another: 415, still a tus answer.
    for (const type of [undefined, 'text/plain', 'application/json', 'application/x-anything']) {
      const refused = await fetch(url, {
        method: 'PATCH',
        headers: { ...auth(), 'upload-offset': '50000', ...(type ? { 'content-type': type } : {}) },
        body: bytes.subarray(50_000),
      });
      expect(refused.status).toBe(415);
      expect(refused.headers.get('tus-resumable')).toBe('1.0.0');
      expect((await refused.json()).code).toBe(415);
    }
    expect((await head(url)).headers.get('upload-offset')).toBe('50000');

    // Deferred length is not offered (400 naming the header), and a size over the maximum is refused with the
    // catalogue's message.
    const uploadsBefore = await h.db.query('SELECT id FROM uploads');
    const deferred = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'upload-defer-length': '1',
        'upload-metadata': metadataHeader({ caseCode, filename: 'd.stl' }),
      },
    });
    expect(deferred.status).toBe(400);
    expect(deferred.headers.get('tus-resumable')).toBe('1.0.0');
    expect(await deferred.json()).toMatchObject({ code: 400, msg: expect.stringContaining('Upload-Defer-Length') });
    const tooBig = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'upload-length': String(MAX_MB * 1024 * 1024 + 1),
        'upload-metadata': metadataHeader({ caseCode, filename: 'big.stl' }),
      },
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ code: 2025, msg: expect.stringContaining(`${MAX_MB} MB`) });
    expect(await h.db.query('SELECT id FROM uploads')).toEqual(uploadsBefore);
  });

  it('honours X-HTTP-Method-Override', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(6000);
    const { url } = await create(bytes, caseCode, 'override.stl');
    const asHead = await fetch(url, { method: 'POST', headers: { ...auth(), 'x-http-method-override': 'HEAD' } });
    expect(asHead.status).toBe(200);
    expect(asHead.headers.get('upload-offset')).toBe('0');
    expect(asHead.headers.get('upload-length')).toBe(String(bytes.length));
    // The official client's PATCH-as-POST mode, for proxies that drop PATCH.
    const { methods } = await upload(bytes, { caseCode, filename: 'via-post.stl' }, { overridePatchMethod: true }).done;
    expect(methods).not.toContain('PATCH');
    const files = await filesOf(caseCode);
    expect(files.map((f) => f.name)).toEqual(['via-post.stl']);
    expect(Buffer.compare(await downloaded(files[0]!.fileCode), bytes)).toBe(0);
  });

  it('resumes an aborted upload from the server offset', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(40_000); // 2 MB
    let aborted: Promise<void> | undefined;
    let url = '';
    await new Promise<void>((resolve, reject) => {
      const up: Upload = new Upload(bytes, {
        endpoint,
        headers: { authorization: `Bearer ${token}` },
        metadata: { caseCode, filename: 'resumed.stl' },
        chunkSize: 256 * 1024,
        retryDelays: [],
        onChunkComplete: (_chunk, accepted) => {
          if (accepted >= 600_000 && aborted === undefined) {
            url = up.url!;
            aborted = up.abort().then(resolve, reject);
          }
        },
        onError: reject,
        onSuccess: () => reject(new Error('finished before the abort')),
      });
      up.start();
    });
    await aborted;
    const offset = Number((await head(url)).headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(600_000);
    expect(offset).toBeLessThan(bytes.length);
    expect(await reserved(caseCode)).toBe(bytes.length);

    let firstProgress = -1;
    const { methods } = await upload(
      bytes,
      { caseCode, filename: 'resumed.stl' },
      { uploadUrl: url, onProgress: (sent) => void (firstProgress < 0 && (firstProgress = sent)) },
    ).done;
    expect(methods[0]).toBe('HEAD');
    expect(methods).not.toContain('POST');
    expect(firstProgress).toBeGreaterThanOrEqual(offset);
    const files = await filesOf(caseCode);
    expect(files).toHaveLength(1);
    expect(Buffer.compare(await downloaded(files[0]!.fileCode), bytes)).toBe(0);
    expect(await reserved(caseCode)).toBe(0);
  });

  it('a client that lost the last answer resumes to success, and the case gets the file once', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(12_000);
    const usedBefore = await used();
    // The server takes the last chunk, then the connection drops before its answer arrives.
    const real = new DefaultHttpStack({});
    let dropped = false;
    const losingStack: HttpStack = {
      getName: () => 'drops the last answer once',
      createRequest(method, url) {
        const req: HttpRequest = real.createRequest(method, url);
        const send = req.send.bind(req);
        req.send = async (body) => {
          const res = await send(body);
          if (method === 'PATCH' && !dropped && res.getHeader('Upload-Offset') === String(bytes.length)) {
            dropped = true;
            throw new Error('socket hang up');
          }
          return res;
        };
        return req;
      },
    };
    const { url, methods } = await upload(
      bytes,
      { caseCode, filename: 'once.stl' },
      { httpStack: losingStack, retryDelays: [0] },
    ).done;
    expect(dropped).toBe(true);
    // One creation; the retry asked where to go on and learnt it was done.
    expect(methods.filter((m) => m === 'POST')).toHaveLength(1);
    expect(methods.at(-1)).toBe('HEAD');
    expect(await filesOf(caseCode)).toHaveLength(1);
    expect(await used()).toBe(usedBefore + bytes.length);
    expect(await reserved(caseCode)).toBe(0);

    const answer = await head(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('upload-offset')).toBe(String(bytes.length));
    expect(answer.headers.get('upload-length')).toBe(String(bytes.length));
    expect(answer.headers.get('upload-metadata')).toContain(`filename ${Buffer.from('once.stl').toString('base64')}`);
    // The final PATCH sent again (nothing left to send) is the same success, and adds nothing.
    expect((await patch(url, bytes.length, Buffer.alloc(0))).status).toBe(204);
    expect(await filesOf(caseCode)).toHaveLength(1);
    // Still only for the organization that made it.
    expect((await head(url, { 'tus-resumable': '1.0.0', authorization: `Bearer ${other}` })).status).toBe(404);
  });

  it('a second finished upload of the same bytes to the same case maps to the file already there', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(10_000, 7);
    const first = await upload(bytes, { caseCode, filename: 'upper.stl' }).done;
    const usedAfterFirst = await used();
    const second = await upload(bytes, { caseCode, filename: 'upper (1).stl' }).done;
    const files = await filesOf(caseCode);
    expect(files.map((f) => f.name)).toEqual(['upper.stl']);
    expect(await used()).toBe(usedAfterFirst);
    expect(await reserved(caseCode)).toBe(0);
    // The duplicate's own copy is gone; it answers as the file it repeats.
    expect(await stored(second.url)).toBeNull();
    expect(await stored(first.url)).toBe(bytes.length);
    const [mapped] = await h.db.query<{ code: string }>(
      'SELECT f.code FROM finished_uploads u JOIN files f ON f.id = u.file_id WHERE u.id = $1',
      [idOf(second.url)],
    );
    expect(mapped!.code).toBe(files[0]!.fileCode);
    expect((await head(second.url)).headers.get('upload-offset')).toBe(String(bytes.length));
    const [row] = await h.db.query<{ sha256: Uint8Array }>('SELECT sha256 FROM files WHERE code = $1', [
      files[0]!.fileCode,
    ]);
    expect(Buffer.from(row!.sha256).toString('base64')).toBe(sha('sha256', bytes));
    expect(Buffer.compare(await downloaded(files[0]!.fileCode), bytes)).toBe(0);

    // Other bytes, or the same bytes in another case, are files of their own.
    await upload(binaryStl(10_000, 8), { caseCode, filename: 'lower.stl' }).done;
    expect(await filesOf(caseCode)).toHaveLength(2);
    const otherCase = await newCase();
    await upload(bytes, { caseCode: otherCase, filename: 'upper.stl' }).done;
    expect(await filesOf(otherCase)).toHaveLength(1);
  });

  it('recognises the same bytes when an upload was resumed on another process sharing the store', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(8000, 11);
    await upload(bytes, { caseCode, filename: 'first.stl' }).done;
    const second = await buildApp({ config: h.config, db: h.db, serveWeb: false, logger: false });
    const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { url } = await create(bytes, caseCode, 'again.stl');
      expect((await patch(url, 0, bytes.subarray(0, 150_000))).status).toBe(204);
      // The rest goes to the other process, which has not seen the first bytes.
      const rest = await fetch(url.replace(base, secondBase), {
        method: 'PATCH',
        headers: { ...auth(), 'upload-offset': '150000', 'content-type': 'application/offset+octet-stream' },
        body: bytes.subarray(150_000),
      });
      expect(rest.status).toBe(204);
      expect(await filesOf(caseCode)).toHaveLength(1);
      expect(await stored(url)).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('checksum extension: a chunk whose Upload-Checksum does not match is refused with 460 and discarded', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(30_000, 3); // 1.5 MB
    const { url } = await create(bytes, caseCode, 'checked.stl');
    const a = bytes.subarray(0, 500_000);
    const wrong = await patch(url, 0, a, { 'upload-checksum': `sha1 ${sha('sha1', bytes.subarray(1, 500_001))}` });
    expect(wrong.status).toBe(460);
    expect(wrong.headers.get('tus-resumable')).toBe('1.0.0');
    expect((await wrong.json()).code).toBe(2043);
    expect((await head(url)).headers.get('upload-offset')).toBe('0');
    // Unknown algorithms and malformed values are refused naming the header, before any byte is taken.
    for (const value of [`crc32 ${sha('sha1', a)}`, 'sha1 not-base64!', `sha1 ${sha('md5', a)}`]) {
      const bad = await patch(url, 0, a, { 'upload-checksum': value, lang: 'de' });
      expect(bad.status).toBe(400);
      expect((await bad.json()).msg).toBe('Ungültiger Wert für Upload-Checksum.');
    }
    expect((await head(url)).headers.get('upload-offset')).toBe('0');

    const right = await patch(url, 0, a, { 'upload-checksum': `sha1 ${sha('sha1', a)}` });
    expect(right.status).toBe(204);
    expect(right.headers.get('upload-offset')).toBe('500000');
    const b = bytes.subarray(500_000, 1_000_000);
    expect((await patch(url, 500_000, b, { 'upload-checksum': `sha256 ${sha('sha256', b)}` })).status).toBe(204);
    const c = bytes.subarray(1_000_000);
    expect((await patch(url, 1_000_000, c, { 'upload-checksum': `md5 ${sha('md5', bytes)}` })).status).toBe(460);
    expect((await patch(url, 1_000_000, c, { 'upload-checksum': `md5 ${sha('md5', c)}` })).status).toBe(204);
    const files = await filesOf(caseCode);
    expect(files).toHaveLength(1);
    expect(Buffer.compare(await downloaded(files[0]!.fileCode), bytes)).toBe(0);
    const [row] = await h.db.query<{ sha256: Uint8Array }>('SELECT sha256 FROM files WHERE code = $1', [
      files[0]!.fileCode,
    ]);
    expect(Buffer.from(row!.sha256).toString('base64')).toBe(sha('sha256', bytes));
  });

  it('checksum extension on creation-with-upload: a mismatch leaves no upload behind', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(8000, 4);
    const first = bytes.subarray(0, 200_000);
    const createWith = (checksum: string) =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          ...auth(),
          'upload-length': String(bytes.length),
          'upload-metadata': metadataHeader({ caseCode, filename: 'with-body.stl' }),
          'content-type': 'application/offset+octet-stream',
          'upload-checksum': checksum,
        },
        body: first,
      });
    const wrong = await createWith(`sha1 ${sha('sha1', bytes.subarray(1, 200_001))}`);
    expect(wrong.status).toBe(460);
    expect(await reserved(caseCode)).toBe(0);
    expect(await h.db.query('SELECT id FROM uploads u WHERE u.name = $1', ['with-body.stl'])).toEqual([]);
    const right = await createWith(`sha1 ${sha('sha1', first)}`);
    expect(right.status).toBe(201);
    expect(right.headers.get('upload-offset')).toBe('200000');
    const url = new URL(right.headers.get('location')!, base).toString();
    expect((await patch(url, 200_000, bytes.subarray(200_000))).status).toBe(204);
    expect((await filesOf(caseCode)).map((f) => f.name)).toEqual(['with-body.stl']);
  });

  it('expiry: an upload past it answers 410, then housekeeping removes it and gives its bytes back', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(20_000, 5);
    const { url } = await create(bytes, caseCode, 'late.stl');
    expect((await patch(url, 0, bytes.subarray(0, 300_000))).status).toBe(204);
    const finished = await upload(binaryStl(3000, 6), { caseCode, filename: 'done.stl' }).done;
    const fileCode = (await filesOf(caseCode))[0]!.fileCode;
    expect(await reserved(caseCode)).toBe(bytes.length);

    // A day and an hour later.
    await h.db.query(`UPDATE uploads SET created_at = created_at - interval '25 hours' WHERE id = $1`, [idOf(url)]);
    await h.db.query(`UPDATE finished_uploads SET created_at = created_at - interval '25 hours' WHERE id = $1`, [
      idOf(finished.url),
    ]);
    expect((await head(url)).status).toBe(410);
    expect((await patch(url, 300_000, bytes.subarray(300_000))).status).toBe(410);
    expect((await head(finished.url)).status).toBe(410);
    const pending = s3.pendingMultipartUploads;
    const multipartBefore = await pending();
    // On S3 the bytes short of a part wait in an object of their own.
    const shortPart = () => h.app.platform.store.size(`uploads/${idOf(url)}.part`);
    if (storeEnv() === s3.env) expect(await shortPart()).toBe(300_000);

    // A chunk a stopped process left half-verified, and one being verified now.
    const staging = join(h.config.dataDir, 'upload-chunks');
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'stale'), 'x');
    utimesSync(join(staging, 'stale'), new Date(Date.now() - DAY_MS - 60_000), new Date(Date.now() - DAY_MS - 60_000));
    writeFileSync(join(staging, 'fresh'), 'x');

    await h.app.housekeeping.run('abandonedUploads');
    expect(readdirSync(staging)).toEqual(['fresh']);
    rmSync(join(staging, 'fresh'));
    expect(await reserved(caseCode)).toBe(0);
    expect((await head(url)).status).toBe(404);
    expect((await head(finished.url)).status).toBe(404);
    expect(await stored(url)).toBeNull();
    if (storeEnv() === s3.env) expect(await pending()).toBe(multipartBefore - 1);
    expect(await shortPart()).toBeNull();
    // The finished upload's file stays.
    expect((await filesOf(caseCode)).map((f) => f.fileCode)).toEqual([fileCode]);
    expect(await downloaded(fileCode)).toHaveLength(binaryStl(3000, 6).length);
  });

  it('termination: DELETE frees the reservation and the bytes; a finished upload cannot be terminated', async () => {
    const caseCode = await newCase();
    const bytes = binaryStl(20_000, 9);
    const { url } = await create(bytes, caseCode, 'cancelled.stl');
    expect((await patch(url, 0, bytes.subarray(0, 300_000))).status).toBe(204);
    expect(await reserved(caseCode)).toBe(bytes.length);
    await Upload.terminate(url, { headers: { authorization: `Bearer ${token}` } });
    expect(await reserved(caseCode)).toBe(0);
    expect((await head(url)).status).toBe(404);
    expect(await stored(url)).toBeNull();

    const done = await upload(bytes, { caseCode, filename: 'kept.stl' }).done;
    const refused = await fetch(done.url, { method: 'DELETE', headers: auth() });
    expect(refused.status).toBe(400);
    const files = await filesOf(caseCode);
    expect(files).toHaveLength(1);
    expect(Buffer.compare(await downloaded(files[0]!.fileCode), bytes)).toBe(0);
    await expect(Upload.terminate(done.url, { headers: { authorization: `Bearer ${other}` } })).rejects.toSatisfy(
      (e) => tusRefusal(e).status === 404,
    );
  });
});
