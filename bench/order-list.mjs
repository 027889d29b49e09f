// The order list on PostgreSQL with 1,000,000 orders between 500 clinics and 500 laboratories: each side's
// default list (last 30 days, newest first, 20 a page) at 32 concurrent connections, rotating over 32
// organizations per side, against the list's own statement run directly (baseline), with the plan.
// BENCH_ORDERS scales the order count; BENCH_KEEP=1 keeps the database (portal_bench_order_list) for experiments.
import { rmSync } from 'node:fs';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import {
  signInKeysForBulkUsers,
  BENCH_SECONDS,
  SERVER_SESSION,
  fmtMeasured,
  freshDatabase,
  keepAlivePoster,
  listVerdict,
  load,
  measuredLoad,
  planIndexes,
  preparedPlan,
  startBareList,
  startPortal,
} from './portal-lib.mjs';

const DB_NAME = 'portal_bench_order_list';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CLINICS = 500;
const LABS = 500;
const LABS_PER_CLINIC = 4; // clinic i sends to labs i, i+125, i+250, i+375 (mod 500): each lab hears from 4 clinics
const ROTATE = 32; // organizations per side the load rotates over
const CONCURRENCY = 32;
const PASSWORD = 'Bench#Orders2026';

// The statement of OrdersService.list() for the default list (ordersRepository.list in
// apps/server/src/modules/orders/orders.repository.ts: organization and date range given), copied: keep it in step.
const scopeColumn = (side) => (side === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id');
const isoTime = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const SUMMARY = `o.id, o.code, o.order_type, o.status, o.processing, o.work_types, o.share_patient_name, o.tracking_number,
       ${isoTime('o.created_at')} AS created_at, ${isoTime('o.updated_at')} AS updated_at,
       to_char(o.requested_delivery_date, 'YYYY-MM-DD') AS requested_delivery_date, to_char(o.ship_date, 'YYYY-MM-DD') AS ship_date,
       to_char(o.estimated_delivery_date, 'YYYY-MM-DD') AS estimated_delivery_date, c.code AS case_code, c.name AS case_name, c.patient_name,
       co.code AS clinic_code, co.name AS clinic_name, lo.code AS lab_code, lo.name AS lab_name, lp.code AS product_code, lp.name AS product_name`;
// The days start at midnight in the reader's timezone ($2; 'UTC' here, as the API calls send none).
const where = (side) =>
  `${scopeColumn(side)} = $1 AND o.created_at >= ((($3)::date)::timestamp AT TIME ZONE $2) AND o.created_at < ((($4::date + 1))::timestamp AT TIME ZONE $2)`;
const pageSql = (
  side,
) => `SELECT ${SUMMARY} FROM (SELECT * FROM orders o WHERE ${where(side)} ORDER BY o.created_at DESC, o.id DESC LIMIT $5 OFFSET $6) o
      JOIN cases c ON c.id = o.case_id JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id
      LEFT JOIN lab_products lp ON lp.id = o.product_id
     ORDER BY o.created_at DESC, o.id DESC`;
const listSql = (side) =>
  `SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM orders o WHERE ${where(side)}) t LEFT JOIN LATERAL (${pageSql(side)}) p ON true`;

/** Organizations, their administrators, partnerships, one case per order and the orders, all set-based. */
async function seed(db, connectionString) {
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await db.query(`
    INSERT INTO organizations (code, name, type, region, review_status, status)
    SELECT 'benchc' || g, 'Bench Clinic ' || g, 2, 'us', 1, 1 FROM generate_series(1, ${CLINICS}) g
    UNION ALL
    SELECT 'benchl' || g, 'Bench Lab ' || g, 3, 'us', 1, 1 FROM generate_series(1, ${LABS}) g`);
  const ids = async (prefix) =>
    (
      await db.query(`SELECT array_agg(id ORDER BY substr(code, 7)::int) AS ids FROM organizations WHERE code ~ $1`, [
        `^${prefix}[0-9]+$`,
      ])
    ).rows[0].ids.map(Number);
  const clinics = await ids('benchc');
  const labs = await ids('benchl');
  // One administrator per organization, as the registration makes them: account = organization code.
  await db.query(
    `
    INSERT INTO users (user_code, account, email, display_name, organization_id, role_id, status, is_org_admin, password_hash)
    SELECT 'u' || o.code, o.code, o.code || '@bench.dental-portal.test', o.name, o.id, r.id, 1, true, $1
      FROM organizations o JOIN roles r ON r.code = CASE o.type WHEN 2 THEN 'clinic_admin' ELSE 'lab_admin' END
     WHERE o.code ~ '^bench[cl][0-9]+$'`,
    [passwordHash],
  );
  await db.query(`INSERT INTO agreement_read_logs (user_id, agreement_type, version)
    SELECT u.id, a.type, a.version FROM users u CROSS JOIN agreements a WHERE u.account ~ '^bench[cl][0-9]+$'`);
  await signInKeysForBulkUsers(db);
  await db.query(
    `
    INSERT INTO partnerships (code, clinic_organization_id, lab_organization_id, status, initiator_organization_id)
    SELECT 'benchp' || (i * ${LABS_PER_CLINIC} + k), ($1::bigint[])[i + 1], ($2::bigint[])[(i + k * ${LABS / LABS_PER_CLINIC}) % ${LABS} + 1], 1, ($1::bigint[])[i + 1]
      FROM generate_series(0, ${CLINICS - 1}) i, generate_series(0, ${LABS_PER_CLINIC - 1}) k`,
    [clinics, labs],
  );
  const partnerships = (
    await db.query(
      `SELECT array_agg(id ORDER BY substr(code, 7)::int) AS ids FROM partnerships WHERE code ~ '^benchp[0-9]+$'`,
    )
  ).rows[0].ids.map(Number);

  // Order g (1..N) is made at now() - 365 days × (N - g) / N, so the table fills in time order as it would;
  // clinic g % 500, lab k = (g / 500) % 4 of its four; statuses by age. Codes are zero-padded so their unique
  // indexes fill at the right edge. Rows are consistent by construction, so the bulk inserts skip the
  // foreign-key triggers (session_replication_role, as a restore does), and cases and orders load side by side.
  const [{ base }] = (await db.query(`SELECT COALESCE(max(id), 0)::bigint AS base FROM cases`)).rows;
  await db.query(`
    CREATE UNLOGGED TABLE bench_g AS
    SELECT g, lpad(g::text, 7, '0') AS n, g % ${CLINICS} AS ci, (g / ${CLINICS}) % ${LABS_PER_CLINIC} AS k,
           now() - make_interval(secs => (${ORDERS} - g) * (365.0 * 86400 / ${ORDERS}) + abs(hashint4(g)) % 30) AS at,
           (${ORDERS} - g) * 365.0 / ${ORDERS} AS age, abs(hashint4(g + 7)) % 100 AS h
      FROM generate_series(1, ${ORDERS}) g`);
  const other = new pg.Client({ connectionString });
  await other.connect();
  try {
    // As pg_restore does: the two tables' secondary indexes are dropped for the load and built again after it,
    // from their own definitions (constraint indexes stay: primary keys and codes fill at the right edge).
    const indexes = (
      await db.query(`
      SELECT c.relname AS tbl, i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
        FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
       WHERE c.relname IN ('cases', 'orders') AND c.relnamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`)
    ).rows;
    for (const ix of indexes) await db.query(`DROP INDEX ${ix.name}`);
    const bulk = async (conn, sql, params) => {
      const t = performance.now();
      await conn.query(`SET session_replication_role = replica`);
      await conn.query(sql, params);
      await conn.query(`SET session_replication_role = origin`);
      return (performance.now() - t) / 1000;
    };
    const [casesSeconds, ordersSeconds] = await Promise.all([
      bulk(
        db,
        `
        INSERT INTO cases (id, code, organization_id, name, patient_name, patient_id, scan_date, treatments, status, created_at, updated_at)
        SELECT ${base} + g, 'benchcase' || n, ($1::bigint[])[ci + 1], 'Case ' || g,
               (ARRAY['Anna','Ben','Clara','David','Eva','Felix','Greta','Hugo','Ida','Jonas'])[1 + g % 10] || ' ' || (ARRAY['Keller','Lang','Maier','Novak','Olsen','Petit','Quinn','Roth','Schulz','Vogt'])[1 + (g / 10) % 10],
               'P-' || n, at - interval '2 hours', ARRAY[(ARRAY['Crown','Veneer','Inlay','Bridge'])[1 + g % 4]], 'ordered', at - interval '2 hours', at
          FROM bench_g`,
        [clinics],
      ),
      bulk(
        other,
        `
        INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types, teeth, status, processing,
                            requested_delivery_date, ship_date, tracking_number, memo, share_patient_name, created_at, updated_at)
        SELECT 'benchorder' || n, ($1::bigint[])[ci + 1], ($2::bigint[])[(ci + k * ${LABS / LABS_PER_CLINIC}) % ${LABS} + 1],
               ($3::bigint[])[ci * ${LABS_PER_CLINIC} + k + 1], ${base} + g,
               CASE WHEN h < 85 THEN 'restoration' WHEN h < 95 THEN 'implant' ELSE 'orthodontic' END,
               ARRAY[(ARRAY['Crown','Veneer','Inlay','Bridge'])[1 + g % 4]],
               (ARRAY['[{"number": 11, "shade": "A2", "material": "Zirconia", "crownType": "Full contour"}]',
                      '[{"number": 36, "shade": "A3", "material": "Lithium disilicate", "crownType": "Full contour"}, {"number": 37, "shade": "A3", "material": "Lithium disilicate", "crownType": "Full contour"}]',
                      '[{"number": 14, "shade": "B1", "material": "Zirconia", "implant": true}, {"number": 15, "shade": "B1", "material": "Zirconia"}, {"number": 16, "shade": "B1", "material": "Zirconia", "implant": true}]'
                     ]::jsonb[])[1 + h % 3],
               s.status, s.status = 'accepted' AND h % 2 = 0,
               (at + interval '10 days')::date,
               CASE WHEN s.status IN ('shipped', 'completed') THEN (at + interval '6 days')::date END,
               CASE WHEN s.status IN ('shipped', 'completed') THEN 'TRK' || n END,
               CASE WHEN h % 4 = 0 THEN 'Please match the shade of the neighbouring teeth.' END,
               h % 5 <> 0, at, at
          FROM bench_g, LATERAL (SELECT CASE
                 WHEN age < 3 THEN CASE WHEN h < 40 THEN 'pending' WHEN h < 80 THEN 'accepted' WHEN h < 90 THEN 'ready' WHEN h < 95 THEN 'rejected' ELSE 'canceled' END
                 WHEN age < 10 THEN CASE WHEN h < 5 THEN 'pending' WHEN h < 35 THEN 'accepted' WHEN h < 55 THEN 'ready' WHEN h < 95 THEN 'shipped' ELSE 'canceled' END
                 WHEN age < 30 THEN CASE WHEN h < 5 THEN 'accepted' WHEN h < 45 THEN 'shipped' WHEN h < 95 THEN 'completed' ELSE 'canceled' END
                 ELSE CASE WHEN h < 90 THEN 'completed' WHEN h < 95 THEN 'canceled' ELSE 'rejected' END
               END AS status) s`,
        [clinics, labs, partnerships],
      ),
    ]);
    await db.query(`SELECT setval(pg_get_serial_sequence('cases', 'id'), (SELECT max(id) FROM cases))`);
    await db.query(`DROP TABLE bench_g`);
    const ti = performance.now();
    const build = async (conn, tbl) => {
      await conn.query(`SET maintenance_work_mem = '256MB'`);
      for (const ix of indexes.filter((x) => x.tbl === tbl)) await conn.query(ix.def);
    };
    await Promise.all([build(db, 'cases'), build(other, 'orders')]);
    const indexSeconds = (performance.now() - ti) / 1000;
    // As autovacuum would have by then: statistics and the visibility map for index-only counts.
    const tv = performance.now();
    await Promise.all([db.query('VACUUM ANALYZE cases'), other.query('VACUUM ANALYZE orders')]);
    await db.query('VACUUM ANALYZE organizations, users, partnerships');
    // Write the loaded pages out now, not during the measurements.
    await db.query('CHECKPOINT');
    const vacuumSeconds = (performance.now() - tv) / 1000;
    return {
      clinics,
      labs,
      steps: `cases ${casesSeconds.toFixed(0)} s ∥ orders ${ordersSeconds.toFixed(0)} s, ${indexes.length} indexes ${indexSeconds.toFixed(0)} s, vacuum ${vacuumSeconds.toFixed(0)} s`,
    };
  } finally {
    await other.end().catch(() => undefined);
  }
}

/** The plan nodes that name an index (and scans of whole tables), each with its detail lines, and the planning and execution times. */
function indexLines(lines) {
  const out = [];
  let keep = false;
  for (const [i, l] of lines.entries()) {
    if (i === 0 || l.includes('->')) keep = /Index|Seq Scan/.test(l);
    if (keep || /(Planning|Execution) Time/.test(l)) out.push(l.replace(/\s+$/, ''));
  }
  return out;
}

export async function orderListBench({ adminUrl, start, waitFor, stop, freePort }) {
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
    const { clinics, labs, steps } = await seed(db, database.url);
    const loadSeconds = (performance.now() - t0) / 1000;
    console.log(`order list: ${ORDERS.toLocaleString('en')} orders loaded in ${loadSeconds.toFixed(1)} s (${steps})`);

    // 32 organizations per side, spread over the 500; their administrators sign in through the API.
    const pick = (n) => Array.from({ length: ROTATE }, (_, i) => Math.floor((i * n) / ROTATE));
    post = keepAlivePoster(base, CONCURRENCY);
    const signIn = async (prefix, indexes) => {
      const tokens = [];
      for (const i of indexes)
        tokens.push((await post('login', { account: `${prefix}${i + 1}`, password: PASSWORD })).accessToken);
      return tokens;
    };
    const sides = {
      clinic: { orgIds: pick(CLINICS).map((i) => clinics[i]), tokens: await signIn('benchc', pick(CLINICS)) },
      lab: { orgIds: pick(LABS).map((i) => labs[i]), tokens: await signIn('benchl', pick(LABS)) },
    };

    const day = (d) => new Date(Date.now() - d * 86400_000).toISOString().slice(0, 10);
    const dateFrom = day(30);
    const dateTo = day(0);
    const body = { pageNum: 1, pageSize: 20, dateFrom, dateTo, sortOrder: 'desc' };
    const params = (orgId) => [orgId, 'UTC', dateFrom, dateTo, 20, 0];
    // A pool of the server's size (apps/server/src/platform/db.ts) with its session setting.
    pool = new pg.Pool({
      connectionString: database.url,
      max: 20,
      idleTimeoutMillis: 0,
      onConnect: (client) => client.query(SERVER_SESSION),
    });
    const direct = (side, orgId) => pool.query({ name: `${side}-list`, text: listSql(side), values: params(orgId) });

    // The API answers what the SQL answers.
    for (const side of ['clinic', 'lab']) {
      const got = await post('order/list', body, sides[side].tokens[0]);
      const { rows } = await direct(side, sides[side].orgIds[0]);
      if (
        got.list.length !== Math.min(20, got.total) ||
        got.total !== rows[0].total ||
        got.list[0].orderCode !== rows[0].code
      ) {
        throw new Error(
          `order/list (${side}) disagrees with the SQL: ${got.list.length} rows, total ${got.total} vs ${rows[0].total}`,
        );
      }
    }

    const measure = (fn, serverPid = child.pid) =>
      measuredLoad({ db, dbName: DB_NAME, serverPid }, fn, { concurrency: CONCURRENCY });
    const fmt = fmtMeasured;
    const results = {};
    const warm = { seconds: Math.min(3, BENCH_SECONDS), concurrency: CONCURRENCY };
    for (const side of ['clinic', 'lab']) {
      const { tokens, orgIds } = sides[side];
      const api = (n) => post('order/list', body, tokens[n % ROTATE]);
      const sql = (n) => direct(side, orgIds[n % ROTATE]);
      // Each warm-up right before its measurement: it also fills the pool the measurement then accounts for.
      await load(api, warm);
      const apiResult = await measure(api);
      await load(sql, warm);
      const sqlResult = await measure(sql);
      const bare = await startBareList({ start, waitFor, freePort }, { databaseUrl: database.url, sql: listSql(side) });
      let bareResult;
      try {
        const viaBare = (n) => bare.list(params(orgIds[n % ROTATE]));
        await load(viaBare, warm);
        bareResult = await measure(viaBare, bare.child.pid);
      } finally {
        bare.close();
        await stop(bare.child);
      }
      results[side] = {
        api: apiResult,
        sql: sqlResult,
        bare: bareResult,
        total: (await post('order/list', body, tokens[0])).total,
      };
      console.log(
        `order list, ${side} default: API ${fmt(results[side].api)}; same SQL direct ${fmt(results[side].sql)}; bare proxy ${fmt(bareResult)}`,
      );
    }

    // The plans, for the first organization of each side, as the server's prepared statements get them.
    for (const side of ['clinic', 'lab']) {
      const p = params(sides[side].orgIds[0]);
      const list = await preparedPlan(db, `bench_${side}_list`, listSql(side), p);
      results[side].plans = { list };
      for (const [what, plan] of [['page and total', list]]) {
        console.log(`  plan, ${side} ${what} (${plan.generic ? 'generic' : 'custom'} plan of the prepared statement):`);
        for (const l of indexLines(plan.lines)) console.log(`    ${l}`);
      }
    }

    const rows = [];
    for (const side of ['clinic', 'lab']) {
      const r = results[side];
      const idx = `plan: ${planIndexes(r.plans.list.text)}`;
      rows.push([
        `order list, ${side} default (${ORDERS.toLocaleString('en')} orders, 30 days ≈ ${r.total} rows), 32 conn × ${ROTATE} orgs`,
        fmt(r.api),
        `same SQL direct (pool 20): ${fmt(r.sql)}; through a bare Fastify proxy: ${fmt(r.bare)}`,
        `${listVerdict(r.api, r.sql, r.bare)}; ${idx}`,
      ]);
    }
    rows.push([
      `order list data load (${ORDERS.toLocaleString('en')} orders + cases, set-based)`,
      `${loadSeconds.toFixed(1)} s`,
      '-',
      loadSeconds <= 120 ? 'met (≤ 2 min)' : 'MISSED (≤ 2 min)',
    ]);
    return rows;
  } finally {
    post?.close();
    await pool?.end().catch(() => undefined);
    await db?.end().catch(() => undefined);
    if (portal) {
      await stop(portal.child);
      rmSync(portal.dataDir, { recursive: true, force: true });
    }
    if (keep) {
      console.log(`order list: kept database ${database.url}`);
      await database.keep();
    } else await database.drop();
  }
}
