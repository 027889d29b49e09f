// Laboratory scorecards on PostgreSQL: one laboratory with 100,000 orders over a year from 32 clinics (about 3 %
// remakes), its scorecard (on-time rate, remakes by reason, median turnaround over 30/90/365 days and the weekly trend)
// at 32 concurrent connections, asked by the laboratory itself and by its clinics in turn, against the service's own
// statements sent directly (baseline), with the plan. The daily tally is filled from the ship events by migration
// 0023's own statement, as an upgrade fills it. The measured calls read the card kept after the first call (as every
// call does until a shipment or remake changes the figures, or the day ends); the first call's cost is reported too. BENCH_SCORECARD_ORDERS scales the order count; BENCH_KEEP=1 keeps the
// database (portal_bench_scorecards).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import {
  signInKeysForBulkUsers,
  BENCH_SECONDS,
  ROOT,
  SERVER_SESSION,
  fmtMeasured,
  freshDatabase,
  keepAlivePoster,
  load,
  measuredLoad,
  planIndexes,
  preparedPlan,
  startPortal,
} from './portal-lib.mjs';

const DB_NAME = 'portal_bench_scorecards';
const ORDERS = Number(process.env.BENCH_SCORECARD_ORDERS ?? 100_000);
const CLINICS = 32;
const CONCURRENCY = 32;
const PASSWORD = 'Bench#Scorecards2026';
const REASONS = ['fit', 'shade', 'contacts', 'occlusion', 'breakage', 'other'];

// The statement of ScorecardsService.get() (TALLIES in apps/server/src/modules/scorecards/scorecards.repository.ts),
// copied: keep it in step (the run checks that the API answers what it answers).
const SCORECARD_TALLIES_SQL = `
WITH w AS (
  SELECT $2::date AS today, $3::date AS trend_start
), d AS (
  SELECT d.day, d.turnaround_days, d.shipped, d.due_counted, d.on_time
    FROM lab_scorecard_days d, w
   WHERE d.lab_organization_id = $1 AND d.day > w.today - 365 AND d.day <= w.today
), r AS (
  SELECT (o.created_at AT TIME ZONE 'UTC')::date AS day, o.remake_reason
    FROM orders o, w
   WHERE o.lab_organization_id = $1
     AND o.remake_of IS NOT NULL
     AND o.status <> 'canceled'
     AND o.created_at >= (w.today - 364)::timestamp AT TIME ZONE 'UTC'
     AND o.created_at < (w.today + 1)::timestamp AT TIME ZONE 'UTC'
)
SELECT 'turnaround' AS kind, d.turnaround_days::text AS key,
       COALESCE(sum(d.shipped) FILTER (WHERE d.day > w.today - 30), 0)::int AS a,
       COALESCE(sum(d.shipped) FILTER (WHERE d.day > w.today - 90), 0)::int AS b,
       sum(d.shipped)::int AS c,
       COALESCE(sum(d.due_counted) FILTER (WHERE d.day > w.today - 30), 0)::int AS d,
       COALESCE(sum(d.due_counted) FILTER (WHERE d.day > w.today - 90), 0)::int AS e,
       sum(d.due_counted)::int AS f,
       COALESCE(sum(d.on_time) FILTER (WHERE d.day > w.today - 30), 0)::int AS g,
       COALESCE(sum(d.on_time) FILTER (WHERE d.day > w.today - 90), 0)::int AS h,
       sum(d.on_time)::int AS i
  FROM d, w
 GROUP BY d.turnaround_days
UNION ALL
SELECT 'remakes', r.remake_reason,
       count(*) FILTER (WHERE r.day > w.today - 30)::int,
       count(*) FILTER (WHERE r.day > w.today - 90)::int,
       count(*)::int, 0, 0, 0, 0, 0, 0
  FROM r, w
 GROUP BY r.remake_reason
UNION ALL
SELECT 'week', to_char(date_trunc('week', d.day::timestamp), 'YYYY-MM-DD'),
       sum(d.shipped)::int, sum(d.due_counted)::int, sum(d.on_time)::int, 0, 0, 0, 0, 0, 0
  FROM d, w
 WHERE d.day >= w.trend_start
 GROUP BY 2
UNION ALL
SELECT 'weekRemakes', to_char(date_trunc('week', r.day::timestamp), 'YYYY-MM-DD'), count(*)::int, 0, 0, 0, 0, 0, 0, 0, 0
  FROM r, w
 WHERE r.day >= w.trend_start
 GROUP BY 2`;

/** The Monday eleven weeks before this week's (trendStart in scorecard-figures.ts). */
function trendStart(today) {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7 * 11);
  return d.toISOString().slice(0, 10);
}

/** The migration's statement that fills the daily tally from the ship events. */
function backfillStatement() {
  const sql = readFileSync(join(ROOT, 'apps/server/migrations/0023_remakes_and_scorecards.sql'), 'utf8');
  const statement = sql.split(/^--;$/m).find((s) => /INSERT INTO lab_scorecard_days/.test(s));
  if (!statement) throw new Error('migration 0023 has no tally statement');
  return statement;
}

/** The laboratory, its clinics and their administrators, partnerships, one case per order, the orders and their events. */
async function seed(db) {
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await db.query(`
    INSERT INTO organizations (code, name, type, region, review_status, status)
    SELECT 'benchsc' || g, 'Scorecard Clinic ' || g, 2, 'us', 1, 1 FROM generate_series(1, ${CLINICS}) g
    UNION ALL SELECT 'benchsl1', 'Scorecard Lab', 3, 'us', 1, 1`);
  await db.query(
    `
    INSERT INTO users (user_code, account, email, display_name, organization_id, role_id, status, is_org_admin, password_hash)
    SELECT 'u' || o.code, o.code, o.code || '@bench.dental-portal.test', o.name, o.id, r.id, 1, true, $1
      FROM organizations o JOIN roles r ON r.code = CASE o.type WHEN 2 THEN 'clinic_admin' ELSE 'lab_admin' END
     WHERE o.code ~ '^benchs[cl][0-9]+$'`,
    [passwordHash],
  );
  await db.query(`INSERT INTO agreement_read_logs (user_id, agreement_type, version)
    SELECT u.id, a.type, a.version FROM users u CROSS JOIN agreements a WHERE u.account ~ '^benchs[cl][0-9]+$'`);
  await signInKeysForBulkUsers(db);
  const [{ lab }] = (await db.query(`SELECT id AS lab FROM organizations WHERE code = 'benchsl1'`)).rows;
  await db.query(
    `
    INSERT INTO partnerships (code, clinic_organization_id, lab_organization_id, status, initiator_organization_id)
    SELECT 'benchsp' || substr(o.code, 8), o.id, $1, 1, o.id FROM organizations o WHERE o.code ~ '^benchsc[0-9]+$'`,
    [lab],
  );
  const [{ clinics, partnerships }] = (
    await db.query(`
      SELECT array_agg(p.clinic_organization_id ORDER BY p.id) AS clinics, array_agg(p.id ORDER BY p.id) AS partnerships
        FROM partnerships p WHERE p.code ~ '^benchsp[0-9]+$'`)
  ).rows;
  const [{ caseBase, orderBase }] = (
    await db.query(`SELECT COALESCE((SELECT max(id) FROM cases), 0)::bigint AS "caseBase",
                           COALESCE((SELECT max(id) FROM orders), 0)::bigint AS "orderBase"`)
  ).rows;
  // Order g (1..N) is made at now() - 365 days × (N - g) / N and shipped 0–10 days later (the newest not yet); due
  // dates 5–9 days after it is made, estimated on half of them; about 3 % are remakes of the order made 200 before.
  await db.query(`
    CREATE UNLOGGED TABLE bench_sg AS
    SELECT g, lpad(g::text, 7, '0') AS n, g % ${CLINICS} AS ci, at, h,
           at + make_interval(days => abs(hashint4(g + 3)) % 11, hours => abs(hashint4(g + 5)) % 10) AS ship_at
      FROM (SELECT g, now() - make_interval(secs => (${ORDERS} - g) * (365.0 * 86400 / ${ORDERS})) AS at,
                   abs(hashint4(g + 7)) % 100 AS h
              FROM generate_series(1, ${ORDERS}) g) x`);
  const t = performance.now();
  await db.query(`SET session_replication_role = replica`);
  await db.query(
    `
    INSERT INTO cases (id, code, organization_id, name, patient_name, patient_id, scan_date, treatments, status, created_at, updated_at)
    SELECT ${caseBase} + g, 'benchscase' || n, ($1::bigint[])[ci + 1], 'Case ' || g, 'Patient ' || g, 'P-' || n,
           at - interval '2 hours', ARRAY['Crown'], 'ordered', at - interval '2 hours', at
      FROM bench_sg`,
    [clinics],
  );
  await db.query(
    `
    INSERT INTO orders (id, code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types, teeth,
                        status, requested_delivery_date, estimated_delivery_date, ship_date, tracking_number,
                        remake_of, remake_reason, created_at, updated_at)
    SELECT ${orderBase} + g, 'benchsorder' || n, ($1::bigint[])[ci + 1], $2, ($3::bigint[])[ci + 1], ${caseBase} + g,
           'restoration', ARRAY['Crown'], '[{"number": 11, "shade": "A2"}]',
           CASE WHEN ship_at > now() THEN 'accepted' WHEN ship_at > now() - interval '3 days' THEN 'shipped' ELSE 'completed' END,
           (at + make_interval(days => 5 + h % 5))::date,
           CASE WHEN h % 2 = 0 THEN (at + make_interval(days => 6 + h % 3))::date END,
           CASE WHEN ship_at <= now() THEN ship_at::date END,
           CASE WHEN ship_at <= now() THEN 'TRK' || n END,
           CASE WHEN h < 3 AND g > 200 THEN ${orderBase} + g - 200 END,
           CASE WHEN h < 3 AND g > 200 THEN ($4::text[])[1 + (g / 7) % 6] END,
           at, at
      FROM bench_sg`,
    [clinics, lab, partnerships, REASONS],
  );
  await db.query(`
    INSERT INTO order_events (order_id, action, from_status, to_status, created_at)
    SELECT ${orderBase} + g, CASE WHEN h < 3 AND g > 200 THEN 'remake' ELSE 'create' END, NULL, 'pending', at FROM bench_sg
    UNION ALL
    SELECT ${orderBase} + g, 'ship', 'ready', 'shipped', ship_at FROM bench_sg WHERE ship_at <= now()`);
  await db.query(`SET session_replication_role = origin`);
  await db.query(`SELECT setval(pg_get_serial_sequence('cases', 'id'), (SELECT max(id) FROM cases))`);
  await db.query(`SELECT setval(pg_get_serial_sequence('orders', 'id'), (SELECT max(id) FROM orders))`);
  await db.query(`DROP TABLE bench_sg`);
  const tb = performance.now();
  await db.query(backfillStatement());
  const backfillSeconds = (performance.now() - tb) / 1000;
  await db.query('VACUUM ANALYZE cases, orders, order_events, lab_scorecard_days, organizations, users, partnerships');
  await db.query('CHECKPOINT');
  const [{ rows: tallyRows }] = (await db.query(`SELECT count(*)::int AS rows FROM lab_scorecard_days`)).rows.map(
    (r) => ({ rows: r }),
  );
  return {
    lab: Number(lab),
    steps: `rows ${((tb - t) / 1000).toFixed(1)} s, tally from ship events ${backfillSeconds.toFixed(1)} s (${tallyRows.rows} rows)`,
  };
}

export async function scorecardsBench({ adminUrl, start, waitFor, stop, freePort }) {
  const keep = process.env.BENCH_KEEP === '1';
  const database = await freshDatabase(adminUrl, DB_NAME);
  let portal = null;
  let db = null;
  let pool = null;
  let post = null;
  try {
    portal = await startPortal(
      { start, waitFor, freePort },
      { DATABASE_URL: database.url, SEED_DEMO: 'false', LOGIN_RATE_LIMIT_PER_MINUTE: '1000' },
    );
    const { child, base } = portal;

    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const t0 = performance.now();
    const { lab, steps } = await seed(db);
    const loadSeconds = (performance.now() - t0) / 1000;
    console.log(`scorecards: ${ORDERS.toLocaleString('en')} orders loaded in ${loadSeconds.toFixed(1)} s (${steps})`);

    // The laboratory asks for its own card; each clinic names its partnership. Callers take turns.
    post = keepAlivePoster(base, CONCURRENCY);
    const callers = [{ token: (await post('login', { account: 'benchsl1', password: PASSWORD })).accessToken }];
    for (let i = 1; i <= CLINICS; i++) {
      const token = (await post('login', { account: `benchsc${i}`, password: PASSWORD })).accessToken;
      callers.push({ token, partnerCode: `benchsp${i}` });
    }
    const body = (c) => (c.partnerCode ? { partnerCode: c.partnerCode } : {});
    const today = new Date().toISOString().slice(0, 10);
    const params = [lab, today, trendStart(today)];
    pool = new pg.Pool({
      connectionString: database.url,
      max: CONCURRENCY,
      idleTimeoutMillis: 0,
      onConnect: (client) => client.query(SERVER_SESSION),
    });
    const clinicOf = Object.fromEntries(
      (await db.query(`SELECT code, clinic_organization_id AS id FROM partnerships WHERE code ~ '^benchsp'`)).rows.map(
        (r) => [r.code, Number(r.id)],
      ),
    );
    // The service's statement for a call once the card is kept: the laboratory behind the partnership (or the caller's
    // own) with its kept card; the same texts as scorecards.repository.
    const lookup = (c) =>
      c.partnerCode
        ? pool.query({
            name: 'scorecard-partner',
            text: `SELECT o.id, o.code, o.name, s.version, to_char(s.as_of, 'YYYY-MM-DD') AS as_of, s.figures
         FROM partnerships p
         JOIN organizations o ON o.id = p.lab_organization_id
         LEFT JOIN lab_scorecards s ON s.lab_organization_id = o.id
        WHERE p.code = $1 AND p.clinic_organization_id = $2`,
            values: [c.partnerCode, clinicOf[c.partnerCode]],
          })
        : pool.query({
            name: 'scorecard-own',
            text: `SELECT o.id, o.code, o.name, s.version, to_char(s.as_of, 'YYYY-MM-DD') AS as_of, s.figures
         FROM organizations o
         LEFT JOIN lab_scorecards s ON s.lab_organization_id = o.id
        WHERE o.id = $1`,
            values: [lab],
          });
    // Computing the card when none is kept (the first call of a day, or the first after a change).
    const compute = () => pool.query({ name: 'scorecard-tallies', text: SCORECARD_TALLIES_SQL, values: params });

    // The API answers what the SQL answers.
    const tc = performance.now();
    const got = await post('scorecard/lab', {}, callers[0].token);
    const coldMs = performance.now() - tc;
    const { rows } = await compute();
    const shipped = rows.filter((r) => r.kind === 'turnaround').reduce((s, r) => s + r.c, 0);
    const remakes = rows.filter((r) => r.kind === 'remakes').reduce((s, r) => s + r.c, 0);
    const year = got.windows.find((w) => w.days === 365);
    if (year.shipped !== shipped || year.remakes !== remakes || shipped < ORDERS * 0.9) {
      throw new Error(`scorecard/lab disagrees with the SQL: ${year.shipped}/${year.remakes} vs ${shipped}/${remakes}`);
    }
    const clinicView = await post('scorecard/lab', body(callers[1]), callers[1].token);
    if (!isDeepStrictEqual(clinicView.windows, got.windows)) throw new Error('clinic sees another card');
    const kept = (await lookup(callers[1])).rows[0];
    if (!kept.figures || !isDeepStrictEqual(kept.figures.windows, got.windows)) throw new Error('the card is not kept');
    console.log(
      `scorecards: 365 days: ${year.shipped} shipped, on time ${(year.onTimeRate * 100).toFixed(1)} %, remakes ${(year.remakeRate * 100).toFixed(1)} %, median ${year.medianTurnaroundDays} days`,
    );

    const measure = (fn) =>
      measuredLoad({ db, dbName: DB_NAME, serverPid: child.pid }, fn, { concurrency: CONCURRENCY });
    const caller = (n) => callers[n % callers.length];
    const api = (n) => post('scorecard/lab', body(caller(n)), caller(n).token);
    const sql = (n) => lookup(caller(n));
    const warm = { seconds: Math.min(3, BENCH_SECONDS), concurrency: CONCURRENCY };
    await load(api, warm);
    const apiResult = await measure(api);
    await load(sql, warm);
    const sqlResult = await measure(sql);
    console.log(`scorecards: API ${fmtMeasured(apiResult)}; same SQL direct ${fmtMeasured(sqlResult)}`);

    const plan = await preparedPlan(db, 'bench_scorecard', SCORECARD_TALLIES_SQL, params);
    const computeMs = Number(/Execution Time: ([\d.]+)/.exec(plan.text)?.[1] ?? NaN);
    console.log(
      `  computing a card (first call of the day or after a change): ${coldMs.toFixed(1)} ms through the API, tallies statement ${computeMs.toFixed(1)} ms`,
    );
    console.log(`  plan of the tallies (${plan.generic ? 'generic' : 'custom'} plan of the prepared statement):`);
    for (const l of plan.lines.filter((l) => /Index|Seq Scan|Execution Time|Planning Time/.test(l)))
      console.log(`    ${l.trim()}`);

    return [
      [
        `lab scorecard (${ORDERS.toLocaleString('en')} orders of one lab, 30/90/365 days + 12 weeks), 32 conn`,
        fmtMeasured(apiResult),
        `same SQL direct (pool 32): ${fmtMeasured(sqlResult)}`,
        `${apiResult.p95 <= 20 ? 'met' : 'MISSED'} (goal p95 ≤ 20 ms); kept card; computing one: API ${coldMs.toFixed(0)} ms, tallies ${computeMs.toFixed(1)} ms (${planIndexes(plan.text)})`,
      ],
    ];
  } finally {
    post?.close();
    await pool?.end().catch(() => undefined);
    await db?.end().catch(() => undefined);
    if (portal) {
      await stop(portal.child);
      rmSync(portal.dataDir, { recursive: true, force: true });
    }
    if (keep) {
      console.log(`scorecards: kept database ${database.url}`);
      await database.keep();
    } else await database.drop();
  }
}
