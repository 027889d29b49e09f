// The case list on PostgreSQL with 1,000,000 cases across 1,000 organizations: the default list and a
// patient search at 32 concurrent connections (p95), against the same SQL run directly (baseline),
// with the query plans.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { keepAlivePoster, load, planIndexes } from './portal-lib.mjs';

const CASES = Number(process.env.BENCH_CASES ?? 1_000_000);
const ORGS = 1000;
const CONCURRENCY = 32;

export async function casesListBench({ adminUrl, start, waitFor, stop, freePort }) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS portal_bench_cases WITH (FORCE)');
  await admin.query('CREATE DATABASE portal_bench_cases');
  const url = new URL(adminUrl);
  url.pathname = '/portal_bench_cases';
  const port = await freePort();
  const child = start(['apps/server/dist/main.js'], { DATABASE_URL: url.toString(), PORT: String(port), LOG_LEVEL: 'warn', SEED_DEMO: 'true', DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-bench-')) });
  const base = `http://127.0.0.1:${port}/api/v2`;
  await waitFor(`${base}/common/monitor`, child);

  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const t0 = performance.now();
  // 999 more organizations beside the demo clinic; cases spread evenly, a year of scan dates.
  await db.query(`INSERT INTO organizations (code, name, type, region) SELECT 'bench' || g, 'Clinic ' || g, 2, 'us' FROM generate_series(1, ${ORGS - 1}) g`);
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
  const loadSeconds = (performance.now() - t0) / 1000;

  const login = await (await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'clinic', password: 'Dental#2026' }) })).json();
  const token = login.data.accessToken;
  const api = keepAlivePoster(base, CONCURRENCY);
  const post = (path, body) => api(path, body, token);
  const from = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
  const defaultList = { pageNum: 1, pageSize: 20, sortField: 'scanDate', sortOrder: 'desc', dateFrom: from };
  const search = { pageNum: 1, pageSize: 20, keyword: 'anna' };
  await load(() => post('case/list', defaultList)); // warm-up

  // The baseline: the list's own two statements, straight to PostgreSQL over a pool of the same size.
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 });
  const listSql = `SELECT c.id, c.code, c.name, c.patient_name, c.scan_date FROM cases c
     WHERE c.organization_id = $1 AND c.deleted_at IS NULL AND COALESCE(c.scan_date, c.created_at) >= $2::date
     ORDER BY COALESCE(c.scan_date, c.created_at) DESC, c.id DESC LIMIT 20`;
  const countSql = `SELECT count(*) FROM cases c WHERE c.organization_id = $1 AND c.deleted_at IS NULL AND COALESCE(c.scan_date, c.created_at) >= $2::date`;
  const sqlOnly = await load(async () => {
    await pool.query({ name: 'bl', text: listSql, values: [clinic, from] });
    await pool.query({ name: 'bc', text: countSql, values: [clinic, from] });
  });
  const apiList = await load(() => post('case/list', defaultList));
  const apiSearch = await load(() => post('case/list', search));
  const plan = async (sql, params) => (await db.query(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join(' | ');
  const listPlan = await plan(listSql, [clinic, from]);
  const searchPlan = await plan(
    `SELECT c.id FROM cases c WHERE c.organization_id = $1 AND c.deleted_at IS NULL
        AND ((lower(c.patient_name) COLLATE "C" >= $2 AND lower(c.patient_name) COLLATE "C" < $3) OR (lower(c.patient_id) COLLATE "C" >= $2 AND lower(c.patient_id) COLLATE "C" < $3))
      ORDER BY COALESCE(c.scan_date, c.created_at) DESC, c.id DESC LIMIT 20`,
    [clinic, 'anna', 'anna\u{10FFFF}'],
  );
  api.close();
  await pool.end();
  await db.end();
  await stop(child);
  await admin.query('DROP DATABASE IF EXISTS portal_bench_cases WITH (FORCE)');
  await admin.end();
  return [
    [`case list, default (${CASES.toLocaleString('en')} cases / ${ORGS} orgs), 32 conn`, `p95 ${apiList.p95.toFixed(1)} ms, p50 ${apiList.p50.toFixed(1)} ms, ${apiList.rps.toFixed(0)} req/s`, `same SQL direct: p95 ${sqlOnly.p95.toFixed(1)} ms`, `${apiList.p95 <= 20 ? 'met' : 'MISSED'} (goal p95 ≤ 20 ms); plan: ${planIndexes(listPlan)}`],
    [`case list, patient search 'anna', 32 conn`, `p95 ${apiSearch.p95.toFixed(1)} ms, p50 ${apiSearch.p50.toFixed(1)} ms, ${apiSearch.rps.toFixed(0)} req/s`, `data load ${loadSeconds.toFixed(0)} s`, `${apiSearch.p95 <= 20 ? 'met' : 'MISSED'} (goal p95 ≤ 20 ms); plan: ${planIndexes(searchPlan)}`],
  ];
}
