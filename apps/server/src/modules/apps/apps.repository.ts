import type { Queryable } from '../../platform/db.js';

export interface AppRow {
  id: number;
  code: string;
  name: string;
  logo_url: string | null;
  redirect_uris: string[];
  scopes: string[];
  contact_email: string;
  secret_hash: string | null;
  status: 'pending' | 'active' | 'suspended';
  created_at: string;
  launch_url: string | null;
  activation_expires_at: string | null;
}

export interface AppListRow extends AppRow {
  users: number;
  last_used_at: string | null;
}

export interface ModelRow {
  payload: Record<string, unknown>;
  consumed: number | null;
}

const iso = (column: string, as: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;

const APP = `a.id::int8 AS id, a.code, a.name, a.logo_url, a.redirect_uris, a.scopes, a.contact_email, a.secret_hash,
  a.status, ${iso('a.created_at', 'created_at')}, a.launch_url, ${iso('a.activation_expires_at', 'activation_expires_at')}`;

/** Registered apps, and the OpenID provider's storage (its models and signing keys). */
export const appsRepository = {
  async list(db: Queryable) {
    return db.query<AppListRow>(
      `SELECT ${APP},
              (SELECT count(*)::int FROM authorized_apps x WHERE x.app_id = a.id AND x.revoked_at IS NULL) AS users,
              (SELECT ${iso('max(x.last_used_at)', 'm')} FROM authorized_apps x WHERE x.app_id = a.id) AS last_used_at
         FROM oauth_apps a
        ORDER BY a.id`,
    );
  },

  async findByCode(db: Queryable, code: string, lock = false): Promise<AppRow | undefined> {
    const [row] = await db.query<AppRow>(
      `SELECT ${APP} FROM oauth_apps a WHERE a.code = $1${lock ? ' FOR UPDATE' : ''}`,
      [code],
    );
    return row;
  },

  async insert(
    db: Queryable,
    a: {
      code: string;
      name: string;
      logoUrl: string | null;
      redirectUris: string[];
      scopes: string[];
      contactEmail: string;
      secretHash: string | null;
      launchUrl: string | null;
      /** A pending app's mailed sign (its hash) and how many days it lives; null for an app active at once. */
      activation: { hash: string; days: number } | null;
    },
  ) {
    await db.query(
      `INSERT INTO oauth_apps (code, name, logo_url, redirect_uris, scopes, contact_email, secret_hash, launch_url,
                               status, activation_hash, activation_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9::text IS NULL THEN 'active' ELSE 'pending' END, $9,
               CASE WHEN $9::text IS NULL THEN NULL ELSE now() + make_interval(days => $10::int) END)`,
      [
        a.code,
        a.name,
        a.logoUrl,
        a.redirectUris,
        a.scopes,
        a.contactEmail,
        a.secretHash,
        a.launchUrl,
        a.activation?.hash ?? null,
        a.activation?.days ?? null,
      ],
    );
  },

  /** A new activation link for a pending app (the previous one stops working). */
  async renewActivation(db: Queryable, code: string, hash: string, days: number) {
    await db.query(
      `UPDATE oauth_apps
          SET activation_hash = $2, activation_expires_at = now() + make_interval(days => $3::int), updated_at = now()
        WHERE code = $1 AND status = 'pending'`,
      [code, hash, days],
    );
  },

  /** The pending app a mailed sign names, with whether its link is still good (locked when asked, to activate it). */
  async findByActivation(
    db: Queryable,
    hash: string,
    lock = false,
  ): Promise<(AppRow & { link_live: boolean }) | undefined> {
    const [row] = await db.query<AppRow & { link_live: boolean }>(
      `SELECT ${APP}, a.activation_expires_at > now() AS link_live
         FROM oauth_apps a
        WHERE a.activation_hash = $1 AND a.status = 'pending'${lock ? ' FOR UPDATE' : ''}`,
      [hash],
    );
    return row;
  },

  /** The developer activated a pending app: its link is used up, its secret (if it has one) the new one. */
  async activate(db: Queryable, code: string, secretHash: string | null) {
    await db.query(
      `UPDATE oauth_apps
          SET status = 'active', activation_hash = NULL, activation_expires_at = NULL,
              secret_hash = COALESCE($2, secret_hash), updated_at = now()
        WHERE code = $1 AND status = 'pending'`,
      [code, secretHash],
    );
  },

  async update(
    db: Queryable,
    code: string,
    a: {
      name: string;
      logoUrl: string | null;
      redirectUris: string[];
      scopes: string[];
      contactEmail: string;
      launchUrl: string | null;
    },
  ) {
    await db.query(
      `UPDATE oauth_apps
          SET name = $2, logo_url = $3, redirect_uris = $4, scopes = $5, contact_email = $6, launch_url = $7,
              updated_at = now()
        WHERE code = $1`,
      [code, a.name, a.logoUrl, a.redirectUris, a.scopes, a.contactEmail, a.launchUrl],
    );
  },

  /** Suspends or resumes an activated app (a pending one waits for its developer); answers whether it did. */
  async setStatus(db: Queryable, code: string, status: 'active' | 'suspended'): Promise<boolean> {
    const rows = await db.query(
      `UPDATE oauth_apps
          SET status = $2, updated_at = now()
        WHERE code = $1 AND status <> 'pending'
      RETURNING 1`,
      [code, status],
    );
    return rows.length > 0;
  },

  // The provider's models, one row per (kind, id).

  async upsertModel(
    db: Queryable,
    kind: string,
    id: string,
    payload: Record<string, unknown>,
    expiresInSeconds: number | undefined,
  ) {
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    await db.query(
      `INSERT INTO oauth_models (kind, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (kind, id) DO UPDATE
          SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
              user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
      [
        kind,
        id,
        JSON.stringify(payload),
        text(payload.grantId),
        text(payload.uid),
        text(payload.userCode),
        expiresInSeconds ?? null,
      ],
    );
  },

  async findModel(db: Queryable, kind: string, column: 'id' | 'uid' | 'user_code', value: string) {
    const [row] = await db.query<ModelRow>(
      `SELECT payload, extract(epoch FROM consumed_at)::int8 AS consumed
         FROM oauth_models
        WHERE kind = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())
        LIMIT 1`,
      [kind, value],
    );
    return row;
  },

  /** Whether a model is stored and current (a look before the provider is loaded for it). */
  async modelExists(db: Queryable, kind: string, id: string): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1 FROM oauth_models WHERE kind = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [kind, id],
    );
    return rows.length > 0;
  },

  async consumeModel(db: Queryable, kind: string, id: string) {
    await db.query(
      `UPDATE oauth_models
          SET consumed_at = now()
        WHERE kind = $1 AND id = $2`,
      [kind, id],
    );
  },

  async destroyModel(db: Queryable, kind: string, id: string) {
    await db.query(
      `DELETE FROM oauth_models
        WHERE kind = $1 AND id = $2`,
      [kind, id],
    );
  },

  /** Everything a grant issued (codes, access and refresh tokens), and the grant itself. */
  async revokeGrant(db: Queryable, grantId: string) {
    await db.query(
      `DELETE FROM oauth_models
        WHERE grant_id = $1 OR (kind = 'Grant' AND id = $1)`,
      [grantId],
    );
  },

  /** Housekeeping: models past their lifetime. */
  async deleteExpired(db: Queryable): Promise<number> {
    const rows = await db.query(
      `DELETE FROM oauth_models
        WHERE expires_at < now()
        RETURNING 1`,
    );
    return rows.length;
  },

  async signingKeys(db: Queryable): Promise<string | undefined> {
    const [row] = await db.query<{ jwks_sealed: string }>(`SELECT jwks_sealed FROM oauth_keys WHERE id = 1`);
    return row?.jwks_sealed;
  },

  /** Keeps the first set of keys made: two processes starting at once both read the one that was stored. */
  async saveSigningKeys(db: Queryable, sealed: string) {
    await db.query(
      `INSERT INTO oauth_keys (id, jwks_sealed)
       VALUES (1, $1)
       ON CONFLICT (id) DO NOTHING`,
      [sealed],
    );
  },
};
