import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CASE_FOLLOWS_RANK, CASE_STATUS_BY_ORDER, OrgType } from '@portal/contracts';
import type { Db } from '../src/platform/db.js';
import { newCode } from '../src/platform/crypto.js';
import { storageRepository } from '../src/modules/files/files.repository.js';
import { createUser } from './harness.js';
import type { ChildServer } from './child-server.js';

/**
 * Kill points are drawn from one seed, printed so that a failing run can be repeated with CRASH_SEED=<seed>.
 * (mulberry32: small, fast, and the same sequence on every platform.)
 */
export function seededRandom(label: string) {
  const seed = Number(process.env.CRASH_SEED) || randomInt(1, 2 ** 31);
  console.log(`${label}: seed ${seed} (CRASH_SEED=${seed} repeats these kill points)`);
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, next, between: (lo: number, hi: number) => lo + (hi - lo) * next() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Watches `reached` and kills the server with SIGKILL the moment it holds: about every millisecond, or as often as
 * the event loop turns with `busy` (for windows of a millisecond or two). Answers false when it never held within
 * the time (the server is killed anyway).
 */
export async function killWhen(
  server: ChildServer,
  reached: () => boolean | Promise<boolean>,
  opts: { timeoutMs?: number; busy?: boolean } = {},
) {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (await reached()) {
      await server.crash();
      return true;
    }
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server stopped by itself:\n${server.output()}`);
    await (opts.busy ? new Promise((r) => setImmediate(r)) : sleep(1));
  }
  await server.crash();
  return false;
}

/** The size of a blob of the local store, or -1 when it does not exist. */
export function blobSize(filesDir: string, key: string) {
  try {
    return statSync(join(filesDir, key)).size;
  } catch {
    return -1;
  }
}

/** Every blob of the local store, as keys (`uploads/…`, `exports/…`). */
export function blobsOnDisk(filesDir: string): string[] {
  const keys: string[] = [];
  for (const folder of ['uploads', 'viewer', 'exports', 'attachments']) {
    let names: string[] = [];
    try {
      names = readdirSync(join(filesDir, folder));
    } catch {
      continue;
    }
    keys.push(...names.map((n) => `${folder}/${n}`));
  }
  return keys;
}

/** A clinic and a laboratory in partnership, and a super administrator, written straight into the database. */
export async function practice(db: Db) {
  const clinic = await createUser(db, { orgType: OrgType.Clinic });
  const lab = await createUser(db, { orgType: OrgType.Lab });
  const admin = await createUser(db, { orgType: OrgType.Inner });
  const [p] = await db.query<{ id: number }>(
    `INSERT INTO partnerships (code, clinic_organization_id, lab_organization_id, status, initiator_organization_id)
     VALUES ($1, $2, $3, 1, $2) RETURNING id`,
    [newCode('p'), clinic.organizationId, lab.organizationId],
  );
  return { clinic, lab, admin, partnershipId: Number(p!.id) };
}

/**
 * A case of the organization with files of the given sizes: their bytes in the local store and their rows (and the
 * storage they use) in the database, as finished uploads leave them. Answers the case and each file's key and bytes.
 */
export async function caseWithFiles(
  db: Db,
  filesDir: string,
  orgId: number,
  sizes: number[],
  opts: { name?: string; format?: string } = {},
) {
  const code = newCode('c');
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO cases (code, organization_id, name, patient_name, status) VALUES ($1, $2, $3, 'Ida Berg', 'uploaded')
     RETURNING id`,
    [code, orgId, opts.name ?? `Case ${code}`],
  );
  mkdirSync(join(filesDir, 'uploads'), { recursive: true });
  const files = sizes.map((size, i) => ({
    key: `uploads/${newCode('up')}${newCode('')}`,
    name: `scan-${i + 1}.${opts.format ?? 'stl'}`,
    bytes: randomBytes(size),
  }));
  for (const f of files) writeFileSync(join(filesDir, f.key), f.bytes);
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  // One statement for the rows, then the case's totals and the organization's usage, as filesRepository.insert does.
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO files (code, organization_id, case_id, name, format, kind, size, storage_key, viewer_status)
       SELECT 'f' || substr(md5(random()::text), 1, 16), $1, $2, f.name, $3, 'model', f.size, f.key, 'none'
         FROM unnest($4::text[], $5::bigint[], $6::text[]) AS f (name, size, key)`,
      [orgId, c!.id, opts.format ?? 'stl', files.map((f) => f.name), sizes, files.map((f) => f.key)],
    );
    await tx.query('UPDATE cases SET file_count = $2, file_bytes = $3 WHERE id = $1', [c!.id, sizes.length, bytes]);
    await storageRepository.add(tx, orgId, bytes);
  });
  return { id: Number(c!.id), code, files };
}

/** The blob keys the database accounts for: files, viewer versions, exports, attachments, unfinished uploads. */
export async function referencedBlobs(db: Db): Promise<Set<string>> {
  const rows = await db.query<{ key: string }>(
    `SELECT storage_key AS key FROM files
     UNION ALL SELECT viewer_key FROM files WHERE viewer_key IS NOT NULL
     UNION ALL SELECT storage_key FROM exports WHERE storage_key IS NOT NULL
     UNION ALL SELECT storage_key FROM order_attachments
     UNION ALL SELECT 'uploads/' || id FROM uploads`,
  );
  return new Set(rows.map((r) => r.key));
}

/** Blobs whose rows are gone and that wait in the list of deletions (deleted after the commit, or swept). */
export async function blobsToDelete(db: Db): Promise<Set<string>> {
  return new Set((await db.query<{ key: string }>('SELECT key FROM blob_deletions')).map((r) => r.key));
}

/**
 * What must hold after any crash, checked with SQL on the reopened database and on the store's folder:
 * - every organization's `used_bytes` is the sum of its files and order attachments;
 * - every case's file count and bytes are its files'; a purged case (tombstone) has none;
 * - every order event has its notifications (one per active user of the other side), every case the status of the
 *   order it follows (CASE_FOLLOWS_RANK);
 * - every file's bytes are in the store, whole; every blob in the store is accounted for (a row, or the list of
 *   deletions); half-written blobs (`.part`) only while work is unfinished;
 * - every export, and every model waiting for its viewer version, has its job;
 * - `settled`: no job is waiting or running.
 */
export async function expectConsistent(db: Db, filesDir: string, opts: { settled?: boolean } = {}) {
  const storage = await db.query(
    `SELECT o.id, COALESCE(s.used_bytes, 0)::bigint AS used, (COALESCE(f.bytes, 0) + COALESCE(a.bytes, 0))::bigint AS actual
       FROM organizations o
       LEFT JOIN storage_accounts s ON s.organization_id = o.id
       LEFT JOIN (SELECT organization_id, sum(size) AS bytes FROM files GROUP BY 1) f ON f.organization_id = o.id
       LEFT JOIN (SELECT organization_id, sum(size) AS bytes FROM order_attachments GROUP BY 1) a ON a.organization_id = o.id
      WHERE COALESCE(s.used_bytes, 0) <> COALESCE(f.bytes, 0) + COALESCE(a.bytes, 0)`,
  );
  expect(storage, 'storage used = sum of file sizes').toEqual([]);

  const counters = await db.query(
    `SELECT c.id, c.file_count, c.file_bytes, f.n, f.bytes
       FROM cases c LEFT JOIN (SELECT case_id, count(*) AS n, sum(size) AS bytes FROM files GROUP BY 1) f ON f.case_id = c.id
      WHERE c.file_count <> COALESCE(f.n, 0) OR c.file_bytes <> COALESCE(f.bytes, 0)
         OR (c.purged_at IS NOT NULL AND f.n IS NOT NULL)`,
  );
  expect(counters, "each case's files are whole (and a purged case has none)").toEqual([]);

  const unnotified = await db.query(
    `SELECT e.order_id, e.action, e.expected, COALESCE(n.n, 0) AS notified
       FROM (SELECT e.order_id, e.action,
                    sum((SELECT count(*) FROM users u WHERE u.status = 1 AND u.organization_id =
                           CASE WHEN o.clinic_organization_id = e.actor_organization_id THEN o.lab_organization_id
                                ELSE o.clinic_organization_id END))::int AS expected
               FROM order_events e JOIN orders o ON o.id = e.order_id GROUP BY e.order_id, e.action) e
       LEFT JOIN (SELECT order_id, event, count(*)::int AS n FROM notifications GROUP BY 1, 2) n
              ON n.order_id = e.order_id AND n.event = e.action
      WHERE e.expected <> COALESCE(n.n, 0)
      LIMIT 5`,
  );
  expect(unnotified, 'every order event has its notifications').toEqual([]);

  const behind = await db.query(
    `SELECT c.id, c.status, o.status AS order_status
       FROM cases c JOIN LATERAL (SELECT status FROM orders WHERE case_id = c.id
                                   ORDER BY ($1::jsonb ->> status)::int DESC, id DESC LIMIT 1) o ON true
      WHERE c.purged_at IS NULL AND c.status <> $2::jsonb ->> o.status
      LIMIT 5`,
    [JSON.stringify(CASE_FOLLOWS_RANK), JSON.stringify(CASE_STATUS_BY_ORDER)],
  );
  expect(behind, 'every case has the status of the order it follows').toEqual([]);

  const files = await db.query<{ storage_key: string; size: string }>('SELECT storage_key, size FROM files');
  const broken = files.filter((f) => blobSize(filesDir, f.storage_key) !== Number(f.size));
  expect(broken, "every file's bytes are whole in the store").toEqual([]);

  const known = await referencedBlobs(db);
  const listed = await blobsToDelete(db);
  const unaccounted = blobsOnDisk(filesDir).filter((key) => {
    const base = key.replace(/\.(json|part)$/, '');
    if (key.endsWith('.part')) return opts.settled === true;
    return !known.has(base) && !listed.has(base);
  });
  expect(unaccounted, 'every blob in the store is a row or listed for deletion').toEqual([]);

  const jobless = await db.query(
    `SELECT 'export' AS what, e.id FROM exports e
      WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'packExport' AND j.payload->>'exportId' = e.id::text)
     UNION ALL
     SELECT 'viewer', f.id FROM files f
      WHERE f.viewer_status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'prepareModel' AND j.payload->>'fileId' = f.id::text
                          AND j.status IN ('queued', 'running'))`,
  );
  expect(jobless, 'every export and every model waiting for its viewer version has its job').toEqual([]);

  if (opts.settled) {
    const open = await db.query(`SELECT id, kind, status FROM jobs WHERE status IN ('queued', 'running')`);
    expect(open, 'no job waiting or running').toEqual([]);
  }
}
