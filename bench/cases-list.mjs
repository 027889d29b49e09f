// The case list on PostgreSQL with 1,000,000 cases across 1,000 organizations: the default list and a
// patient search at 32 concurrent connections (p95), against the same SQL run directly and through a bare Fastify
// proxy (baselines), with the query plans.
import pg from 'pg';
import {
  SERVER_SESSION,
  fmtMeasured,
  keepAlivePoster,
  listVerdict,
  load,
  measuredLoad,
  planIndexes,
  preparedPlan,
  freshDatabase,
  startBareList,
  startPortal,
} from './portal-lib.mjs';

const CASES = Number(process.env.BENCH_CASES ?? 1_000_000);
const ORGS = 1000;
const CONCURRENCY = 32;

export async function casesListBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_cases');
  const { child, base } = await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url });

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const t0 = performance.now();
  // 999 more organizations beside the demo clinic; cases spread evenly, a year of scan dates.
  await db.query(
    `INSERT INTO organizations (code, name, type, region) SELECT 'bench' || g, 'Clinic ' || g, 2, 'us' FROM generate_series(1, ${ORGS - 1}) g`,
  );
  const [{ clinic }] = (await db.query(`SELECT organization_id AS clinic FROM users WHERE account = 'clinic'`)).rows;
  await db.query(`
    INSERT INTO cases (code, organization_id, name, patient_name, patient_id, birth_date, scan_date, treatments, status)
    SELECT 'b' || g, CASE WHEN g % ${ORGS} = 0 THEN ${clinic} ELSE (SELECT id FROM organizations WHERE code = 'bench' || (g % ${ORGS})) END,
           'Case ' || g, (ARRAY['Anna','Ben','Clara','David','Eva','Felix','Greta','Hugo','Ida','Jonas'])[1 + (g / ${ORGS}) % 10] || ' ' || (ARRAY['Keller','Lang','Maier','Novak','Olsen','Petit','Quinn','Roth','Schulz','Vogt'])[1 + (g / 10) % 10] || ' ' || g,
           'P-' || g, date '1950-01-01' + (g % 20000), now() - ((g % 365) || ' days')::interval - ((g % 1440) || ' minutes')::interval,
           ARRAY[(ARRAY['Crown','Veneer','Inlay','Pontic'])[1 + g % 4]], 'uploaded'
      FROM generate_series(1, ${CASES}) g`);
  // As autovacuum would have by then: statistics and the visibility map for index-only counts.
  await db.query('VACUUM ANALYZE cases');
  // Write the loaded pages out now, not during the measurements.
  await db.query('CHECKPOINT');
  const loadSeconds = (performance.now() - t0) / 1000;

  const login = await (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'clinic', password: 'Dental#2026' }),
    })
  ).json();
  const token = login.data.accessToken;
  const api = keepAlivePoster(base, CONCURRENCY);
  const post = (path, body) => api(path, body, token);
  const from = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
  const defaultList = { pageNum: 1, pageSize: 20, sortField: 'scanDate', sortOrder: 'desc', dateFrom: from };
  const search = { pageNum: 1, pageSize: 20, keyword: 'anna' };

  // The baseline: the list's own statements as the repository writes them, straight to PostgreSQL over a pool of
  // the server's size with the server's session setting (one plan per prepared statement).
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 20,
    onConnect: (client) => client.query(SERVER_SESSION),
  });
  const isoTime = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const columns = `c.id, c.code, c.organization_id, c.name, c.patient_name, c.patient_id, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date,
       ${isoTime('c.scan_date')} AS scan_date, c.dentist_id, d.name AS dentist_name, c.treatments, c.memo, c.status,
       dv.serial_number AS device_serial, ${isoTime('c.created_at')} AS created_at, ${isoTime('c.deleted_at')} AS deleted_at,
       c.file_count, c.file_bytes AS size`;
  const joins = `LEFT JOIN dentists d ON d.id = c.dentist_id LEFT JOIN devices dv ON dv.id = c.device_id`;
  const order = 'COALESCE(c.scan_date, c.created_at) DESC, c.id DESC';
  // The day starts at midnight in the reader's timezone ($2; 'UTC' here, as the API calls send none).
  const where = `c.organization_id = $1 AND c.deleted_at IS NULL AND COALESCE(c.scan_date, c.created_at) >= ((($3)::date)::timestamp AT TIME ZONE $2)`;
  const listSql = `SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM cases c WHERE ${where}) t LEFT JOIN LATERAL (
      SELECT ${columns} FROM cases c ${joins} WHERE ${where} ORDER BY ${order} LIMIT $4 OFFSET $5) p ON true`;
  // The patient search, one statement: the hits of the name and ID prefixes from their indexes, counted and cut.
  const live = 'c.organization_id = $1 AND c.deleted_at IS NULL';
  const prefix = (column) => `lower(${column}) COLLATE "C" >= $2 AND lower(${column}) COLLATE "C" < $3`;
  const searchSql = `WITH hits AS MATERIALIZED (
      SELECT c.id, COALESCE(c.scan_date, c.created_at) AS sort_key FROM cases c WHERE ${live} AND ${prefix('c.patient_name')}
      UNION
      SELECT c.id, COALESCE(c.scan_date, c.created_at) FROM cases c WHERE ${live} AND ${prefix('c.patient_id')})
    SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM hits) t LEFT JOIN LATERAL (
      SELECT ${columns} FROM (SELECT id, sort_key FROM hits ORDER BY sort_key DESC, id DESC LIMIT $4 OFFSET $5) h JOIN cases c ON c.id = h.id ${joins}
       ORDER BY h.sort_key DESC, h.id DESC) p ON true`;
  const searchParams = [clinic, 'anna', 'anna\u{10FFFF}', 20, 0];
  const directList = () => pool.query({ name: 'bl', text: listSql, values: [clinic, 'UTC', from, 20, 0] });
  const directSearch = () => pool.query({ name: 'bs', text: searchSql, values: searchParams });

  // The API answers what the SQL answers.
  const [page, found, apiPage, apiFound] = await Promise.all([
    directList(),
    directSearch(),
    post('case/list', defaultList),
    post('case/list', search),
  ]);
  if (
    apiPage.total !== page.rows[0].total ||
    apiPage.list[0]?.caseCode !== page.rows[0]?.code ||
    apiFound.total !== found.rows[0].total ||
    apiFound.list[0]?.caseCode !== found.rows[0]?.code
  ) {
    throw new Error(
      `case/list disagrees with the SQL: totals ${apiPage.total}/${page.rows[0].total}, search ${apiFound.total}/${found.rows[0].total}`,
    );
  }

  const measure = async (fn, serverPid = child.pid) => {
    await load(fn, { seconds: 3 }); // warm-up; it also fills the pool the measurement accounts for
    return measuredLoad({ db, dbName: 'portal_bench_cases', serverPid }, fn);
  };
  const viaBareProxy = async (sql, values) => {
    const bare = await startBareList({ start, waitFor, freePort }, { databaseUrl: database.url, sql });
    try {
      return await measure(() => bare.list(values), bare.child.pid);
    } finally {
      bare.close();
      await stop(bare.child);
    }
  };
  const sqlOnly = await measure(directList);
  const searchDirect = await measure(directSearch);
  const listBare = await viaBareProxy(listSql, [clinic, 'UTC', from, 20, 0]);
  const searchBare = await viaBareProxy(searchSql, searchParams);
  const apiList = await measure(() => post('case/list', defaultList));
  const apiSearch = await measure(() => post('case/list', search));
  const listPlan = await preparedPlan(db, 'bench_list', listSql, [clinic, 'UTC', from, 20, 0]);
  const searchPlan = await preparedPlan(db, 'bench_search', searchSql, searchParams);
  const planNote = (p) => `${p.generic ? 'generic' : 'custom'} plan: ${planIndexes(p.text)}`;
  api.close();
  await pool.end();
  await db.end();
  await stop(child);
  await database.drop();
  return [
    [
      `case list, default (${CASES.toLocaleString('en')} cases / ${ORGS} orgs), 32 conn`,
      fmtMeasured(apiList),
      `same SQL direct: ${fmtMeasured(sqlOnly)}; through a bare Fastify proxy: ${fmtMeasured(listBare)}`,
      `${listVerdict(apiList, sqlOnly, listBare)}; ${planNote(listPlan)}`,
    ],
    [
      `case list, patient search 'anna' (100 hits), 32 conn`,
      fmtMeasured(apiSearch),
      `same SQL direct: ${fmtMeasured(searchDirect)}; through a bare Fastify proxy: ${fmtMeasured(searchBare)}; data load ${loadSeconds.toFixed(0)} s`,
      `${listVerdict(apiSearch, searchDirect, searchBare)}; ${planNote(searchPlan)}`,
    ],
  ];
}
