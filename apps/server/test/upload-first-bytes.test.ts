import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { generateArch, toBinaryStl } from '@portal/mesh';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { PNG } from './uploads.js';

// An upload whose first bytes are not what its name says is refused once they arrive, not after the whole file.
let h: Harness;
let base: string;
let token: string;
let orgId: number;
beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  const u = await createUser(h.db);
  orgId = u.organizationId;
  token = (await login(h, u.account)).accessToken;
});
afterAll(() => h.close());

const MB = 1024 * 1024;
const TOTAL = 64 * MB;
const newCase = async () =>
  (await h.call('case/create', { token, body: { name: 'Scan', patientName: 'Lea Brun' } })).data.caseCode as string;
const metadata = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
const tusHeaders = { 'tus-resumable': '1.0.0', authorization: '' };

async function create(caseCode: string, filename: string, length: number) {
  const res = await fetch(`${base}/api/v2/files/tus`, {
    method: 'POST',
    headers: {
      ...tusHeaders,
      authorization: `Bearer ${token}`,
      'upload-length': String(length),
      'upload-metadata': metadata({ caseCode, filename }),
    },
  });
  expect(res.status).toBe(201);
  return new URL(res.headers.get('location')!, `${base}/api/v2/files/tus/`).href;
}

/**
 * Sends a TOTAL-byte body that starts with `first` (then zeros), as fast as the connection takes it, and stops when
 * the server answers; resolves with the answer and how many bytes had been handed to the connection by then.
 */
function send(method: 'PATCH' | 'POST', url: string, headers: Record<string, string>, first: Uint8Array) {
  return new Promise<{ status: number; body: { code: number; msg: string }; sent: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, {
      method,
      headers: {
        ...tusHeaders,
        authorization: `Bearer ${token}`,
        'content-type': 'application/offset+octet-stream',
        'content-length': String(TOTAL),
        lang: 'de',
        ...headers,
      },
    });
    req.on('response', (res) => {
      answered = true;
      const atAnswer = sent;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(text || '{}'), sent: atAnswer });
      });
    });
    // After the answer the server closes the connection: the writes still under way fail, as expected.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024);
    const pump = () => {
      while (!answered && sent < TOTAL) {
        const piece = sent === 0 ? Buffer.concat([first, chunk.subarray(first.length)]) : chunk;
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

async function leftovers() {
  const [row] = await h.db.query<{ uploads: number; files: number; used: string }>(
    `SELECT (SELECT count(*)::int FROM uploads WHERE organization_id = $1) AS uploads,
            (SELECT count(*)::int FROM files WHERE organization_id = $1) AS files,
            COALESCE((SELECT used_bytes FROM storage_accounts WHERE organization_id = $1), 0) AS used`,
    [orgId],
  );
  const dir = join(h.config.dataDir, 'files', 'uploads');
  const stored = existsSync(dir) ? readdirSync(dir) : [];
  return { uploads: row!.uploads, files: row!.files, used: Number(row!.used), stored };
}

describe('the first bytes of an upload', () => {
  it('refuse a 64 MB upload of the wrong content after its first chunk, keeping nothing (PATCH at offset 0)', async () => {
    const caseCode = await newCase();
    const url = await create(caseCode, 'upper.stl', TOTAL);
    expect((await leftovers()).uploads).toBe(1); // its bytes are reserved
    const png = new Uint8Array(4096);
    png.set(PNG);
    const r = await send('PATCH', url, { 'upload-offset': '0' }, png);
    expect([r.status, r.body.code]).toEqual([415, 2026]);
    expect(r.body.msg).toBe('Der Dateiinhalt entspricht nicht dem Format (STL).');
    // The answer came while most of the body was still to be sent.
    expect(r.sent).toBeLessThan(TOTAL / 2);
    expect(await leftovers()).toEqual({ uploads: 0, files: 0, used: 0, stored: [] });
    // The upload is gone: resuming it finds nothing.
    const head = await fetch(url, { method: 'HEAD', headers: { ...tusHeaders, authorization: `Bearer ${token}` } });
    expect(head.status).toBe(404);
  });

  it('refuse the first bytes sent with the creation request (creation-with-upload)', async () => {
    const caseCode = await newCase();
    const notPly = new TextEncoder().encode('ply\nformat binary_middle_endian 1.0\nelement vertex 3\n');
    const r = await send(
      'POST',
      `${base}/api/v2/files/tus`,
      { 'upload-length': String(TOTAL), 'upload-metadata': metadata({ caseCode, filename: 'lower.ply' }) },
      notPly,
    );
    expect([r.status, r.body.code]).toEqual([415, 2026]);
    expect(r.body.msg).toBe('Der Dateiinhalt entspricht nicht dem Format (PLY).');
    expect(r.sent).toBeLessThan(TOTAL / 2);
    expect(await leftovers()).toEqual({ uploads: 0, files: 0, used: 0, stored: [] });
  });

  it('let through what the first bytes cannot tell yet: the check at finish decides on the whole file', async () => {
    const patch = (url: string, offset: number, body: Uint8Array) =>
      fetch(url, {
        method: 'PATCH',
        headers: {
          ...tusHeaders,
          authorization: `Bearer ${token}`,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: Buffer.from(body),
      });
    const caseCode = await newCase();
    // 40 bytes cannot tell a binary STL (its count is at byte 80): both uploads get past the first request.
    const stl = toBinaryStl(generateArch({ jaw: 'upper', triangles: 4000, seed: 2 }));
    const good = await create(caseCode, 'upper.stl', stl.length);
    expect((await patch(good, 0, stl.subarray(0, 40))).status).toBe(204);
    expect((await patch(good, 40, stl.subarray(40))).status).toBe(204);
    const bad = new Uint8Array(stl.length);
    bad.set(PNG);
    const refused = await create(caseCode, 'lower.stl', bad.length);
    expect((await patch(refused, 0, bad.subarray(0, 40))).status).toBe(204);
    const last = await patch(refused, 40, bad.subarray(40));
    expect([last.status, ((await last.json()) as { code: number }).code]).toEqual([415, 2026]);
    const files = (await h.call('case/detail', { token, body: { caseCode } })).data.files;
    expect(files.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([['upper.stl', stl.length]]);
    expect((await leftovers()).uploads).toBe(0);
  });
});
