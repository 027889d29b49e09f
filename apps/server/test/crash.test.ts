import { DATA_MIGRATIONS, migrationNames } from '../src/migrations.js';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Upload } from 'tus-js-client';
import type { Db } from '../src/platform/db.js';
import { pgliteDb, postgresDb } from '../src/platform/db.js';
import { PGlite } from '@electric-sql/pglite';
import { newCode } from '../src/platform/crypto.js';
import { MIGRATIONS_DIR } from '../src/platform/paths.js';
import { freshDb, PASSWORD } from './harness.js';
import { unzip } from './zip.js';
import { binaryStl } from './uploads.js';
import { testDbKind } from './db-url.js';
import {
  callChild,
  childDatabase,
  killChildServers,
  spawnChildServer,
  startChildServer,
  type ChildServer,
} from './child-server.js';
import {
  blobSize,
  blobsToDelete,
  caseWithFiles,
  expectConsistent,
  killWhen,
  practice,
  seededRandom,
} from './crash-kit.js';

/**
 * The built server killed with SIGKILL (no shutdown, no flush: a power cut or an OOM kill) at random points of an
 * upload, an export, a batch order action, a purge and the migrations of a fresh database, then started again:
 * what committed is whole, what did not is invisible, and the work resumes and finishes once. Each scenario
 * draws its kill points from the printed seed and checks where the kill landed, trying again (a bounded number of
 * times) when it landed before or after the operation, so no scenario passes without having killed one mid-way.
 */
const rand = seededRandom('crash suite');
afterEach(killChildServers);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
}
/** Jobs of a process that died are taken over after this lease (PostgreSQL; PGlite has one process, so at once). */
const JOB_LEASE = { JOB_LEASE_SECONDS: '2' };

async function signIn(baseUrl: string, account: string) {
  const res = await callChild(baseUrl, 'login', { account, password: PASSWORD, saveLogin: false });
  expect(res.code).toBe(200);
  return res.data.accessToken as string;
}

async function withDb<T>(
  store: { open: (o?: { migrate?: boolean }) => Promise<Db> },
  fn: (db: Db) => Promise<T>,
  opts: { migrate?: boolean } = {},
): Promise<T> {
  const db = await store.open(opts);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** A tus upload as the web app makes it (tus-js-client, 4 MB chunks), started or resumed from its URL. */
function tusUpload(baseUrl: string, token: string, bytes: Buffer, meta: Record<string, string>, uploadUrl?: string) {
  let resolveUrl!: (url: string) => void;
  const url = new Promise<string>((r) => (resolveUrl = r));
  const upload = new Upload(bytes, {
    endpoint: `${baseUrl}/api/v2/files/tus`,
    uploadUrl,
    headers: { authorization: `Bearer ${token}` },
    metadata: meta,
    chunkSize: 4 * 1024 * 1024,
    retryDelays: [],
    onUploadUrlAvailable: () => resolveUrl(upload.url!),
  });
  const done = new Promise<void>((resolve, reject) => {
    upload.options.onSuccess = () => resolve();
    upload.options.onError = reject;
  });
  done.catch(() => undefined);
  upload.start();
  return { url, done, abort: () => void upload.abort().catch(() => undefined) };
}

describe('an upload', () => {
  const SIZE = 24 * 1024 * 1024;

  it('killed mid-PATCH and again while the server finishes it resumes from its URL to the same bytes', async () => {
    const store = await childDatabase();
    const source = randomBytes(SIZE);
    source.write('A3D scan data v1', 0); // a scanner's own format, stored as it is
    const { clinic } = await withDb(store, practice);
    const points: string[] = [];
    try {
      // 1. Killed while a PATCH streams the bytes: the kill lands at a random byte; again if it landed at the end.
      let server = await startChildServer(store);
      const token = await signIn(server.baseUrl, clinic.account);
      let caseCode = '';
      let uploadId = '';
      let offset = -1;
      for (let attempt = 0; attempt < 3; attempt++) {
        if (attempt) server = await startChildServer(store);
        caseCode = (await callChild(server.baseUrl, 'case/create', { name: 'Arches', patientName: 'Ida Berg' }, token))
          .data.caseCode;
        const upload = tusUpload(server.baseUrl, token, source, { caseCode, filename: 'arches.a3d' });
        uploadId = (await upload.url).split('/').pop()!;
        const cut = Math.floor(rand.between(0.05, 0.9) * SIZE);
        await killWhen(server, () => blobSize(store.filesDir, `uploads/${uploadId}`) >= cut);
        upload.abort();
        offset = blobSize(store.filesDir, `uploads/${uploadId}`);
        points.push(`mid-PATCH at byte ${offset} of ${SIZE} (aimed at ${cut})`);
        if (offset > 0 && offset < SIZE) break;
      }
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(SIZE);
      await withDb(store, async (db) => {
        const [u] = await db.query<{ size: string }>('SELECT size FROM uploads WHERE id = $1', [uploadId]);
        expect(Number(u!.size)).toBe(SIZE); // the reservation stays while the upload can resume
        await expectConsistent(db, store.filesDir);
      });

      // 2. Resumed from the same URL, then killed the moment its last byte is stored, while the server finishes it.
      server = await startChildServer(store);
      const listed = await callChild(server.baseUrl, 'case/detail', { caseCode }, token);
      expect(listed.data.files).toEqual([]); // no partial file in the case
      const urlOn = (s: ChildServer) => `${s.baseUrl}/api/v2/files/tus/${uploadId}`;
      const resumed = tusUpload(server.baseUrl, token, source, { caseCode, filename: 'arches.a3d' }, urlOn(server));
      expect(await killWhen(server, () => blobSize(store.filesDir, `uploads/${uploadId}`) === SIZE)).toBe(true);
      resumed.abort();
      const finishing = await withDb(store, async (db) => {
        await expectConsistent(db, store.filesDir);
        return (await db.query('SELECT 1 FROM uploads WHERE id = $1', [uploadId])).length === 1;
      });
      points.push(finishing ? 'after the last byte, before the finish committed' : 'after the finish committed');

      // 3. Resumed again: it completes, the case shows one file, and its bytes are the source's.
      server = await startChildServer(store);
      if (finishing)
        expect((await callChild(server.baseUrl, 'case/detail', { caseCode }, token)).data.files).toEqual([]);
      await tusUpload(server.baseUrl, token, source, { caseCode, filename: 'arches.a3d' }, urlOn(server)).done;
      const detail = await callChild(server.baseUrl, 'case/detail', { caseCode }, token);
      expect(detail.data.files.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([
        ['arches.a3d', SIZE],
      ]);
      const grant = await callChild(
        server.baseUrl,
        'file/downloadGrant',
        { fileCode: detail.data.files[0].fileCode },
        token,
      );
      const downloaded = Buffer.from(await (await fetch(grant.data.url)).arrayBuffer());
      expect(sha256(downloaded)).toBe(sha256(source));
      await server.stop();
      await withDb(store, async (db) => {
        expect(await db.query('SELECT id FROM uploads')).toEqual([]);
        await expectConsistent(db, store.filesDir, { settled: true });
      });
      console.log(`upload crash points: ${points.join('; ')}`);
      // Landing after the finish committed leaves nothing to prove about finishing: the seed says where it aims.
      expect(finishing, 'the second kill landed while the server finished the upload').toBe(true);
    } finally {
      await store.drop();
    }
  }, 180_000);
});

describe('an export and its job', () => {
  it('killed mid-pack is packed again by the restarted server, once, and no partial zip is ever downloadable', async () => {
    const store = await childDatabase();
    const MB = 1024 * 1024;
    const { clinic, cases } = await withDb(store, async (db) => {
      const { clinic } = await practice(db);
      const cases = [];
      for (let i = 0; i < 3; i++)
        cases.push(
          await caseWithFiles(db, store.filesDir, clinic.organizationId, [3 * MB, 2 * MB], { name: `Arch ${i}` }),
        );
      return { clinic, cases };
    });
    const total = cases.flatMap((c) => c.files).reduce((sum, f) => sum + f.bytes.length, 0);
    const points: string[] = [];
    try {
      // 1. Killed while the job writes the zip, at a random point of it; again if the pack finished first.
      let server = await startChildServer(store, JOB_LEASE);
      const token = await signIn(server.baseUrl, clinic.account);
      let exportCode = '';
      for (let attempt = 0; attempt < 3; attempt++) {
        if (attempt) server = await startChildServer(store, JOB_LEASE);
        const made = await callChild(
          server.baseUrl,
          'export/create',
          { caseCodes: cases.map((c) => c.code), types: ['stl'] },
          token,
        );
        exportCode = made.data.exportCode;
        const cut = Math.floor(rand.between(0.05, 0.8) * total);
        const zip = `exports/${exportCode}.zip`;
        await killWhen(
          server,
          () => blobSize(store.filesDir, `${zip}.part`) >= cut || blobSize(store.filesDir, zip) >= 0,
        );
        const written = blobSize(store.filesDir, `${zip}.part`);
        points.push(`mid-pack at byte ${written} of the zip (aimed at ${cut}, ${total} bytes of scans)`);
        if (blobSize(store.filesDir, zip) < 0) break;
        points.push('(the pack finished first)');
      }
      expect(blobSize(store.filesDir, `exports/${exportCode}.zip`), 'no zip before the pack finished').toBe(-1);
      await withDb(store, async (db) => {
        const [row] = await db.query<{ status: number; storage_key: string | null }>(
          'SELECT status, storage_key FROM exports WHERE code = $1',
          [exportCode],
        );
        expect(row).toEqual({ status: 5, storage_key: null }); // packing, nothing to download
        const jobs = await db.query<{ status: string }>(
          `SELECT status FROM jobs WHERE kind = 'packExport' AND payload->>'exportId' = (SELECT id::text FROM exports WHERE code = $1)`,
          [exportCode],
        );
        expect(jobs).toEqual([{ status: 'running' }]); // claimed by the process that died
        await expectConsistent(db, store.filesDir);
      });

      // 2. Restarted: the job of the dead process is taken over and packs the whole zip.
      server = await startChildServer(store, JOB_LEASE);
      let status: { status: number; downloadUrl: string | null } = { status: 5, downloadUrl: null };
      for (let i = 0; i < 600 && status.status !== 1; i++) {
        status = (await callChild(server.baseUrl, 'export/status', { exportCode }, token)).data;
        if (status.status !== 1) {
          expect(status.downloadUrl).toBeNull();
          await sleep(100);
        }
      }
      expect(status.status).toBe(1);
      const zip = await unzip(Buffer.from(await (await fetch(status.downloadUrl!)).arrayBuffer()));
      const packed = [...zip.entries()].filter(([name]) => name.endsWith('.stl'));
      expect(packed.map(([, bytes]) => sha256(bytes)).sort()).toEqual(
        cases.flatMap((c) => c.files.map((f) => sha256(f.bytes))).sort(),
      );
      const leftovers = readdirSync(join(store.filesDir, 'exports')).filter((n) => n.startsWith(exportCode));
      expect(leftovers).toEqual([`${exportCode}.zip`]); // one zip, no partial one beside it

      // 3. Killed after the job finished: the next start does not run it again.
      await server.crash();
      const zipPath = join(store.filesDir, 'exports', `${exportCode}.zip`);
      const before = { mtime: statSync(zipPath).mtimeMs, bytes: sha256(readFileSync(zipPath)) };
      const jobOf = (db: Db) =>
        db.query<{ status: string; attempts: number }>(
          `SELECT status, attempts FROM jobs
            WHERE kind = 'packExport' AND payload->>'exportId' = (SELECT id::text FROM exports WHERE code = $1)`,
          [exportCode],
        );
      // Run twice: by the process that died, and to the end by the one that took it over.
      expect(await withDb(store, jobOf)).toEqual([{ status: 'done', attempts: 2 }]);
      server = await startChildServer(store, JOB_LEASE);
      await sleep(2500); // past the recovery at start, a poll and the lease
      await server.stop();
      expect({ mtime: statSync(zipPath).mtimeMs, bytes: sha256(readFileSync(zipPath)) }).toEqual(before);
      await withDb(store, async (db) => {
        expect(await jobOf(db)).toEqual([{ status: 'done', attempts: 2 }]);
        await expectConsistent(db, store.filesDir, { settled: true });
      });
      console.log(`export crash points: ${points.join('; ')}; after the job finished`);
    } finally {
      await store.drop();
    }
  }, 180_000);
});

describe('work queued with its job', () => {
  it.skipIf(testDbKind() !== 'postgres')(
    'killed while an export and a model wait to queue their jobs loses neither (PostgreSQL: a lock holds them there)',
    async () => {
      const store = await childDatabase();
      const { clinic, scans } = await withDb(store, async (db) => {
        const { clinic } = await practice(db);
        return { clinic, scans: await caseWithFiles(db, store.filesDir, clinic.organizationId, [200_000]) };
      });
      const stl = binaryStl(20_000);
      const watcher = postgresDb(store.databaseUrl!, 1);
      // Another connection looks on while the watcher holds the lock.
      const observer = postgresDb(store.databaseUrl!, 1);
      try {
        let server = await startChildServer(store, JOB_LEASE);
        const token = await signIn(server.baseUrl, clinic.account);
        const caseCode = (
          await callChild(server.baseUrl, 'case/create', { name: 'Arch', patientName: 'Ida Berg' }, token)
        ).data.caseCode;
        let uploadId = '';
        // Nothing can add a job while the lock is held: both requests stop where they queue theirs (the server's own
        // job loops wait too, so the waiting statements are told by their text), and are killed there.
        await watcher.transaction(async (tx) => {
          await tx.query('LOCK TABLE jobs IN SHARE ROW EXCLUSIVE MODE');
          const exporting = callChild(
            server.baseUrl,
            'export/create',
            { caseCodes: [scans.code], types: ['stl'] },
            token,
          );
          exporting.catch(() => undefined);
          const upload = tusUpload(server.baseUrl, token, stl, { caseCode, filename: 'arch.stl' });
          uploadId = (await upload.url).split('/').pop()!;
          const waiting = async () => {
            const [row] = await observer.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                 JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE a.datname = current_database() AND c.relname = 'jobs' AND NOT l.granted
                  AND a.query LIKE 'INSERT INTO jobs%'`,
            );
            return row!.n;
          };
          expect(await killWhen(server, async () => (await waiting()) >= 2)).toBe(true);
          upload.abort();
          // PostgreSQL would still run a statement the dead process had sent; ended with their connections, the
          // waiting statements stand for those the process had not sent yet. Only this database's: the other suites
          // share the server, and their idle connections show their last statement too.
          await observer.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE datname = current_database() AND query LIKE 'INSERT INTO jobs%' AND pid <> pg_backend_pid()`,
          );
        });
        await withDb(store, (db) => expectConsistent(db, store.filesDir));

        // Started again: the upload resumes to its file (and its viewer version), the export is made again and packed.
        server = await startChildServer(store, JOB_LEASE);
        await tusUpload(
          server.baseUrl,
          token,
          stl,
          { caseCode, filename: 'arch.stl' },
          `${server.baseUrl}/api/v2/files/tus/${uploadId}`,
        ).done;
        const made = await callChild(
          server.baseUrl,
          'export/create',
          { caseCodes: [scans.code], types: ['stl'] },
          token,
        );
        let viewer = '';
        let exported = 0;
        for (let i = 0; i < 300 && (viewer !== 'ready' || exported !== 1); i++) {
          viewer = (await callChild(server.baseUrl, 'case/detail', { caseCode }, token)).data.files[0]?.viewerStatus;
          exported = (await callChild(server.baseUrl, 'export/status', { exportCode: made.data.exportCode }, token))
            .data.status;
          await sleep(100);
        }
        expect({ viewer, exported }).toEqual({ viewer: 'ready', exported: 1 });
        await server.stop();
        await withDb(store, (db) => expectConsistent(db, store.filesDir, { settled: true }));
      } finally {
        await watcher.close();
        await observer.close();
        await store.drop();
      }
    },
    120_000,
  );
});

describe('a batch order action', () => {
  const ORDERS = 1000;

  /** Many pending orders of the clinic at the laboratory, written straight into the database. */
  async function seedOrders(db: Db) {
    const { clinic, lab, admin, partnershipId } = await practice(db);
    const prefix = newCode('');
    await db.query(
      `INSERT INTO cases (code, organization_id, name, patient_name, status)
       SELECT 'c' || $2 || '-' || i, $1, 'Crown ' || i, 'Patient ' || i, 'sent' FROM generate_series(1, $3) i`,
      [clinic.organizationId, prefix, ORDERS],
    );
    await db.query(
      `INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types)
       SELECT 'o' || $4 || '-' || i, $1, $2, $3, c.id, 'restoration', '{Crown}'
         FROM generate_series(1, $5) i JOIN cases c ON c.code = 'c' || $4 || '-' || i`,
      [clinic.organizationId, lab.organizationId, partnershipId, prefix, ORDERS],
    );
    const codes = await db.query<{ code: string }>('SELECT code FROM orders ORDER BY id');
    return { clinic, lab, admin, orderCodes: codes.map((c) => c.code) };
  }

  it('killed half-way leaves every accepted order whole, with its notification, and mails them after the restart', async () => {
    const store = await childDatabase();
    const fixture = await withDb(store, seedOrders);
    const points: string[] = [];
    try {
      let accepted = 0;
      // Killed after a random delay; when it landed before or after the batch, everything is put back and the delay
      // moves towards the middle.
      let delayMs = Math.round(rand.between(800, 2500));
      for (let attempt = 0; attempt < 5; attempt++) {
        const server = await startChildServer(store);
        const token = await signIn(server.baseUrl, fixture.lab.account);
        const pending = fetch(`${server.baseUrl}/api/v2/order/action`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ orderCodes: fixture.orderCodes, action: 'accept' }),
        }).catch(() => 'killed');
        await sleep(delayMs);
        await server.crash();
        // A batch that finished before the kill counts as landing after it: everything is put back, the delay shrinks.
        await pending;

        const landed = await withDb(store, async (db) => {
          const [row] = await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM orders WHERE status = 'accepted'`,
          );
          accepted = row!.n;
          points.push(`after ${delayMs} ms: ${accepted} of ${ORDERS} accepted`);
          if (accepted > 0 && accepted < ORDERS) {
            await expectConsistent(db, store.filesDir);
            // Make the notifications look old enough for the restart's sweep (it leaves the last minute's alone).
            await db.query(`UPDATE notifications SET created_at = created_at - interval '5 minutes'`);
            return true;
          }
          // A batch that finished before the kill has mailed the clinic: that mail goes too.
          await db.query(`DELETE FROM notifications`);
          await db.query(`DELETE FROM mail_outbox`);
          await db.query(`DELETE FROM order_events`);
          await db.query(`UPDATE orders SET status = 'pending'`);
          await db.query(`UPDATE cases SET status = 'sent'`);
          return false;
        });
        if (landed) break;
        delayMs = accepted === 0 ? delayMs * 2 : Math.max(100, Math.round(delayMs / 3));
      }
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(ORDERS);

      // Back up: the sweep mails what the crash left behind, one mail listing the accepted orders.
      const server = await startChildServer(store);
      try {
        const admin = await signIn(server.baseUrl, fixture.admin.account);
        let mails: Array<{ to: string; text: string }> = [];
        for (let i = 0; i < 100 && mails.length === 0; i++) {
          const outbox = await callChild(server.baseUrl, 'mail/listOutbox', { pageSize: 10 }, admin);
          mails = outbox.data.list.filter((m: { to: string }) => m.to === fixture.clinic.email);
          if (!mails.length) await sleep(100);
        }
        expect(mails).toHaveLength(1);
        expect(mails[0]!.text).toContain(String(accepted));
      } finally {
        await server.stop();
      }
      await withDb(store, async (db) => {
        const [left] = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM notifications WHERE mail_batch IS NOT NULL',
        );
        expect(left!.n).toBe(0);
        await expectConsistent(db, store.filesDir, { settled: true });
      });
      console.log(`batch order action crash points: ${points.join('; ')}`);
    } finally {
      await store.drop();
    }
  }, 180_000);
});

describe('a purge', () => {
  const SMALL = 100;
  const ORDERED = 20;
  const BIG_FILES = 2000;

  it('killed mid-way (by hand, then in the retention run at start) leaves no case half-purged and no bytes behind', async () => {
    const store = await childDatabase();
    // Cases are purged in the order they were made. Three hold many files, so that deleting their bytes after their
    // commit takes several milliseconds (with 400 files a fast machine had deleted them all before the kill landed):
    // the kills land right after those commits, at a random place in each run (the third only when neither of the
    // first two landed before the bytes were deleted).
    const bigAt = [rand.between(5, 40), rand.between(45, 70), rand.between(75, SMALL)].map(Math.floor);
    const seeded = await withDb(store, async (db) => {
      const { clinic, lab, partnershipId } = await practice(db);
      const cases = [];
      for (let i = 0; i <= SMALL; i++) {
        const sizes = bigAt.includes(i)
          ? Array.from({ length: BIG_FILES }, () => Math.floor(rand.between(1_000, 3_000)))
          : Array.from({ length: 3 }, () => Math.floor(rand.between(2_000, 12_000)));
        cases.push(await caseWithFiles(db, store.filesDir, clinic.organizationId, sizes));
      }
      // Some cases were ordered: purging them leaves a tombstone for the laboratory's records.
      for (const c of cases.slice(0, ORDERED)) {
        await db.query(
          `INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types, status)
           VALUES ($1, $2, $3, $4, $5, 'restoration', '{Crown}', 'completed')`,
          [newCode('o'), clinic.organizationId, lab.organizationId, partnershipId, c.id],
        );
        await db.query(`UPDATE cases SET status = 'completed' WHERE id = $1`, [c.id]);
      }
      await db.query(`UPDATE cases SET deleted_at = now() WHERE organization_id = $1`, [clinic.organizationId]);
      return { clinic, cases };
    });
    const total = seeded.cases.length;
    const ordered = new Set(seeded.cases.slice(0, ORDERED).map((c) => c.id));
    const allKeys = seeded.cases.flatMap((c) => c.files.map((f) => f.key));
    const onDisk = (keys: string[]) => keys.filter((k) => blobSize(store.filesDir, k) >= 0).length;
    const firstGone = (c: (typeof seeded.cases)[number]) => () => blobSize(store.filesDir, c.files[0]!.key) < 0;
    const points: string[] = [];

    /** Every case is gone, a tombstone without files (ordered ones), or still binned with all its files. */
    async function expectNoHalfPurge(db: Db) {
      const rows = await db.query<{ id: number; purged: boolean; files: number }>(
        `SELECT c.id, c.purged_at IS NOT NULL AS purged, (SELECT count(*)::int FROM files f WHERE f.case_id = c.id) AS files
           FROM cases c WHERE c.id = ANY ($1::bigint[])`,
        [seeded.cases.map((c) => c.id)],
      );
      for (const c of seeded.cases) {
        const row = rows.find((r) => Number(r.id) === c.id);
        if (!row) expect(ordered.has(c.id), `case ${c.id} is gone though ordered`).toBe(false);
        else expect(row.files, `case ${c.id}`).toBe(row.purged ? 0 : c.files.length);
      }
      await expectConsistent(db, store.filesDir);
      const binned = seeded.cases.filter((c) => rows.some((r) => Number(r.id) === c.id && !r.purged));
      // Bytes of purged files that were still in the store at the kill: listed, so that they are swept.
      const lingering = [...(await blobsToDelete(db))].filter((k) => blobSize(store.filesDir, k) >= 0).length;
      return { binned, purged: total - binned.length, lingering };
    }

    try {
      // 1. Emptying the recycle bin by hand, killed while the first big case's bytes are being deleted.
      let server = await startChildServer(store);
      const token = await signIn(server.baseUrl, seeded.clinic.account);
      const purging = callChild(server.baseUrl, 'case/recycleBin/empty', {}, token).catch(() => 'killed');
      expect(await killWhen(server, firstGone(seeded.cases[bigAt[0]!]!), { busy: true })).toBe(true);
      expect(await purging).toBe('killed');
      let state = await withDb(store, async (db) => {
        const s = await expectNoHalfPurge(db);
        // What is left waits for the retention: binned long enough ago.
        await db.query(`UPDATE cases SET deleted_at = now() - interval '40 days' WHERE deleted_at IS NOT NULL`);
        return s;
      });
      points.push(
        `by hand after case ${bigAt[0]! + 1} of ${total}: ${state.purged} purged, ${state.lingering} blobs of purged files still stored`,
      );
      expect(state.purged).toBeGreaterThan(0);
      expect(state.purged).toBeLessThan(total);
      let lingered = state.lingering;

      // 2. The retention purge that runs at start-up, killed while the next big case's bytes are being deleted.
      for (const at of bigAt.slice(1)) {
        if (at === bigAt[2] && lingered > 0) break;
        const spawned = await spawnChildServer(store);
        expect(await killWhen(spawned.server, firstGone(seeded.cases[at]!), { busy: true })).toBe(true);
        const before = state.purged;
        state = await withDb(store, expectNoHalfPurge);
        points.push(
          `retention at start after case ${at + 1}: ${state.purged - before} more purged, ${state.lingering} blobs of purged files still stored`,
        );
        expect(state.purged).toBeGreaterThan(before);
        expect(state.purged).toBeLessThan(total);
        lingered += state.lingering;
      }
      // A kill landed between a commit and the deletion of its bytes: the case the sweep is for.
      expect(lingered).toBeGreaterThan(0);

      // 3. Started again: the retention finishes the rest, the listed bytes are swept, emptying the bin finds nothing.
      server = await startChildServer(store);
      for (let i = 0; i < 300; i++) {
        const bin = await callChild(server.baseUrl, 'case/recycleBin', { pageNum: 1, pageSize: 10 }, token);
        if (bin.data.total === 0 && onDisk(allKeys) === 0) break;
        await sleep(100);
      }
      expect((await callChild(server.baseUrl, 'case/recycleBin/empty', {}, token)).data.count).toBe(0);
      await server.stop();
      await withDb(store, async (db) => {
        const s = await expectNoHalfPurge(db);
        expect(s.purged).toBe(total);
        expect(onDisk(allKeys), 'the bytes of every purged file are gone').toBe(0);
        expect([...(await blobsToDelete(db))]).toEqual([]);
        await expectConsistent(db, store.filesDir, { settled: true });
      });
      console.log(`purge crash points: ${points.join('; ')}`);
    } finally {
      await store.drop();
    }
  }, 180_000);
});

/** The schema as PostgreSQL describes it: columns, indexes, constraints, triggers, functions. */
async function schemaOf(db: Db): Promise<string[]> {
  const rows = await db.query<{ item: string }>(
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '') AS item
       FROM information_schema.columns WHERE table_schema = 'public'
     UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
     UNION ALL SELECT 'function ' || proname || '(' || pg_get_function_identity_arguments(oid) || ')'
       FROM pg_proc WHERE pronamespace = 'public'::regnamespace
     ORDER BY 1`,
  );
  return rows.map((r) => r.item);
}

/** Rows per table (what the migrations insert: roles, menus, agreements…), but the upkeep's own records. */
async function rowsOf(db: Db): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('job_runs', 'schema_migrations')
      ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const t of tables)
    counts[t.name] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t.name}"`))[0]!.n;
  return counts;
}

async function appliedMigrations(db: Db): Promise<string[] | null> {
  const [exists] = await db.query<{ t: string | null }>(`SELECT to_regclass('public.schema_migrations')::text AS t`);
  if (!exists?.t) return null;
  return (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
}

describe('the migrations of a fresh database', () => {
  it('killed mid-way are each applied once after the restart, and the schema is complete', async () => {
    const files = migrationNames();
    const points: string[] = [];
    let store: Awaited<ReturnType<typeof childDatabase>> | undefined;
    let applied: string[] | null = null;
    try {
      if (testDbKind() === 'postgres') {
        // Watched from another connection: killed once a random number of them committed.
        for (let attempt = 0; attempt < 3; attempt++) {
          store = await childDatabase({ fresh: true });
          const k = Math.floor(rand.between(1, files.length));
          const watcher = postgresDb(store.databaseUrl!, 1);
          const { server } = await spawnChildServer(store);
          await killWhen(server, async () => ((await appliedMigrations(watcher))?.length ?? 0) >= k, { busy: true });
          await watcher.close();
          applied = await withDb(store, appliedMigrations, { migrate: false });
          points.push(`after ${applied?.length ?? 0} of ${files.length} (aimed after ${k})`);
          if (applied && applied.length > 0 && applied.length < files.length) break;
          await store.drop();
          store = undefined;
        }
      } else {
        // The embedded database has one process at a time, so no connection can watch the migrations; its folder
        // can. First killed while the folder is being made (a random moment after it appears), the next start must
        // make it again. Then killed once a random number of relation files appeared: in a migration or between two.
        const folder = join((store = await childDatabase({ fresh: true })).dataDir, 'pglite');
        const first = await spawnChildServer(store);
        await until(() => existsSync(`${folder}.new`) || existsSync(folder));
        const during = Math.round(rand.between(0, 1500));
        await sleep(during);
        await first.server.crash();
        points.push(
          `${during} ms into the making of the data folder${existsSync(folder) ? ' (it was made already)' : ''}`,
        );
        const relationFiles = (dir: string) =>
          readdirSync(join(dir, 'base')).reduce((n, db) => n + readdirSync(join(dir, 'base', db)).length, 0);
        let grown = Math.floor(rand.between(5, 150));
        for (let attempt = 0; attempt < 4; attempt++) {
          store ??= await childDatabase({ fresh: true });
          const dir = join(store.dataDir, 'pglite');
          const { server } = await spawnChildServer(store);
          await until(() => existsSync(dir));
          const made = relationFiles(dir);
          await killWhen(server, () => relationFiles(dir) >= made + grown, { busy: true });
          applied = await withDb(store, appliedMigrations, { migrate: false });
          // The relation files appeared, so the migrations had begun: mid-way unless all were in.
          points.push(`after ${grown} new relation files: ${applied?.length ?? 0} of ${files.length} applied`);
          if (applied && applied.length < files.length) break;
          grown = Math.ceil(grown / 2); // all were in before the kill
          await store.drop();
          store = undefined;
        }
      }
      expect(store, `a kill landed mid-migration (${points.join('; ')})`).toBeDefined();
      expect(applied!.length).toBeLessThan(files.length);
      // Each migration is in or out whole: the schema is exactly the one of the migrations recorded.
      expect(applied).toEqual(files.slice(0, applied!.length));
      const prefix = testDbKind() === 'postgres' ? await childDatabase({ fresh: true }) : undefined;
      const reference = prefix ? await prefix.open({ migrate: false }) : pgliteDb(await PGlite.create());
      try {
        for (const file of applied!) {
          if (Object.hasOwn(DATA_MIGRATIONS, file)) {
            await DATA_MIGRATIONS[file]!(reference);
            continue;
          }
          const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
          await reference.transaction(async (tx) => {
            for (const statement of sql.split(/^--;\s*$/m)) if (statement.trim()) await tx.query(statement);
          });
        }
        const killed = await withDb(store!, schemaOf, { migrate: false });
        expect(killed.filter((item) => !item.includes('schema_migrations'))).toEqual(await schemaOf(reference));
      } finally {
        await reference.close();
        await prefix?.drop();
      }

      // Started again: the rest is applied, each once, and the database is the one a start without a crash makes.
      const server = await startChildServer(store!);
      await server.stop();
      const migrated = await freshDb();
      try {
        const [schema, rows] = [await schemaOf(migrated), await rowsOf(migrated)];
        await withDb(
          store!,
          async (db) => {
            expect(await appliedMigrations(db)).toEqual(files);
            expect(await schemaOf(db)).toEqual(schema);
            expect(await rowsOf(db)).toEqual(rows);
          },
          { migrate: false },
        );
      } finally {
        await migrated.close();
      }
      console.log(`migration crash points: ${points.join('; ')}`);
    } finally {
      await store?.drop();
    }
  }, 180_000);
});
