import type { Queryable } from '../../platform/db.js';

export const liveRepository = {
  /** Hands a signal to every process's listener; nothing is stored. */
  async notifySignal(db: Queryable, payload: string) {
    await db.query(`SELECT pg_notify('live_signals', $1)`, [payload]);
  },
};
