import type { Queryable } from '../../platform/db.js';

/** One minute's count of one call an app made for one user. */
export interface AppCallCount {
  organizationId: number;
  /** The minute's start, in milliseconds. */
  minute: number;
  appId: number;
  userId: number;
  call: string;
  calls: number;
  refused: number;
}

export interface AppCallRow {
  minute: string;
  app_code: string;
  app_name: string;
  user_code: string;
  user_name: string;
  account: string;
  call: string;
  calls: number;
  refused: number;
}

const iso = (column: string, as: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;

/** The apps' call log, counted per minute (`app_call_minutes`). */
export const appCallsRepository = {
  /** Adds a batch of counts in one statement (a process writes what it counted about once a second). */
  async add(db: Queryable, counts: AppCallCount[]) {
    if (!counts.length) return;
    await db.query(
      `INSERT INTO app_call_minutes (organization_id, minute, app_id, user_id, call, calls, refused)
       SELECT o, to_timestamp(m / 1000.0), a, u, c, n, r
         FROM unnest($1::int8[], $2::float8[], $3::int8[], $4::int8[], $5::text[], $6::int[], $7::int[])
              AS x(o, m, a, u, c, n, r)
       ON CONFLICT (organization_id, minute, app_id, user_id, call) DO UPDATE
          SET calls = app_call_minutes.calls + EXCLUDED.calls, refused = app_call_minutes.refused + EXCLUDED.refused`,
      [
        counts.map((c) => c.organizationId),
        counts.map((c) => c.minute),
        counts.map((c) => c.appId),
        counts.map((c) => c.userId),
        counts.map((c) => c.call),
        counts.map((c) => c.calls),
        counts.map((c) => c.refused),
      ],
    );
  },

  /** What every process counted in a minute, per app and user, for the apps named. */
  async minuteTotals(db: Queryable, minute: number, appIds: number[]) {
    return db.query<{ app_id: number; user_id: number; calls: number }>(
      `SELECT app_id::int8 AS app_id, user_id::int8 AS user_id, sum(calls)::int AS calls
         FROM app_call_minutes
        WHERE minute = to_timestamp($1 / 1000.0) AND app_id = ANY($2::int8[])
        GROUP BY app_id, user_id`,
      [minute, appIds],
    );
  },

  /** An organization's log, newest minute first, optionally of one app. */
  async page(db: Queryable, organizationId: number, appCode: string | undefined, limit: number, offset: number) {
    const where = `l.organization_id = $1 AND ($2::text IS NULL OR a.code = $2)`;
    const [count] = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM app_call_minutes l JOIN oauth_apps a ON a.id = l.app_id WHERE ${where}`,
      [organizationId, appCode ?? null],
    );
    const rows = await db.query<AppCallRow>(
      `SELECT ${iso('l.minute', 'minute')}, a.code AS app_code, a.name AS app_name, u.user_code,
              u.display_name AS user_name, u.account, l.call, l.calls, l.refused
         FROM app_call_minutes l
         JOIN oauth_apps a ON a.id = l.app_id
         JOIN users u ON u.id = l.user_id
        WHERE ${where}
        ORDER BY l.minute DESC, a.name, u.account, l.call
        LIMIT $3 OFFSET $4`,
      [organizationId, appCode ?? null, limit, offset],
    );
    return { total: Number(count?.total ?? 0), rows };
  },

  /** Housekeeping: minutes older than the log keeps. */
  async deleteOlderThan(db: Queryable, days: number): Promise<number> {
    const rows = await db.query(
      `DELETE FROM app_call_minutes WHERE minute < now() - make_interval(days => $1) RETURNING 1`,
      [days],
    );
    return rows.length;
  },
};
