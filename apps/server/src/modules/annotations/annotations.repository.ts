import type { Point3 } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

export interface AnnotationRow {
  code: string;
  file_code: string;
  x: number;
  y: number;
  z: number;
  text: string;
  /** Its position in the case's list, oldest first (1-based). */
  number: number;
  /** Null once the author's account is deleted. */
  author_name: string | null;
  created_at: Date | string;
}

export interface MarginLineRow {
  tooth: number;
  file_code: string;
  points: unknown;
  author_name: string | null;
  organization_name: string;
  updated_at: Date | string;
}

/** A case's annotations numbered oldest first; the outer query may pick one of them and keep its number. */
const CASE_LIST = `
  SELECT a.id, a.code, f.code AS file_code, a.x, a.y, a.z, a.text, a.created_at,
         (row_number() OVER (ORDER BY a.created_at, a.id))::int AS number,
         CASE WHEN u.deleted_at IS NULL THEN u.display_name END AS author_name
    FROM annotations a
    JOIN files f ON f.id = a.file_id
    LEFT JOIN users u ON u.id = a.created_by
   WHERE a.case_id = $1`;

/**
 * The 3D viewer tools' tables. The case or order a call names is found by its own module's service (the caller's
 * organization, its side of the order); the statements here take its id. Files are joined for their codes and
 * checked to be a model of the case the annotation or line is pinned to.
 */

/** A margin line with its file's code and who saved it last (no name once that account is deleted). */
const MARGIN_LINES = `
  SELECT m.tooth, f.code AS file_code, m.points, m.updated_at, o.name AS organization_name,
         CASE WHEN u.deleted_at IS NULL THEN u.display_name END AS author_name
    FROM margin_lines m
    JOIN files f ON f.id = m.file_id
    JOIN organizations o ON o.id = m.organization_id
    LEFT JOIN users u ON u.id = m.updated_by`;

export const annotationsRepository = {
  /**
   * A model (scan) file of the case, by its code, share-locked for the transaction that pins something to it: a
   * deletion of the file waits for it (and then takes what was pinned along).
   */
  async lockModelFile(db: Queryable, caseId: number, fileCode: string) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id
         FROM files
        WHERE case_id = $1 AND code = $2 AND kind = 'model'
          FOR KEY SHARE`,
      [caseId, fileCode],
    );
    return row ? Number(row.id) : undefined;
  },

  /**
   * Locks a case that is not in the recycle bin while an annotation is added, so concurrent additions count one
   * after the other (at most the limit) and a case moved to the bin meanwhile takes none.
   */
  async lockLiveCase(db: Queryable, caseId: number) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id
         FROM cases
        WHERE id = $1 AND deleted_at IS NULL
          FOR NO KEY UPDATE`,
      [caseId],
    );
    return Boolean(row);
  },

  async countByCase(db: Queryable, caseId: number) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n
         FROM annotations
        WHERE case_id = $1`,
      [caseId],
    );
    return row!.n;
  },

  async insert(
    db: Queryable,
    a: { code: string; orgId: number; caseId: number; fileId: number; point: Point3; text: string; userId: number },
  ) {
    await db.query(
      `INSERT INTO annotations (code, organization_id, case_id, file_id, x, y, z, text, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [a.code, a.orgId, a.caseId, a.fileId, a.point[0], a.point[1], a.point[2], a.text, a.userId],
    );
  },

  /** A case's annotations, oldest first. */
  async listByCase(db: Queryable, caseId: number) {
    return db.query<AnnotationRow>(`${CASE_LIST} ORDER BY a.created_at, a.id`, [caseId]);
  },

  /** One annotation of a case with its number in the case's list. */
  async findInCase(db: Queryable, caseId: number, code: string) {
    const [row] = await db.query<AnnotationRow>(`SELECT * FROM (${CASE_LIST}) l WHERE l.code = $2`, [caseId, code]);
    return row;
  },

  /** Deletes an annotation of the organization whose case is not in the recycle bin; answers whether one went. */
  async delete(db: Queryable, orgId: number, code: string) {
    const rows = await db.query<{ id: number }>(
      `DELETE FROM annotations a
        USING cases c
        WHERE a.organization_id = $1 AND a.code = $2
          AND c.id = a.case_id AND c.deleted_at IS NULL
        RETURNING a.id`,
      [orgId, code],
    );
    return rows.length > 0;
  },

  /** An order's margin lines by tooth. */
  async marginLines(db: Queryable, orderId: number) {
    return db.query<MarginLineRow>(`${MARGIN_LINES} WHERE m.order_id = $1 ORDER BY m.tooth`, [orderId]);
  },

  async marginLine(db: Queryable, orderId: number, tooth: number) {
    const [row] = await db.query<MarginLineRow>(`${MARGIN_LINES} WHERE m.order_id = $1 AND m.tooth = $2`, [
      orderId,
      tooth,
    ]);
    return row;
  },

  /**
   * The order's status, read under a share lock while a margin line changes: a status change (which updates the
   * row) waits for the line, and a line waits for a status change under way, so a finished order takes none.
   */
  async lockOrderStatus(db: Queryable, orderId: number) {
    const [row] = await db.query<{ status: string }>(
      `SELECT status
         FROM orders
        WHERE id = $1
          FOR SHARE`,
      [orderId],
    );
    return row?.status;
  },

  /** Creates or replaces the tooth's line (one per order and tooth). */
  async saveMarginLine(
    db: Queryable,
    m: { orderId: number; tooth: number; fileId: number; points: Point3[]; orgId: number; userId: number },
  ) {
    await db.query(
      `INSERT INTO margin_lines (order_id, tooth, file_id, points, organization_id, updated_by)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6)
       ON CONFLICT (order_id, tooth) DO UPDATE
         SET file_id = EXCLUDED.file_id, points = EXCLUDED.points, organization_id = EXCLUDED.organization_id,
             updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [m.orderId, m.tooth, m.fileId, JSON.stringify(m.points), m.orgId, m.userId],
    );
  },

  /** Answers whether the tooth had a line. */
  async deleteMarginLine(db: Queryable, orderId: number, tooth: number) {
    const rows = await db.query<{ id: number }>(
      `DELETE FROM margin_lines
        WHERE order_id = $1 AND tooth = $2
        RETURNING id`,
      [orderId, tooth],
    );
    return rows.length > 0;
  },
};
