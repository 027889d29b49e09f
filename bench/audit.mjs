// The patient-data access log's cost: `case/detail` (which writes an entry before it answers) against the same call
// on the same server and database while the log's inserts are turned into no-ops by a trigger (the statement still
// travels to PostgreSQL; no row, index entry or WAL record is written), in the same run, in alternating rounds.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { apiClient, fmtLoad, freshDatabase, load, login, startPortal } from './portal-lib.mjs';

const CONCURRENCY = Number(process.env.BENCH_AUDIT_CONCURRENCY ?? 16);
const ROUNDS = 3;
// A row trigger answering NULL skips the row: looked up at each execution, unlike a rule, which a server's prepared
// statement would keep after the rule is dropped.
const SKIP_ON =
  'CREATE TRIGGER access_log_bench_skip BEFORE INSERT ON access_log FOR EACH ROW EXECUTE FUNCTION access_log_bench_skip()';
const SKIP_OFF = 'DROP TRIGGER access_log_bench_skip ON access_log';

export async function auditBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_audit');
  const portal = await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const clinic = apiClient(portal.base, await login(portal.base, 'clinic'));
    const codes = [];
    for (let i = 0; i < 20; i++)
      codes.push((await clinic('case/create', { name: `Audit ${i}`, patientName: `Patient ${i}` })).caseCode);
    const detail = (i) => clinic('case/detail', { caseCode: codes[i % codes.length] });
    // Warmed up first: the server's code is compiled and the pool's connections are open before anything is timed.
    await load(detail, { concurrency: CONCURRENCY, seconds: 5 });
    const entries = async () => (await db.query('SELECT count(*)::int AS n FROM access_log')).rows[0].n;

    // Alternating rounds, each BENCH_SECONDS: with the log, then with the insert made a no-op; the median round of
    // each is reported (a fresh database's first minutes, its checkpoints and autovacuum land on either side).
    await db.query(
      `CREATE FUNCTION access_log_bench_skip() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
    );
    const rounds = { with: [], without: [] };
    const before = await entries();
    for (let round = 0; round < ROUNDS; round++) {
      rounds.with.push(await load(detail, { concurrency: CONCURRENCY }));
      await db.query(SKIP_ON);
      rounds.without.push(await load(detail, { concurrency: CONCURRENCY }));
      await db.query(SKIP_OFF);
    }
    const written = (await entries()) - before;
    const read = rounds.with.reduce((n, r) => n + r.count, 0);
    if (written !== read) throw new Error(`audit bench: ${read} readings but ${written} entries`);
    const median = (list) => [...list].sort((a, b) => a.p95 - b.p95)[Math.floor(list.length / 2)];
    const each = (list) => list.map((r) => r.p95.toFixed(1)).join(' / ');

    return [
      [
        `audit: case/detail writing its access-log entry (${CONCURRENCY} at a time, median of ${ROUNDS} rounds; ${written} entries)`,
        `${fmtLoad(median(rounds.with))} (p95 of each round: ${each(rounds.with)})`,
        `the entry's insert made a no-op, alternating: ${fmtLoad(median(rounds.without))} (${each(rounds.without)})`,
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
