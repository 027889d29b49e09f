import type { Db } from './db.js';
import { sha256 } from './crypto.js';
import { fail } from './errors.js';

/**
 * Rate limits counted in PostgreSQL in fixed windows, so every server process shares them (the per-process limits
 * of `config.rateLimit` only stop bursts). Keys are stored hashed: no address or account name is kept in the clear.
 */
export class RateLimits {
  constructor(private readonly db: Db) {}

  /** Counts one hit of `key` in the bucket's current window; TOO_MANY_REQUESTS (429) past `max`. */
  async hit(bucket: string, key: string, max: number, windowSeconds: number): Promise<void> {
    const [row] = await this.db.query<{ hits: number }>(
      `WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / $3) * $3) AS start)
       INSERT INTO rate_limit_hits (bucket, key, window_start, expires_at)
       SELECT $1, $2, w.start, w.start + make_interval(secs => $3) FROM w
       ON CONFLICT (bucket, key, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
       RETURNING hits`,
      [bucket, sha256(key.toLowerCase()), windowSeconds],
    );
    if (row!.hits > max) fail('TOO_MANY_REQUESTS');
  }

  /**
   * A lookup anyone may make without signing in (is this account taken, where does its reset mail go): limited per
   * client address and per looked-up subject, so the answers cannot be harvested in bulk.
   */
  async lookup(bucket: string, clientAddress: string, subject: string, limits: LookupLimits): Promise<void> {
    await this.hit(`${bucket}:ip`, clientAddress, limits.perAddress, limits.windowSeconds);
    await this.hit(`${bucket}:subject`, subject, limits.perSubject, limits.windowSeconds);
  }

  /** Forgets windows that are over (hourly housekeeping). */
  async cleanup(): Promise<number> {
    return (await this.db.query(`DELETE FROM rate_limit_hits WHERE expires_at < now() RETURNING 1`)).length;
  }
}

export interface LookupLimits {
  perAddress: number;
  perSubject: number;
  windowSeconds: number;
}
