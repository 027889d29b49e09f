// PDF of an oral health report with 6 pictures and 2 snapshots: generation time (20 in a row, 4 at once; p50 and
// p95) and the server's peak memory, against the PDF of an empty report and a `user/info` call in the same run; and
// how `user/info` answers while PDFs are being generated (the PDF is drawn in a worker thread).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { apiClient, fmtMB, login, percentile, sampleRss, settledRss, startPortal, tusUpload } from './portal-lib.mjs';

const GOAL_P95_MS = 1500;

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b) => {
  let c = 0xffffffff;
  for (const x of b) c = CRC[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
/** A photo-like PNG (smooth shading with noise, so it does not compress to nothing); RGBA like a WebGL canvas. */
function png(width, height, seed, alpha) {
  const ch = alpha ? 4 : 3;
  const rows = Buffer.alloc((width * ch + 1) * height);
  let s = seed * 9301 + 49297;
  for (let y = 0; y < height; y++) {
    const row = y * (width * ch + 1);
    for (let x = 0; x < width; x++) {
      s = (s * 9301 + 49297) % 233280;
      const noise = (s / 233280) * 24;
      const p = row + 1 + x * ch;
      rows[p] = (200 + 40 * Math.sin((x + seed * 40) / 90) + noise) & 0xff;
      rows[p + 1] = (150 + 50 * Math.cos(y / 70) + noise) & 0xff;
      rows[p + 2] = (140 + 30 * Math.sin((x + y) / 120) + noise) & 0xff;
      if (alpha) rows[p + 3] = 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = alpha ? 6 : 2;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
};
const fmt = (s) => `p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms (n=${s.n})`;

export async function reportPdfBench({ start, waitFor, stop, freePort }) {
  const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-report-'));
  let portal = null;
  try {
    portal = await startPortal({ start, waitFor, freePort });
    const token = await login(portal.base);
    const api = apiClient(portal.base, token);
    const post = async (path, body) => {
      const t0 = performance.now();
      const res = await fetch(`${portal.base}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${bytes.toString().slice(0, 200)}`);
      return { ms: performance.now() - t0, bytes };
    };

    // A case with 6 pictures (1600×1200) and a report showing them with 2 snapshots (1280×720, as the viewer takes).
    const { caseCode } = await api('case/create', { name: 'Report bench', patientName: '山田 花子' });
    for (let i = 0; i < 6; i++) {
      const path = join(tmp, `photo-${i}.png`);
      writeFileSync(path, png(1600, 1200, i + 1, false));
      await tusUpload(portal.base, token, path, { caseCode });
    }
    const pictures = (await api('case/detail', { caseCode })).files.map((f) => f.fileCode);
    if (pictures.length !== 6) throw new Error(`expected 6 pictures, the case has ${pictures.length}`);
    const full = (await api('report/create', { caseCode })).reportCode;
    const empty = (await api('report/create', { caseCode })).reportCode;
    const snapshots = [];
    for (const view of ['upper', 'bite']) {
      const form = new FormData();
      form.append('reportCode', full);
      form.append('view', view);
      form.append('file', new Blob([png(1280, 720, view.length, true)]), `${view}.png`);
      const res = await fetch(`${portal.base}/report/snapshot`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const json = await res.json();
      if (json.code !== 200) throw new Error(`report/snapshot: ${json.msg}`);
      snapshots.push(json.data.code);
    }
    await api('report/save', {
      reportCode: full,
      content: {
        language: 'ja',
        title: '定期検診レポート',
        summary: '毎晩、寝る前にやさしく歯を磨き、フロスを使ってください。'.repeat(4),
        recommendations: 'フッ素入り歯磨き粉を使い、間食を控えてください。',
        nextVisit: '2027-05-01',
        images: [
          ...pictures.map((code) => ({ source: 'file', code })),
          ...snapshots.map((code) => ({ source: 'snapshot', code })),
        ],
        findings: [16, 21, 26, 36, 46, 11].map((tooth, i) => ({
          tooth,
          category: ['preventive', 'early_caries', 'aethetics', 'advanced_caries', 'functional_defeat', 'others'][i],
          note: '経過観察が必要です。',
        })),
        risks: {
          caries: { level: 'high', reason: '間食が多い' },
          periodontal: { level: 'medium', reason: '歯石の沈着' },
          wear: { level: 'low', reason: '' },
          orthodontic: { level: null, reason: '' },
        },
      },
    });
    await api('report/save', { reportCode: empty, content: { language: 'ja' } });

    // Warm-up: the worker starts and parses its fonts once per process.
    const first = await post('report/pdf', { reportCode: full });
    await post('report/pdf', { reportCode: empty });
    for (let i = 0; i < 5; i++) await post('user/info', {});

    const pid = portal.child.pid;
    const before = await settledRss(pid);
    const sampler = sampleRss(pid, 100);
    const serial = [];
    const serialEmpty = [];
    const serialInfo = [];
    let size = 0;
    for (let i = 0; i < 20; i++) {
      const r = await post('report/pdf', { reportCode: full });
      serial.push(r.ms);
      size = r.bytes.length;
      serialEmpty.push((await post('report/pdf', { reportCode: empty })).ms);
      serialInfo.push((await post('user/info', {})).ms);
    }
    // 4 at once, 5 rounds; user/info called back to back meanwhile.
    const parallel = [];
    const during = [];
    let generating = true;
    const monitor = (async () => {
      while (generating) during.push((await post('user/info', {})).ms);
    })();
    for (let round = 0; round < 5; round++) {
      const batch = await Promise.all(Array.from({ length: 4 }, () => post('report/pdf', { reportCode: full })));
      parallel.push(...batch.map((r) => r.ms));
    }
    generating = false;
    await monitor;
    const rss = sampler.stop();

    const s = stats(serial);
    const p = stats(parallel);
    const verdict = (x) => (x.p95 <= GOAL_P95_MS ? `meets p95 ≤ ${GOAL_P95_MS} ms` : `MISSES p95 ≤ ${GOAL_P95_MS} ms`);
    return [
      [
        `report PDF, 6 pictures + 2 snapshots, ja: 20 in a row (${(size / 1024).toFixed(0)} KB; first ${first.ms.toFixed(0)} ms)`,
        fmt(s),
        `empty report's PDF ${fmt(stats(serialEmpty))}; user/info ${fmt(stats(serialInfo))}`,
        verdict(s),
      ],
      [`report PDF: 4 at once × 5 rounds`, fmt(p), `one at a time ${fmt(s)}`, verdict(p)],
      [
        'report PDF: server memory while generating',
        `peak RSS ${fmtMB(rss.max)} (+${fmtMB(Math.max(0, rss.max - before))}; ${rss.count} samples / 100 ms)`,
        `before ${fmtMB(before)}`,
        'no goal stated',
      ],
      [
        'user/info while 4 PDFs are generated at once',
        fmt(stats(during)),
        `user/info alone ${fmt(stats(serialInfo))}`,
        stats(during).p95 < 250 ? 'the server keeps answering (p95 < 250 ms)' : 'SLOW while generating',
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
