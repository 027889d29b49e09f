import type { Queryable } from '../../platform/db.js';
import { newToken, sha256 } from '../../platform/crypto.js';
import { fail } from '../../platform/errors.js';

export type EmailTokenPurpose = 'confirm_email' | 'reset_password' | 'set_password' | 'change_email';

/** One-time, expiring links. The raw token goes into the link; only its hash is stored. */
export const emailTokens = {
  async issue(db: Queryable, userId: number, purpose: EmailTokenPurpose, validMinutes: number): Promise<string> {
    const token = newToken();
    await emailTokens.issueRaw(db, userId, purpose, validMinutes, token);
    return token;
  },
  /** As `issue`, with a token the caller made (to mail it after the transaction that stores it commits). */
  async issueRaw(db: Queryable, userId: number, purpose: EmailTokenPurpose, validMinutes: number, token: string) {
    // A new link replaces the earlier unused ones of the same purpose.
    await db.query(`UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [
      userId,
      purpose,
    ]);
    await db.query(
      `INSERT INTO email_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(mins => $4))`,
      [sha256(token), userId, purpose, validMinutes],
    );
  },
  /** The link's user, or the catalogue's invalid (2021) / expired (2020) answer. */
  async peek(
    db: Queryable,
    token: string,
    purposes: EmailTokenPurpose[],
  ): Promise<{ userId: number; purpose: EmailTokenPurpose }> {
    const [row] = await db.query<{
      user_id: number;
      purpose: EmailTokenPurpose;
      expired: boolean;
      used_at: Date | null;
    }>(`SELECT user_id, purpose, expires_at < now() AS expired, used_at FROM email_tokens WHERE token_hash = $1`, [
      sha256(token),
    ]);
    if (!row || !purposes.includes(row.purpose) || row.used_at) fail('INVALID_LINK');
    if (row.expired) fail('LINK_EXPIRED');
    return { userId: Number(row.user_id), purpose: row.purpose };
  },
  /** Uses the link once: a conditional update, so two concurrent uses leave one winner. */
  async consume(
    db: Queryable,
    token: string,
    purposes: EmailTokenPurpose[],
  ): Promise<{ userId: number; purpose: EmailTokenPurpose }> {
    const found = await emailTokens.peek(db, token, purposes);
    const rows = await db.query(
      `UPDATE email_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL RETURNING 1`,
      [sha256(token)],
    );
    if (!rows.length) fail('INVALID_LINK');
    return found;
  },
};

/** One-time sign-in signs (`user/free-login/sign`): stored hashed, each tied to the session that made it. */
export const freeLoginSigns = {
  async issue(db: Queryable, s: { userId: number; sessionId: string; tokenHash: string }, validMinutes: number) {
    await db.query(
      `INSERT INTO email_tokens (token_hash, user_id, purpose, session_id, expires_at)
       VALUES ($1, $2, 'free_login', $3, now() + make_interval(mins => $4))`,
      [s.tokenHash, s.userId, s.sessionId, validMinutes],
    );
  },
  /**
   * Uses a sign once. It works only while the session that made it is alive, the password has not changed since
   * it was made, and the user and organization are active; one conditional update, so two uses leave one winner.
   */
  async use(db: Queryable, tokenHash: string): Promise<{ userId: number; userCode: string } | undefined> {
    const [row] = await db.query<{ user_id: number; user_code: string }>(
      `UPDATE email_tokens t SET used_at = now()
         FROM sessions s, users u, organizations o
        WHERE t.token_hash = $1 AND t.purpose = 'free_login' AND t.used_at IS NULL AND t.expires_at > now()
          AND s.id = t.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
          AND u.id = t.user_id AND u.status = 1 AND u.password_changed_at <= t.created_at
          AND o.id = u.organization_id AND o.status = 1
        RETURNING u.id AS user_id, u.user_code`,
      [tokenHash],
    );
    return row ? { userId: Number(row.user_id), userCode: row.user_code } : undefined;
  },
  async expired(db: Queryable, tokenHash: string): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1 FROM email_tokens WHERE token_hash = $1 AND purpose = 'free_login' AND used_at IS NULL AND expires_at <= now()`,
      [tokenHash],
    );
    return rows.length > 0;
  },
};
