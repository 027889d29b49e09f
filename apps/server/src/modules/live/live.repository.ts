import type { Queryable } from '../../platform/db.js';

export const liveRepository = {
  /** Hands a signal to every process's listener; nothing is stored. */
  async notifySignal(db: Queryable, payload: string) {
    await db.query(`SELECT pg_notify('live_signals', $1)`, [payload]);
  },
  /** These users have an open, authenticated socket here now (every heartbeat, and when one authenticates). */
  async markPresent(db: Queryable, userIds: number[]) {
    if (!userIds.length) return;
    await db.query(
      `INSERT INTO live_presence (user_id, seen_at)
       SELECT id, now() FROM unnest($1::bigint[]) AS id
       ON CONFLICT (user_id) DO UPDATE SET seen_at = excluded.seen_at`,
      [userIds],
    );
  },
};
