// Backup and restore of a whole site (docs/operations.md, "Backup and restore") against the usual tools, same run:
// on PostgreSQL `npm run backup`/`npm run restore` of BENCH_BACKUP_CASES cases (1,000,000) and BENCH_BACKUP_GB of
// files (2) against `pg_dump -Fc` / `pg_restore` of the same database plus `tar` of the same files; on the embedded
// database BENCH_BACKUP_PGLITE_CASES cases (100,000) against copying its data folder (what a stopped site's copy
// is). Time and peak resident memory of each command.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freshDatabase, startPortal } from './portal-lib.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'apps/server/dist/backup.js');
const CASES = Number(process.env.BENCH_BACKUP_CASES ?? 1_000_000);
const PGLITE_CASES = Number(process.env.BENCH_BACKUP_PGLITE_CASES ?? 100_000);
const FILE_GB = Number(process.env.BENCH_BACKUP_GB ?? 2);
const FILE_MB = 16;
const SECRET = 'backup-bench-secret-that-is-long-enough-0123456789';

/** Runs a command to its end: wall time and the peak resident memory GNU time reports (kB). */
function timed(cmd, args, env = {}) {
  return new Promise((ok, fail) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', cmd, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const lines = err.trim().split('\n');
      const peakMb = Number(lines.at(-1)) / 1024;
      if (code !== 0) fail(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}\n${err}`));
      else ok({ seconds, peakMb, out });
    });
  });
}

const fmt = (r) => `${r.seconds.toFixed(1)} s, peak ${r.peakMb.toFixed(0)} MB`;
const size = (path) => `${(statSync(path).size / 1024 ** 2).toFixed(0)} MB`;

/** The demo's clinic with `count` more cases, as the case-list benchmark makes them. */
async function addCases(query, count) {
  const [{ clinic }] = await query(`SELECT organization_id AS clinic FROM users WHERE account = 'clinic'`);
  await query(`
    INSERT INTO cases (code, organization_id, name, patient_name, patient_id, birth_date, scan_date, treatments, status)
    SELECT 'b' || g, ${clinic}, 'Case ' || g,
           (ARRAY['Anna','Ben','Clara','David','Eva'])[1 + g % 5] || ' ' || (ARRAY['Keller','Lang','Maier','Novak'])[1 + g % 4] || ' ' || g,
           'P-' || g, date '1950-01-01' + (g % 20000), now() - ((g % 365) || ' days')::interval,
           ARRAY[(ARRAY['Crown','Veneer','Inlay','Pontic'])[1 + g % 4]], 'uploaded'
      FROM generate_series(1, ${count}) g`);
}

/** FILE_GB of incompressible files in a local store, as scans are to gzip. */
function addFiles(filesDir) {
  mkdirSync(join(filesDir, 'uploads'), { recursive: true });
  const count = Math.round((FILE_GB * 1024) / FILE_MB);
  const block = randomBytes(FILE_MB * 1024 * 1024);
  for (let i = 0; i < count; i++) {
    block.writeUInt32LE(i, 0);
    writeFileSync(join(filesDir, 'uploads', `bench${String(i).padStart(5, '0')}`), block);
  }
  return count;
}

export async function backupBench({ adminUrl, start, waitFor, stop, freePort }) {
  const rows = [];
  const work = mkdtempSync(join(tmpdir(), 'portal-bench-backup-'));
  try {
    // PostgreSQL: a seeded site, then the cases and files.
    const source = await freshDatabase(adminUrl, 'portal_bench_backup');
    const portal = await startPortal({ start, waitFor, freePort }, { DATABASE_URL: source.url, JWT_SECRET: SECRET });
    await stop(portal.child);
    const db = new pg.Client({ connectionString: source.url });
    await db.connect();
    await addCases(async (sql) => (await db.query(sql)).rows, CASES);
    await db.query('VACUUM ANALYZE');
    await db.query('CHECKPOINT');
    await db.end();
    const files = addFiles(join(portal.dataDir, 'files'));
    const env = { DATABASE_URL: source.url, DATA_DIR: portal.dataDir, JWT_SECRET: SECRET };

    const archive = join(work, 'site.tar');
    const backup = await timed('node', [CLI, 'backup', '--out', archive], env);
    const dump = join(work, 'site.dump');
    const pgDump = await timed('pg_dump', ['-Fc', '-f', dump, source.url]);
    const filesTar = join(work, 'files.tar');
    const tarFiles = await timed('tar', ['-cf', filesTar, '-C', join(portal.dataDir, 'files'), '.']);

    const target = await freshDatabase(adminUrl, 'portal_bench_restore');
    const targetDir = mkdtempSync(join(work, 'target-'));
    const restore = await timed('node', [CLI, 'restore', '--from', archive], {
      DATABASE_URL: target.url,
      DATA_DIR: targetDir,
      JWT_SECRET: SECRET,
    });
    const baselineDb = await freshDatabase(adminUrl, 'portal_bench_pgrestore');
    const pgRestore = await timed('pg_restore', ['-d', baselineDb.url, dump]);
    const untarDir = mkdtempSync(join(work, 'untar-'));
    const untar = await timed('tar', ['-xf', filesTar, '-C', untarDir]);
    const check = new pg.Client({ connectionString: target.url });
    await check.connect();
    const [{ n }] = (await check.query('SELECT count(*)::int AS n FROM cases')).rows;
    await check.end();
    if (n < CASES) throw new Error(`backup bench: ${n} cases restored of ${CASES}`);
    for (const d of [target, baselineDb, source]) await d.drop();

    const ratio = (a, b) => (a.seconds / b.seconds).toFixed(2);
    const both = (a, b) => ({ seconds: a.seconds + b.seconds, peakMb: Math.max(a.peakMb, b.peakMb) });
    rows.push([
      `backup: npm run backup, PostgreSQL, ${CASES.toLocaleString('en')} cases and ${files} files of ${FILE_MB} MB (archive ${size(archive)})`,
      fmt(backup),
      `pg_dump -Fc ${fmt(pgDump)} (${size(dump)}) + tar of the files ${fmt(tarFiles)}`,
      `ratio ${ratio(backup, both(pgDump, tarFiles))} against both (goal ≤ 2), peak goal ≤ 300 MB`,
    ]);
    rows.push([
      'restore: npm run restore into an empty PostgreSQL database and store',
      fmt(restore),
      `pg_restore ${fmt(pgRestore)} + tar -x ${fmt(untar)}`,
      `ratio ${ratio(restore, both(pgRestore, untar))} against both (goal ≤ 2), peak goal ≤ 300 MB`,
    ]);

    // The embedded database: the command against a copy of the stopped site's data folder.
    const embedded = await startPortal({ start, waitFor, freePort }, { JWT_SECRET: SECRET });
    await stop(embedded.child);
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const lite = await PGlite.create({ dataDir: join(embedded.dataDir, 'pglite'), extensions: { pg_trgm } });
    await addCases(async (sql) => (await lite.query(sql)).rows, PGLITE_CASES);
    await lite.query('CHECKPOINT');
    await lite.close();
    const liteArchive = join(work, 'embedded.tar');
    const liteBackup = await timed('node', [CLI, 'backup', '--out', liteArchive], {
      DATA_DIR: embedded.dataDir,
      JWT_SECRET: SECRET,
    });
    const copy = await timed('cp', ['-r', embedded.dataDir, join(work, 'embedded-copy')]);
    const liteTarget = mkdtempSync(join(work, 'embedded-target-'));
    const liteRestore = await timed('node', [CLI, 'restore', '--from', liteArchive], {
      DATA_DIR: liteTarget,
      JWT_SECRET: SECRET,
    });
    rows.push([
      `backup: npm run backup, embedded database, ${PGLITE_CASES.toLocaleString('en')} cases (archive ${size(liteArchive)})`,
      fmt(liteBackup),
      `copying the stopped site's data folder ${fmt(copy)}`,
      `restore into an empty data folder ${fmt(liteRestore)}`,
    ]);
    rmSync(embedded.dataDir, { recursive: true, force: true });
    rmSync(portal.dataDir, { recursive: true, force: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
