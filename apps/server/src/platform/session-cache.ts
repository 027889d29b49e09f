import type { Db } from './db.js';
import type { UserSessionRow } from '../modules/users/users.repository.js';

/**
 * Signed-in sessions (and role permissions) held in memory, so an authenticated request needs no database round trip.
 * Any change to sessions, users, organizations or roles — by this process or another, through the
 * application or plain SQL — fires the `auth_changed` notification (migration 0002) and every
 * process forgets everything it holds. Entries also age out, as a safety net.
 */
const AUTH_WRITE =
  /^\s*(UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+(sessions|users|organizations|roles|role_menus|menus)\b|^\s*(DELETE\s+FROM\s+oauth_models|UPDATE\s+oauth_apps)\b/i;

export class SessionCache {
  private readonly entries = new Map<string, { row: UserSessionRow; until: number }>();
  private readonly rolePermissions = new Map<number, Set<string>>();
  /** Apps' access tokens with what they stand for (migration 0044: a revoked grant or token, a suspended app notify). */
  private readonly appTokens = new Map<string, { value: unknown; until: number }>();
  /** Other rows of those tables, by a key of the caller's (an app's registration, a user by code). */
  private readonly rows = new Map<string, { value: unknown; until: number }>();
  private unlisten?: () => Promise<void>;
  /** Bumped on every invalidation, so a lookup that raced with a change is not stored. */
  private generation = 0;

  constructor(private readonly opts: { ttlMs: number; maxEntries: number }) {}

  async start(db: Db) {
    this.unlisten = await db.listen('auth_changed', () => this.clear());
  }

  async get(sessionId: string, load: () => Promise<UserSessionRow | undefined>): Promise<UserSessionRow | undefined> {
    if (this.opts.ttlMs <= 0) return load();
    const hit = this.entries.get(sessionId);
    if (hit && hit.until > Date.now()) return hit.row;
    const generation = this.generation;
    const row = await load();
    if (row && generation === this.generation) {
      if (this.entries.size >= this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(sessionId, { row, until: Date.now() + this.opts.ttlMs });
    }
    return row;
  }

  /**
   * The same database with this process's own writes to those tables clearing the cache at once,
   * without waiting for the notification to come back.
   */
  observeWrites(db: Db): Db {
    const touches = (sql: string) => AUTH_WRITE.test(sql);
    const query = async <T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> => {
      const rows = await db.query<T>(sql, params);
      if (touches(sql)) this.clear();
      return rows;
    };
    return {
      ...db,
      query,
      transaction: async (fn) => {
        let wrote = false;
        const result = await db.transaction((tx) =>
          fn({
            query: async (sql, params) => {
              if (touches(sql)) {
                wrote = true;
                this.clear();
              }
              return tx.query(sql, params);
            },
          }),
        );
        if (wrote) this.clear();
        return result;
      },
    };
  }

  /**
   * What an app's access token stands for, held like the sessions and never past the token's own expiry; `load`
   * answers it with that expiry (epoch ms), or undefined for a token that is not (or no longer) valid.
   */
  async appToken<T>(token: string, load: () => Promise<{ value: T; expiresAt: number } | undefined>) {
    if (this.opts.ttlMs <= 0) return (await load())?.value;
    const hit = this.appTokens.get(token);
    if (hit && hit.until > Date.now()) return hit.value as T;
    const generation = this.generation;
    const found = await load();
    if (found && generation === this.generation) {
      if (this.appTokens.size >= this.opts.maxEntries) this.appTokens.delete(this.appTokens.keys().next().value!);
      this.appTokens.set(token, { value: found.value, until: Math.min(Date.now() + this.opts.ttlMs, found.expiresAt) });
    }
    return found?.value;
  }

  /**
   * A row of the tables the change notification covers (users, organizations, apps), held like the sessions: the
   * OpenID provider reads an app's registration and its user on every token request. Nothing is held for a miss.
   */
  async held<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.opts.ttlMs <= 0) return load();
    const hit = this.rows.get(key);
    if (hit && hit.until > Date.now()) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) {
      if (this.rows.size >= this.opts.maxEntries) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(key, { value, until: Date.now() + this.opts.ttlMs });
    }
    return value;
  }

  /** A role's permission codes, held like the sessions: forgotten on every change notification. */
  async permissions(roleId: number, load: () => Promise<string[]>): Promise<Set<string>> {
    const hit = this.rolePermissions.get(roleId);
    if (hit && this.opts.ttlMs > 0) return hit;
    const generation = this.generation;
    const set = new Set(await load());
    if (generation === this.generation && this.opts.ttlMs > 0) this.rolePermissions.set(roleId, set);
    return set;
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
    this.rolePermissions.clear();
    this.appTokens.clear();
    this.rows.clear();
  }

  async stop() {
    // The database may already be closed; there is then nothing left to stop listening to.
    await this.unlisten?.().catch(() => undefined);
  }
}
