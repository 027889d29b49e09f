import type { Queryable } from '../../platform/db.js';

/** Whether sessions may still act, and as which role (the live sockets check theirs after any sign-in change). */
export interface SessionState {
  id: string;
  live: boolean;
  role_id: number;
  force_change_password: boolean;
}

export const sessionsRepository = {
  async states(db: Queryable, ids: string[]): Promise<SessionState[]> {
    return db.query<SessionState>(
      `SELECT s.id, u.role_id, u.force_change_password,
              (s.revoked_at IS NULL AND s.expires_at > now() AND u.status <> 2 AND o.status = 1 AND u.deleted_at IS NULL) AS live
         FROM sessions s
         JOIN users u ON u.id = s.user_id
         JOIN organizations o ON o.id = u.organization_id
        WHERE s.id = ANY ($1::uuid[])`,
      [ids],
    );
  },

  async create(
    db: Queryable,
    s: { id: string; userId: number; saveLogin: boolean; ttlHours: number; userAgent?: string; ip?: string },
  ) {
    await db.query(
      `INSERT INTO sessions (id, user_id, save_login, expires_at, user_agent, ip) VALUES ($1, $2, $3, now() + make_interval(hours => $4), $5, $6)`,
      [s.id, s.userId, s.saveLogin, s.ttlHours, s.userAgent?.slice(0, 300) ?? null, s.ip ?? null],
    );
  },
  async addRefreshToken(db: Queryable, sessionId: string, tokenHash: string) {
    await db.query(
      `INSERT INTO refresh_tokens (token_hash, session_id, expires_at) SELECT $1, id, expires_at FROM sessions WHERE id = $2`,
      [tokenHash, sessionId],
    );
  },
  /**
   * A refresh token with what decides whether it may still be used: its session, its user and organization
   * (a disabled user or organization gets no new pair), and how long ago it was retired.
   */
  async findRefreshToken(db: Queryable, tokenHash: string) {
    const [row] = await db.query<{
      session_id: string;
      retired_at: Date | null;
      retired_seconds_ago: number | null;
      successor_box: string | null;
      expired: boolean;
      revoked_at: Date | null;
      user_id: number;
      user_code: string;
      user_active: boolean;
    }>(
      `SELECT rt.session_id, rt.retired_at, EXTRACT(EPOCH FROM (now() - rt.retired_at))::float8 AS retired_seconds_ago,
              rt.successor_box, rt.expires_at < now() OR s.expires_at < now() AS expired, s.revoked_at, s.user_id,
              u.user_code, u.status = 1 AND o.status = 1 AS user_active
         FROM refresh_tokens rt
         JOIN sessions s ON s.id = rt.session_id
         JOIN users u ON u.id = s.user_id
         JOIN organizations o ON o.id = u.organization_id
        WHERE rt.token_hash = $1`,
      [tokenHash],
    );
    return row;
  },
  /**
   * Retires a refresh token once, keeping its sealed successor; false when another request retired it first
   * (the row lock makes the loser wait for the winner's commit, so it then reads the winner's successor).
   */
  async retire(db: Queryable, tokenHash: string, successorBox: string): Promise<boolean> {
    const rows = await db.query(
      `UPDATE refresh_tokens SET retired_at = now(), successor_box = $2
        WHERE token_hash = $1 AND retired_at IS NULL
        RETURNING 1`,
      [tokenHash, successorBox],
    );
    return rows.length > 0;
  },
  /** Whether a refresh token is still the current one of its session (not retired). */
  async isCurrent(db: Queryable, tokenHash: string): Promise<boolean> {
    const rows = await db.query(`SELECT 1 FROM refresh_tokens WHERE token_hash = $1 AND retired_at IS NULL`, [
      tokenHash,
    ]);
    return rows.length > 0;
  },
  async revoke(db: Queryable, sessionId: string, reason: string) {
    await db.query(`UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL`, [
      sessionId,
      reason,
    ]);
  },
  async revokeAllOfUser(db: Queryable, userId: number, reason: string, exceptSessionId?: string) {
    await db.query(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $3`,
      [userId, reason, exceptSessionId ?? null],
    );
  },
  /** Ends the sessions of everyone in an organization (it was disabled or closed). */
  async revokeAllOfOrganization(db: Queryable, organizationId: number, reason: string) {
    await db.query(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $2
        WHERE revoked_at IS NULL AND user_id IN (SELECT id FROM users WHERE organization_id = $1)`,
      [organizationId, reason],
    );
  },
  async markIdentityVerified(db: Queryable, sessionId: string, graceMs: number): Promise<Date> {
    const [row] = await db.query<{ until: Date }>(
      `UPDATE sessions SET identity_verified_until = now() + make_interval(secs => $2) WHERE id = $1 RETURNING identity_verified_until AS until`,
      [sessionId, graceMs / 1000],
    );
    return new Date(row!.until);
  },
};

export const loginFailuresRepository = {
  async get(db: Queryable, userId: number) {
    const [row] = await db.query<{ failures: number; locked: boolean; locked_minutes: number }>(
      `SELECT failures, COALESCE(locked_until > now(), false) AS locked,
              GREATEST(1, CEIL(EXTRACT(EPOCH FROM (locked_until - now())) / 60))::int AS locked_minutes
         FROM login_failures WHERE user_id = $1`,
      [userId],
    );
    return row ?? { failures: 0, locked: false, locked_minutes: 0 };
  },
  /** Counts one more failure; locks the account when the count reaches the limit. */
  async record(db: Queryable, userId: number, lockAfter: number, lockMinutes: number): Promise<number> {
    const [row] = await db.query<{ failures: number }>(
      `INSERT INTO login_failures (user_id, failures) VALUES ($1, 1)
       ON CONFLICT (user_id) DO UPDATE SET
         failures = CASE WHEN login_failures.locked_until IS NOT NULL AND login_failures.locked_until <= now() THEN 1 ELSE login_failures.failures + 1 END,
         last_failure_at = now(),
         locked_until = CASE WHEN login_failures.locked_until IS NOT NULL AND login_failures.locked_until <= now() THEN NULL
                             WHEN login_failures.failures + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE login_failures.locked_until END
       RETURNING failures`,
      [userId, lockAfter, lockMinutes],
    );
    return row!.failures;
  },
  async clear(db: Queryable, userId: number) {
    await db.query(`DELETE FROM login_failures WHERE user_id = $1`, [userId]);
  },
};

export const captchaRepository = {
  async create(db: Queryable, id: string, answer: string) {
    await db.query(`DELETE FROM captchas WHERE expires_at < now()`);
    await db.query(`INSERT INTO captchas (id, answer, expires_at) VALUES ($1, $2, now() + interval '5 minutes')`, [
      id,
      answer,
    ]);
  },
  async answer(db: Queryable, id: string): Promise<string | undefined> {
    const [row] = await db.query<{ answer: string }>(
      `SELECT answer FROM captchas WHERE id = $1 AND used_at IS NULL AND expires_at > now()`,
      [id],
    );
    return row?.answer;
  },
  /** A captcha answers one sign-in attempt only. */
  async use(db: Queryable, id: string): Promise<string | undefined> {
    const [row] = await db.query<{ answer: string }>(
      `UPDATE captchas SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING answer`,
      [id],
    );
    return row?.answer;
  },
};
