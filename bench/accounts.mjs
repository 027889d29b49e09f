// Accounts administration on PostgreSQL: the user list with 100,000 users in 1,000 organizations at 32 connections
// against the same statements sent directly, and how long a role change takes to reach a second server process.
import pg from 'pg';
import {
  signInKeysForBulkUsers,
  SERVER_SESSION,
  fmtMeasured,
  keepAlivePoster,
  load,
  measuredLoad,
  planIndexes,
  preparedPlan,
  freshDatabase,
  startPortal,
} from './portal-lib.mjs';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const ORGS = 1000;
const CONCURRENCY = 32;
const DB = 'portal_bench_accounts';

export async function accountsBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, DB);
  const serve = () => startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url });
  const first = await serve();

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  // 999 more laboratories beside the demo one; users spread evenly, the demo laboratory's among them.
  await db.query(
    `INSERT INTO organizations (code, name, type, region) SELECT 'bench' || g, 'Lab ' || g, 3, 'us' FROM generate_series(1, ${ORGS - 1}) g`,
  );
  const [{ lab, role }] = (
    await db.query(`SELECT organization_id AS lab, role_id AS role FROM users WHERE account = 'lab'`)
  ).rows;
  await db.query(`
    INSERT INTO users (user_code, account, email, display_name, organization_id, role_id, status, password_hash, created_at)
    SELECT 'bu' || g, 'benchuser' || g, 'bench' || g || '@example.test',
           (ARRAY['Anna','Ben','Clara','David','Eva'])[1 + g % 5] || ' ' || g,
           CASE WHEN g % ${ORGS} = 0 THEN ${lab} ELSE (SELECT id FROM organizations WHERE code = 'bench' || (g % ${ORGS})) END,
           ${role}, 1 + (g % 7 = 0)::int, '!', now() - (g || ' minutes')::interval
      FROM generate_series(1, ${USERS}) g`);
  await signInKeysForBulkUsers(db);
  await db.query('VACUUM ANALYZE users');
  await db.query('CHECKPOINT');

  const signIn = async (base, account) =>
    (
      await (
        await fetch(`${base}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account, password: 'Dental#2026' }),
        })
      ).json()
    ).data.accessToken;
  const token = await signIn(first.base, 'lab');
  const api = keepAlivePoster(first.base, CONCURRENCY);
  const list = { pageNum: 1, pageSize: 20 };

  // The baseline: the repository's statement (page and total together), straight to PostgreSQL.
  const pool = new pg.Pool({ connectionString: database.url, max: 20, onConnect: (c) => c.query(SERVER_SESSION) });
  const where = 'u.deleted_at IS NULL AND u.organization_id = $1';
  const iso = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const listSql = `SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM users u WHERE ${where}) t
    LEFT JOIN LATERAL (
      SELECT u.id, u.user_code, u.account, u.display_name, u.nickname, u.email, u.phone, u.gender, u.status,
             u.organization_id, o.code AS org_code, o.name AS org_name, o.type AS org_type,
             u.role_id, r.code AS role_code, r.name AS role_name, r.built_in AS role_built_in,
             ${iso('u.created_at')} AS created_at, ${iso('u.updated_at')} AS updated_at,
             (SELECT ${iso('s.created_at')} FROM sessions s WHERE s.user_id = u.id ORDER BY s.created_at DESC LIMIT 1)
               AS last_sign_in_at
        FROM users u JOIN organizations o ON o.id = u.organization_id JOIN roles r ON r.id = u.role_id
       WHERE ${where} ORDER BY u.created_at DESC, u.id DESC LIMIT $2 OFFSET $3) p ON true`;
  const direct = () => pool.query({ name: 'ul', text: listSql, values: [lab, 20, 0] });
  const [apiPage, sqlPage] = await Promise.all([api('user/listByPage', list, token), direct()]);
  if (apiPage.total !== sqlPage.rows[0].total || apiPage.list[0]?.userCode !== sqlPage.rows[0]?.user_code) {
    throw new Error(`user/listByPage disagrees with the SQL: ${apiPage.total} / ${sqlPage.rows[0].total}`);
  }
  const measure = async (fn) => {
    await load(fn, { seconds: 3 });
    return measuredLoad({ db, dbName: DB, serverPid: first.child.pid }, fn);
  };
  const sqlOnly = await measure(direct);
  const apiList = await measure(() => api('user/listByPage', list, token));
  const plan = await preparedPlan(db, 'bench_users', listSql, [lab, 20, 0]);

  // A role change reaching another process: the second process answers the changed menu after the first commits.
  const second = await serve();
  const roleCode = (await api('user/role/save_or_update', { name: 'Bench role' }, token)).roleCode;
  const staffEmail = 'bench-staff@example.test';
  await api(
    'user/save_or_update',
    { account: 'benchstaff', displayName: 'Bench Staff', email: staffEmail, roleCode },
    token,
  );
  await db.query(
    `UPDATE users SET status = 1, password_hash = (SELECT password_hash FROM users WHERE account = 'lab') WHERE account = 'benchstaff'`,
  );
  const staffToken = await signIn(second.base, 'benchstaff');
  const permsOnSecond = async () =>
    (
      await (
        await fetch(`${second.base}/permission/listUserMenu`, {
          method: 'POST',
          headers: { authorization: `Bearer ${staffToken}` },
        })
      ).json()
    ).data.permissions;
  await permsOnSecond(); // cached on the second process
  const delays = [];
  for (let i = 0; i < 10; i++) {
    const codes = i % 2 === 0 ? ['orderDetail', 'orders.ship'] : ['orderDetail'];
    const want = i % 2 === 0;
    await api('user/role/allotRolePermission', { roleCode, menuCodes: codes }, token);
    const committed = performance.now();
    for (;;) {
      const has = (await permsOnSecond()).includes('order:ship');
      if (has === want) break;
      if (performance.now() - committed > 5000) throw new Error('the role change never reached the second process');
    }
    delays.push(performance.now() - committed);
  }
  delays.sort((a, b) => a - b);

  api.close();
  await pool.end();
  await db.end();
  await stop(second.child);
  await stop(first.child);
  await database.drop();
  const ratio = apiList.rps / sqlOnly.rps;
  return [
    [
      `user/listByPage (${USERS.toLocaleString('en')} users / ${ORGS} orgs), 32 conn`,
      fmtMeasured(apiList),
      `same SQL direct: ${fmtMeasured(sqlOnly)}`,
      `${apiList.p95 <= 20 ? 'met' : 'MISSED'} (goal p95 ≤ 20 ms); throughput ${ratio.toFixed(2)}× direct; plan: ${planIndexes(plan.text)}`,
    ],
    [
      'role change → second process (10 changes)',
      `median ${delays[5].toFixed(0)} ms, max ${delays[9].toFixed(0)} ms`,
      'from the commit answering the admin to the first changed answer on the other process',
      `${delays[9] <= 100 ? 'met' : 'MISSED'} (goal ≤ 100 ms)`,
    ],
  ];
}
