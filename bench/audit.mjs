// The patient-data access log's cost: `case/detail` (which writes an entry before it answers) against the same call
// on the same server and database while the log's inserts are turned into no-ops by a rule (the statement still
// travels to PostgreSQL, no row, index entry or WAL record is written), in the same run. Phases alternate
// with, without, with, so drift shows; both "with" phases are reported.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { apiClient, fmtLoad, freshDatabase, load, login, startPortal } from './portal-lib.mjs';

const CONCURRENCY = Number(process.env.BENCH_AUDIT_CONCURRENCY ?? 16);

export async function auditBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_audit');
  const portal = await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const clinic = apiClient(portal.base, await login(portal.base, 'clinic'));
    const { list } = await clinic('case/list', { pageNum: 1, pageSize: 20 });
    const codes = list.map((c) => c.caseCode);
    const detail = (i) => clinic('case/detail', { caseCode: codes[i % codes.length] });
    for (let i = 0; i < 50; i++) await detail(i);
    const entries = async () => (await db.query('SELECT count(*)::int AS n FROM access_log')).rows[0].n;

    const before = await entries();
    const withLog = await load(detail, { concurrency: CONCURRENCY });
    const written = (await entries()) - before;
    await db.query('CREATE RULE access_log_bench_skip AS ON INSERT TO access_log DO INSTEAD NOTHING');
    const withoutLog = await load(detail, { concurrency: CONCURRENCY });
    await db.query('DROP RULE access_log_bench_skip ON access_log');
    const withLogAgain = await load(detail, { concurrency: CONCURRENCY });
    if (written !== withLog.count) throw new Error(`audit bench: ${withLog.count} readings but ${written} entries`);

    return [
      [
        `audit: case/detail writing its access-log entry (${CONCURRENCY} at a time; ${written} entries)`,
        `${fmtLoad(withLog)}; again after: ${fmtLoad(withLogAgain)}`,
        `the same call with the entry's insert made a no-op: ${fmtLoad(withoutLog)}`,
        'measured',
      ],
    ];
  } finally {
    await db.end();
    await stop(portal.child);
    rmSync(portal.dataDir, { recursive: true, force: true });
    await database.drop();
  }
}
