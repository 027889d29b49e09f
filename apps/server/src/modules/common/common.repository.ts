import type { Queryable } from '../../platform/db.js';

export const commonRepository = {
  /** The health check's probe: resolves when the database answers a statement. */
  async ping(db: Queryable) {
    await db.query('SELECT 1');
  },
};
