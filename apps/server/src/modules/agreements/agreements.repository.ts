import type { Queryable } from '../../platform/db.js';

export const agreementsRepository = {
  /** Agreements whose version in force the user has not read. */
  async unread(db: Queryable, userId: number) {
    return db.query<{ type: string; version: number; url: string }>(
      `SELECT a.type, a.version, a.url FROM agreements a
        WHERE NOT EXISTS (SELECT 1 FROM agreement_read_logs l WHERE l.user_id = $1 AND l.agreement_type = a.type AND l.version = a.version)
        ORDER BY a.type`,
      [userId],
    );
  },
  /** Whether the user has accepted any agreement, in any version. */
  async hasReadAny(db: Queryable, userId: number) {
    const [row] = await db.query<{ read: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM agreement_read_logs WHERE user_id = $1) AS read`,
      [userId],
    );
    return Boolean(row?.read);
  },
  async markRead(db: Queryable, userId: number, types: string[]) {
    await db.query(
      `INSERT INTO agreement_read_logs (user_id, agreement_type, version)
       SELECT $1, type, version FROM agreements WHERE type = ANY ($2::text[]) ON CONFLICT DO NOTHING`,
      [userId, types],
    );
  },
};
