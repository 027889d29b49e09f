import type { Queryable } from '../../platform/db.js';

export interface ExportRow {
  id: number;
  code: string;
  organization_id: number;
  case_ids: string[];
  types: string[];
  status: number;
  progress: number;
  storage_key: string | null;
  size: string | null;
  created_at: Date;
}

/** What an export's live event tells its maker. */
export interface ExportChange {
  code: string;
  organization_id: number;
  user_id: number;
  status: number;
  progress: number;
}
const EXPORT_CHANGE = 'RETURNING code, organization_id, user_id, status, progress';

export const exportsRepository = {
  async insert(db: Queryable, e: { code: string; orgId: number; userId: number; caseIds: number[]; types: string[] }) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO exports (code, organization_id, user_id, case_ids, types)
       VALUES ($1, $2, $3, $4, $5)
       RETURNING id`,
      [e.code, e.orgId, e.userId, e.caseIds, e.types],
    );
    return Number(row!.id);
  },
  /** An export of the organization by code. */
  async find(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<ExportRow>('SELECT * FROM exports WHERE organization_id = $1 AND code = $2', [
      orgId,
      code,
    ]);
    return row;
  },
  /** A packed export (status 1, success) by code, for its signed download link. */
  async findPacked(db: Queryable, code: string) {
    const [row] = await db.query<ExportRow>('SELECT * FROM exports WHERE code = $1 AND status = 1', [code]);
    return row;
  },
  async findById(db: Queryable, id: number) {
    const [row] = await db.query<ExportRow>('SELECT * FROM exports WHERE id = $1', [id]);
    return row;
  },
  /** A new status and progress; the final statuses (1–4) stamp the finishing time. */
  async setState(
    db: Queryable,
    id: number,
    status: number,
    progress: number,
    extra: { key: string | null; size: number | null; error: string | null },
  ) {
    return db.query<ExportChange>(
      `UPDATE exports
          SET status = $2::smallint, progress = $3, storage_key = COALESCE($4, storage_key), size = COALESCE($5, size), error = $6,
              finished_at = CASE WHEN $2::smallint IN (1, 2, 3, 4) THEN now() ELSE finished_at END
        WHERE id = $1
       ${EXPORT_CHANGE}`,
      [id, status, progress, extra.key, extra.size, extra.error],
    );
  },
  /** Only while still packing (status 5), and only forward: a late progress write must never undo the final status. */
  async setProgress(db: Queryable, id: number, progress: number) {
    return db.query<ExportChange>(
      `UPDATE exports SET progress = $2 WHERE id = $1 AND status = 5 AND progress < $2 ${EXPORT_CHANGE}`,
      [id, progress],
    );
  },
  /** The live cases to pack, with their summary's fields, in order. */
  async cases(db: Queryable, caseIds: number[]) {
    return db.query<{
      id: number;
      code: string;
      name: string;
      patient_name: string;
      patient_id: string | null;
      birth_date: string | null;
      scan_date: Date | null;
      dentist: string | null;
      treatments: string[];
      memo: string | null;
    }>(
      `SELECT c.id, c.code, c.name, c.patient_name, c.patient_id, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date,
              c.scan_date, d.name AS dentist, c.treatments, c.memo
         FROM cases c
         LEFT JOIN dentists d ON d.id = c.dentist_id
        WHERE c.id = ANY ($1::bigint[]) AND c.deleted_at IS NULL
        ORDER BY c.id`,
      [caseIds],
    );
  },
  /** The files of these cases, by case and then in the order they were made. */
  async files(db: Queryable, caseIds: number[]) {
    return db.query<{
      case_id: number;
      name: string;
      format: string;
      size: string;
      storage_key: string;
    }>(
      `SELECT case_id, name, format, size, storage_key
         FROM files
        WHERE case_id = ANY ($1::bigint[])
        ORDER BY case_id, id`,
      [caseIds],
    );
  },
  /** The organization's exports holding any of the cases (an erasure): answers their codes and stored keys. */
  async deleteHolding(db: Queryable, organizationId: number, caseIds: number[]) {
    return db.query<{ code: string; key: string | null }>(
      `DELETE FROM exports
        WHERE organization_id = $1 AND case_ids && $2::bigint[]
        RETURNING code, storage_key AS key`,
      [organizationId, caseIds],
    );
  },
  /** Every export of an organization that is being purged; answers the stored keys of those that were packed. */
  async deleteOfOrganization(db: Queryable, organizationId: number) {
    const rows = await db.query<{ key: string | null }>(
      `DELETE FROM exports
        WHERE organization_id = $1
        RETURNING storage_key AS key`,
      [organizationId],
    );
    return rows.flatMap((r) => (r.key ? [r.key] : []));
  },
};
