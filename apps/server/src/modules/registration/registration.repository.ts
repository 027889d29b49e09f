import type { Queryable } from '../../platform/db.js';

export const registrationRepository = {
  /** The built-in role a newly registered organization's administrator gets, for its type of organization. */
  async defaultRole(db: Queryable, orgType: number) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id
         FROM roles
        WHERE org_type = $1 AND is_default_for_registered AND organization_id IS NULL`,
      [orgType],
    );
    return row;
  },
};
