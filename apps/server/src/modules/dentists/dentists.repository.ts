import type { Queryable } from '../../platform/db.js';

/** An organization's dentists; every query is scoped to the organization. */
export const dentistsRepository = {
  /** The dentists by name, each with the number of its live cases. */
  async list(db: Queryable, orgId: number) {
    return db.query<{ id: number; name: string; case_count: number }>(
      `SELECT d.id, d.name,
              (SELECT count(*)::int FROM cases c WHERE c.dentist_id = d.id AND c.deleted_at IS NULL) AS case_count
         FROM dentists d
        WHERE d.organization_id = $1
        ORDER BY lower(d.name)`,
      [orgId],
    );
  },
  /** Whether another dentist of the organization (not `exceptId`) has this name, in any case. */
  async nameTaken(db: Queryable, orgId: number, name: string, exceptId: number | null) {
    const rows = await db.query(
      `SELECT 1
         FROM dentists
        WHERE organization_id = $1 AND lower(name) = lower($2) AND id IS DISTINCT FROM $3`,
      [orgId, name, exceptId],
    );
    return rows.length > 0;
  },
  /** False when the organization has no such dentist. */
  async rename(db: Queryable, orgId: number, id: number, name: string) {
    const rows = await db.query(
      `UPDATE dentists SET name = $3
        WHERE id = $1 AND organization_id = $2
        RETURNING id`,
      [id, orgId, name],
    );
    return rows.length > 0;
  },
  async insert(db: Queryable, orgId: number, name: string) {
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO dentists (organization_id, name) VALUES ($1, $2) RETURNING id',
      [orgId, name],
    );
    return Number(row!.id);
  },
  /** False when the organization has no such dentist. */
  async delete(db: Queryable, orgId: number, id: number) {
    const rows = await db.query(
      `DELETE FROM dentists
        WHERE id = $1 AND organization_id = $2
        RETURNING id`,
      [id, orgId],
    );
    return rows.length > 0;
  },
};
