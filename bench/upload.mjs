// A 1 GiB upload over loopback through tus (64 MB chunks): throughput against a plain file copy of the same file
// in the same run, and the server process's memory growth while it receives the file (goal under 100 MB). Then
// the same file again with an Upload-Checksum (sha1) on every chunk, against the plain upload of the same run.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { copyFile, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  apiClient,
  cpuAccount,
  fmtMB,
  login,
  MB,
  sampleRss,
  settledRss,
  startPortal,
  tusUpload,
  waitDemoQuiet,
} from './portal-lib.mjs';

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);

/** SIZE_MB of incompressible bytes: one 64 MB random block written again and again (a3d: any content that is no known type). */
/** The tus requests of a third-party uploader that sends `Upload-Checksum: sha1` with each chunk (hashed beforehand). */
async function checksummedUpload(base, token, path, caseCode, chunkSize) {
  const size = (await stat(path)).size;
  const chunks = [];
  for (let start = 0; start < size; start += chunkSize) {
    const end = Math.min(size, start + chunkSize) - 1;
    const hash = createHash('sha1');
    for await (const part of createReadStream(path, { start, end })) hash.update(part);
    chunks.push({ start, end, sha1: hash.digest('base64') });
  }
  const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  const t0 = performance.now();
  const meta = [
    `filename ${Buffer.from('scan.a3d').toString('base64')}`,
    `caseCode ${Buffer.from(caseCode).toString('base64')}`,
  ];
  const created = await fetch(`${base}/files/tus`, {
    method: 'POST',
    headers: { ...headers, 'upload-length': String(size), 'upload-metadata': meta.join(',') },
  });
  if (created.status !== 201) throw new Error(`creation answered ${created.status}`);
  const url = new URL(created.headers.get('location'), base).toString();
  for (const { start, end, sha1 } of chunks) {
    const res = await fetch(url, {
      method: 'PATCH',
      headers: {
        ...headers,
        'upload-offset': String(start),
        'content-type': 'application/offset+octet-stream',
        'upload-checksum': `sha1 ${sha1}`,
      },
      body: Readable.toWeb(createReadStream(path, { start, end })),
      duplex: 'half',
    });
    if (res.status !== 204) throw new Error(`chunk at ${start} answered ${res.status}: ${await res.text()}`);
  }
  return (performance.now() - t0) / 1000;
}

async function makeFile(path) {
  const block = randomBytes(64 * MB);
  Buffer.from('A3D-BENCH portal synthetic scanner file\n').copy(block, 0);
  const fh = await open(path, 'w');
  try {
    let left = SIZE_MB * MB;
    while (left > 0) {
      const n = Math.min(left, block.length);
      await fh.write(block, 0, n);
      left -= n;
    }
  } finally {
    await fh.close();
  }
}

export async function uploadBench({ start, waitFor, stop, freePort }) {
  const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-upload-'));
  let portal = null;
  try {
    const src = join(tmp, 'scan.a3d');
    await makeFile(src);
    const bytes = SIZE_MB * MB;

    // Baselines: a stream copy (read and write through the process, as the upload path does) and fs.copyFile.
    const copy = join(tmp, 'copy.a3d');
    let t0 = performance.now();
    await pipeline(createReadStream(src, { highWaterMark: MB }), createWriteStream(copy));
    const streamSeconds = (performance.now() - t0) / 1000;
    await rm(copy);
    t0 = performance.now();
    await copyFile(src, copy);
    const copyFileSeconds = (performance.now() - t0) / 1000;
    await rm(copy);

    portal = await startPortal({ start, waitFor, freePort }, { UPLOAD_MAX_MB: '2048' });
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);
    const { caseCode } = await api('case/create', { name: 'Upload bench', patientName: 'Bench Upload' });
    const pid = portal.child.pid;
    const before = await settledRss(pid);
    const sampler = sampleRss(pid, 200);
    let rss;
    // Server CPU time besides the wall time: on a shared machine it moves less than the rate does.
    let cpu = cpuAccount({ server: [pid] });
    t0 = performance.now();
    try {
      await tusUpload(portal.base, token, src, { caseCode, jaw: 'upper' }, { chunkSize: 64 * MB });
    } finally {
      rss = sampler.stop();
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = cpu.stop().ms.server / 1000;
    const files = (await api('case/detail', { caseCode })).files;
    if (files.length !== 1 || files[0].size !== bytes)
      throw new Error(`upload stored ${JSON.stringify(files.map((f) => f.size))}, expected ${bytes} bytes`);

    const rate = bytes / MB / seconds;
    const streamRate = bytes / MB / streamSeconds;
    const growth = rss.max - before;

    // Another case, so the same bytes are a file of their own (within one case they would be recognised).
    const checked = (await api('case/create', { name: 'Upload bench (checksums)', patientName: 'Bench Upload' }))
      .caseCode;
    const checkedBefore = await settledRss(pid);
    const checkedSampler = sampleRss(pid, 200);
    cpu = cpuAccount({ server: [pid] });
    let checkedRss;
    let checkedSeconds;
    try {
      checkedSeconds = await checksummedUpload(portal.base, token, src, checked, 64 * MB);
    } finally {
      checkedRss = checkedSampler.stop();
    }
    const checkedCpuSeconds = cpu.stop().ms.server / 1000;
    const checkedGrowth = checkedRss.max - checkedBefore;
    const checkedFiles = (await api('case/detail', { caseCode: checked })).files;
    if (checkedFiles.length !== 1 || checkedFiles[0].size !== bytes)
      throw new Error(`checksummed upload stored ${JSON.stringify(checkedFiles.map((f) => f.size))} bytes`);
    const checkedRate = bytes / MB / checkedSeconds;
    return [
      [
        `upload: ${SIZE_MB >= 1024 ? `${SIZE_MB / 1024} GiB` : `${SIZE_MB} MB`} over loopback (tus, 64 MB chunks)`,
        `${rate.toFixed(0)} MB/s (${seconds.toFixed(1)} s, server CPU ${cpuSeconds.toFixed(1)} s)`,
        `stream copy ${streamRate.toFixed(0)} MB/s (fs.copyFile ${(bytes / MB / copyFileSeconds).toFixed(0)} MB/s)`,
        `${(rate / streamRate).toFixed(2)} of the stream copy's rate (no goal stated)`,
      ],
      [
        `upload: server memory growth during the ${SIZE_MB >= 1024 ? `${SIZE_MB / 1024} GiB` : `${SIZE_MB} MB`} upload`,
        `RSS +${fmtMB(Math.max(0, growth))} (before ${fmtMB(before)}, max ${fmtMB(rss.max)}, ${rss.count} samples / 200 ms)`,
        '—',
        `${growth < 100 * MB ? 'met' : 'MISSED'} (goal < 100 MB)`,
      ],
      [
        `upload: the same file with Upload-Checksum (sha1) on each 64 MB chunk`,
        `${checkedRate.toFixed(0)} MB/s (${checkedSeconds.toFixed(1)} s, server CPU ${checkedCpuSeconds.toFixed(1)} s)`,
        `plain tus upload ${rate.toFixed(0)} MB/s (server CPU ${cpuSeconds.toFixed(1)} s)`,
        `${(checkedRate / rate).toFixed(2)} of the plain upload's rate (each chunk is staged, verified, then stored)`,
      ],
      [
        `upload: server memory growth during the checksummed upload`,
        `RSS +${fmtMB(Math.max(0, checkedGrowth))} (before ${fmtMB(checkedBefore)}, max ${fmtMB(checkedRss.max)})`,
        '—',
        `${checkedGrowth < 100 * MB ? 'met' : 'MISSED'} (goal < 100 MB; a chunk is 64 MB)`,
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
