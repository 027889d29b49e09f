// A 500 MB upload whose content is not what its name says (random bytes named scan.stl): the time from its first
// byte to the server's refusal (goal under a second), against the time the same 500 MB take to upload in full
// (named scan.a3d, which takes any content) in the same run. Raw tus requests over loopback: create, then one PATCH
// streaming the file.
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, login, MB, startPortal, waitDemoQuiet } from './portal-lib.mjs';

const SIZE_MB = Number(process.env.BENCH_REFUSAL_MB ?? 500);

async function makeFile(path) {
  const block = randomBytes(64 * MB);
  const fh = await open(path, 'w');
  try {
    for (let left = SIZE_MB * MB; left > 0; left -= block.length)
      await fh.write(block, 0, Math.min(left, block.length));
  } finally {
    await fh.close();
  }
}

const metadata = (meta) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** POST (create) then PATCH the whole file; resolves when the server answers the PATCH. */
async function upload(base, token, path, filename, caseCode) {
  const size = SIZE_MB * MB;
  const created = await fetch(`${base}/files/tus`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${token}`,
      'upload-length': String(size),
      'upload-metadata': metadata({ caseCode, filename }),
    },
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const url = new URL(created.headers.get('location'), `${base}/files/tus/`).href;
  return new Promise((resolve, reject) => {
    let sent = 0;
    let firstByteAt = 0;
    let answered = false;
    const req = http.request(url, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${token}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(size),
      },
    });
    const body = createReadStream(path, { highWaterMark: MB });
    body.on('data', (chunk) => {
      if (!firstByteAt) firstByteAt = performance.now();
      sent += chunk.length;
    });
    req.on('response', (res) => {
      answered = true;
      const at = { ms: performance.now() - firstByteAt, sent, status: res.statusCode };
      body.destroy();
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve(at);
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    body.pipe(req);
  });
}

export async function earlyRefusalBench({ start, waitFor, stop, freePort }) {
  const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-refusal-'));
  let portal = null;
  try {
    const src = join(tmp, 'scan.bin');
    await makeFile(src);
    portal = await startPortal({ start, waitFor, freePort }, { UPLOAD_MAX_MB: '2048' });
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);
    const { caseCode } = await api('case/create', { name: 'Refusal bench', patientName: 'Bench Refusal' });
    const refused = await upload(portal.base, token, src, 'scan.stl', caseCode);
    const full = await upload(portal.base, token, src, 'scan.a3d', caseCode);
    if (refused.status !== 415) throw new Error(`the wrong content was answered ${refused.status}`);
    if (full.status !== 204) throw new Error(`the full upload was answered ${full.status}`);
    const files = (await api('case/detail', { caseCode })).files;
    if (files.length !== 1) throw new Error(`the case holds ${files.length} files, expected the a3d alone`);
    return [
      [
        `early refusal: ${SIZE_MB} MB of wrong content (scan.stl), first byte → 415`,
        `${refused.ms.toFixed(0)} ms (${(refused.sent / MB).toFixed(1)} MB read from disk by the client by then)`,
        `full upload of the same ${SIZE_MB} MB ${(full.ms / 1000).toFixed(1)} s`,
        `${refused.ms < 1000 ? 'met' : 'MISSED'} (goal < 1 s)`,
      ],
    ];
  } finally {
    if (portal) {
      await stop(portal.child);
      rmSync(portal.dataDir, { recursive: true, force: true });
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}
