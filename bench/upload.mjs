// A 1 GiB upload over loopback through tus (64 MB chunks): throughput against a plain file copy of the same file
// in the same run, and the server process's memory growth while it receives the file (goal under 100 MB).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { copyFile, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { apiClient, fmtMB, login, MB, sampleRss, settledRss, startPortal, tusUpload, waitDemoQuiet } from './portal-lib.mjs';

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);

/** SIZE_MB of incompressible bytes: one 64 MB random block written again and again (a3d: any content that is no known type). */
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
    t0 = performance.now();
    try {
      await tusUpload(portal.base, token, src, { caseCode, jaw: 'upper' }, { chunkSize: 64 * MB });
    } finally {
      rss = sampler.stop();
    }
    const seconds = (performance.now() - t0) / 1000;
    const files = (await api('case/detail', { caseCode })).files;
    if (files.length !== 1 || files[0].size !== bytes) throw new Error(`upload stored ${JSON.stringify(files.map((f) => f.size))}, expected ${bytes} bytes`);

    const rate = bytes / MB / seconds;
    const streamRate = bytes / MB / streamSeconds;
    const growth = rss.max - before;
    return [
      [
        `upload: ${SIZE_MB >= 1024 ? `${SIZE_MB / 1024} GiB` : `${SIZE_MB} MB`} over loopback (tus, 64 MB chunks)`,
        `${rate.toFixed(0)} MB/s (${seconds.toFixed(1)} s)`,
        `stream copy ${streamRate.toFixed(0)} MB/s (fs.copyFile ${(bytes / MB / copyFileSeconds).toFixed(0)} MB/s)`,
        `${(rate / streamRate).toFixed(2)} of the stream copy's rate (no goal stated)`,
      ],
      [
        `upload: server memory growth during the ${SIZE_MB >= 1024 ? `${SIZE_MB / 1024} GiB` : `${SIZE_MB} MB`} upload`,
        `RSS +${fmtMB(Math.max(0, growth))} (before ${fmtMB(before)}, max ${fmtMB(rss.max)}, ${rss.count} samples / 200 ms)`,
        '—',
        `${growth < 100 * MB ? 'met' : 'MISSED'} (goal < 100 MB)`,
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
