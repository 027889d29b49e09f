// Export of 100 cases (one ~20 MB STL each, about 2 GB) into one zip: throughput against reading the same stored
// files in the same run, and whether the server's memory stays flat while it packs.
// BENCH_EXPORT_CASES scales the case count (default 100).
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apiClient,
  fmtMB,
  generateScans,
  login,
  MB,
  sampleRss,
  settledRss,
  sleep,
  startPortal,
  tusUpload,
  waitDemoQuiet,
} from './portal-lib.mjs';

const CASES = Number(process.env.BENCH_EXPORT_CASES ?? 100);
const TRIANGLES = 400_000; // binary STL: 84 + 50 × 400,000 bytes ≈ 20 MB
const UPLOAD_CONCURRENCY = 2;
const EXPORT_TIMEOUT = 180_000;

function readCount(path) {
  return new Promise((ok, fail) => {
    let n = 0;
    createReadStream(path, { highWaterMark: MB })
      .on('data', (c) => (n += c.length))
      .on('end', () => ok(n))
      .on('error', fail);
  });
}

export async function exportBench({ start, waitFor, stop, freePort }) {
  const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-export-'));
  let portal = null;
  try {
    await generateScans(tmp, TRIANGLES, 5);
    const scan = join(tmp, 'upper.stl');
    const fileBytes = statSync(scan).size;

    portal = await startPortal({ start, waitFor, freePort });
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    await waitDemoQuiet(api);

    // The cases, each with the same scan uploaded through tus.
    const tSetup = performance.now();
    const cases = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: UPLOAD_CONCURRENCY }, async () => {
        while (next < CASES) {
          const i = next++;
          const { caseCode } = await api('case/create', {
            name: `Export bench ${i + 1}`,
            patientName: `Bench Export ${i + 1}`,
          });
          const { id } = await tusUpload(portal.base, token, scan, { caseCode, jaw: 'upper' });
          cases.push({ caseCode, uploadId: id });
        }
      }),
    );
    // Every upload queues the compact viewer preparation (one background job at a time, like the export itself):
    // wait until all are done, so the export is measured alone.
    const pending = async (list) =>
      (await Promise.all(list.map((c) => api('case/detail', { caseCode: c.caseCode })))).some((d) =>
        d.files.some((f) => f.viewerStatus === 'pending'),
      );
    // Jobs run in order: poll the last case, then check them all.
    while ((await pending(cases.slice(-1))) || (await pending(cases))) {
      if (performance.now() - tSetup > 240_000)
        throw new Error('viewer preparation of the uploads did not finish in time');
      await sleep(1000);
    }
    const setupSeconds = (performance.now() - tSetup) / 1000;

    // Baseline: read every stored file once, as the export has to.
    const stored = cases.map((c) => join(portal.dataDir, 'files', 'uploads', c.uploadId));
    let t0 = performance.now();
    let readBytes = 0;
    for (const path of stored) readBytes += await readCount(path);
    const readSeconds = (performance.now() - t0) / 1000;
    const totalBytes = fileBytes * CASES;
    if (readBytes !== totalBytes) throw new Error(`read ${readBytes} bytes from the store, expected ${totalBytes}`);

    const pid = portal.child.pid;
    const before = await settledRss(pid);
    const sampler = sampleRss(pid, 200);
    let rss;
    let status;
    t0 = performance.now();
    try {
      const { exportCode } = await api('export/create', { caseCodes: cases.map((c) => c.caseCode), types: ['stl'] });
      for (;;) {
        status = await api('export/status', { exportCode });
        if (status.status === 1) break;
        if (![0, 5].includes(status.status)) throw new Error(`export ended with status ${status.status}`);
        if (performance.now() - t0 > EXPORT_TIMEOUT)
          throw new Error(`export still at ${status.progress}% after ${EXPORT_TIMEOUT / 1000} s`);
        await sleep(250);
      }
    } finally {
      rss = sampler.stop();
    }
    const seconds = (performance.now() - t0) / 1000;

    const rate = totalBytes / MB / seconds;
    const readRate = readBytes / MB / readSeconds;
    const growth = rss.max - before;
    const label = `${CASES} cases, ${(totalBytes / 1024 ** 3).toFixed(2)} GiB${CASES < 100 ? ` (scaled down from 100 by BENCH_EXPORT_CASES)` : ''}`;
    return [
      [
        `export: ${label}, stl, one zip`,
        `${rate.toFixed(0)} MB/s (${seconds.toFixed(1)} s, zip ${fmtMB(status.size ?? 0)})`,
        `read the stored files ${readRate.toFixed(0)} MB/s (${readSeconds.toFixed(1)} s, page cache warm)`,
        `${(rate / readRate).toFixed(2)} of the read rate (no goal stated); set-up ${setupSeconds.toFixed(0)} s`,
      ],
      [
        `export: server memory while packing ${CASES} cases`,
        `RSS +${fmtMB(Math.max(0, growth))} (before ${fmtMB(before)}, max ${fmtMB(rss.max)}, ${rss.count} samples / 200 ms)`,
        '—',
        growth < 100 * MB ? 'flat (growth < 100 MB)' : 'NOT flat (growth ≥ 100 MB)',
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
