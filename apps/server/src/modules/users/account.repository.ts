import type { Queryable } from '../../platform/db.js';

export interface AvatarRow {
  content_type: string;
  bytes: Buffer | Uint8Array;
}

export interface AuthorizedAppRow {
  app_code: string;
  app_name: string;
  scopes: string;
  authorized_at: Date;
  last_used_at: Date | null;
  /** The app's client ID when it is active and has a launch address. */
  launch_client_id: string | null;
}

/** Own space: what a user changes about their own account. */
export const accountRepository = {
  /** Renames the account once: answers false when it was renamed before (the flag is checked in the update). */
  async renameOnce(db: Queryable, userId: number, account: string): Promise<boolean> {
    const rows = await db.query(
      `UPDATE users
          SET account = $2, account_changed = true, updated_at = now()
        WHERE id = $1 AND NOT account_changed
        RETURNING 1`,
      [userId, account],
    );
    return rows.length > 0;
  },
  async setPendingEmail(db: Queryable, userId: number, email: string | null) {
    await db.query(
      `UPDATE users
          SET pending_email = $2, updated_at = now()
        WHERE id = $1`,
      [userId, email],
    );
  },
  /** Applies the waiting email change; answers the address it replaced, or undefined when none was waiting. */
  async applyPendingEmail(db: Queryable, userId: number): Promise<{ old: string; email: string } | undefined> {
    const [row] = await db.query<{ old: string; email: string }>(
      `UPDATE users u
          SET email = u.pending_email, pending_email = NULL, updated_at = now()
         FROM (SELECT id, email AS old FROM users WHERE id = $1 FOR UPDATE) before
        WHERE u.id = before.id AND u.pending_email IS NOT NULL
        RETURNING before.old, u.email`,
      [userId],
    );
    return row;
  },
  /** One avatar per user: a new one replaces the old (and its address). */
  async saveAvatar(db: Queryable, userId: number, key: string, contentType: string, bytes: Buffer) {
    await db.query(
      `DELETE FROM user_avatars
        WHERE user_id = $1`,
      [userId],
    );
    await db.query(
      `INSERT INTO user_avatars (key, user_id, content_type, bytes)
       VALUES ($1, $2, $3, $4)`,
      [key, userId, contentType, bytes],
    );
  },
  async setAvatarAddress(db: Queryable, userId: number, address: string) {
    await db.query(
      `UPDATE users
          SET avatar = $2, updated_at = now()
        WHERE id = $1`,
      [userId, address],
    );
  },
  async avatarByKey(db: Queryable, key: string): Promise<AvatarRow | undefined> {
    const [row] = await db.query<AvatarRow>(
      `SELECT content_type, bytes
         FROM user_avatars
        WHERE key = $1`,
      [key],
    );
    return row;
  },
  async authorizedApps(db: Queryable, userId: number): Promise<AuthorizedAppRow[]> {
    return db.query<AuthorizedAppRow>(
      `SELECT x.app_code, x.app_name, x.scopes, x.authorized_at, x.last_used_at, o.code AS launch_client_id
         FROM authorized_apps x
         LEFT JOIN oauth_apps o ON o.id = x.app_id AND o.status = 'active' AND o.launch_url IS NOT NULL
        WHERE x.user_id = $1 AND x.revoked_at IS NULL
        ORDER BY x.authorized_at DESC, x.id DESC`,
      [userId],
    );
  },
  /**
   * Revokes one of the user's own authorizations: answers its provider grant (null when it has none), or undefined
   * for another's or an unknown one.
   */
  async revokeApp(db: Queryable, userId: number, appCode: string): Promise<{ grant_id: string | null } | undefined> {
    const [row] = await db.query<{ grant_id: string | null }>(
      `UPDATE authorized_apps
          SET revoked_at = now()
        WHERE app_code = $1 AND user_id = $2 AND revoked_at IS NULL
        RETURNING grant_id`,
      [appCode, userId],
    );
    return row;
  },
  /** The user's live authorization of a registered app, with its provider grant. */
  async liveAuthorization(db: Queryable, userId: number, appId: number) {
    const [row] = await db.query<{ app_code: string; grant_id: string | null }>(
      `SELECT app_code, grant_id
         FROM authorized_apps
        WHERE user_id = $1 AND app_id = $2 AND revoked_at IS NULL`,
      [userId, appId],
    );
    return row;
  },
  /** Records (or renews) a user's authorization of a registered app: one live row per user and app. */
  async recordAuthorization(
    db: Queryable,
    a: { appCode: string; userId: number; appId: number; appName: string; scopes: string; grantId: string },
  ) {
    await db.query(
      `INSERT INTO authorized_apps (app_code, user_id, app_name, scopes, app_id, grant_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, app_id) WHERE revoked_at IS NULL AND app_id IS NOT NULL
       DO UPDATE SET app_name = EXCLUDED.app_name, scopes = EXCLUDED.scopes, grant_id = EXCLUDED.grant_id,
                     authorized_at = now()`,
      [a.appCode, a.userId, a.appName, a.scopes, a.appId, a.grantId],
    );
  },
  /** Notes that an app used its authorization (at most once a minute per grant). */
  async markUsed(db: Queryable, grantId: string) {
    await db.query(
      `UPDATE authorized_apps
          SET last_used_at = now()
        WHERE grant_id = $1 AND revoked_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [grantId],
    );
  },
};
