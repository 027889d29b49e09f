import type { Queryable } from '../../platform/db.js';

export interface ReportRow {
  id: number;
  code: string;
  organization_id: number;
  case_id: number;
  case_code: string;
  patient_name: string;
  organization_name: string;
  organization_region: string;
  title: string;
  draft: unknown;
  version: number;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  /** The latest published version's content, null before the first. */
  published: unknown;
}

export interface SnapshotRow {
  code: string;
  view: string;
  size: string;
  storage_key: string;
  created_at: Date;
}

export interface CaseFileRef {
  code: string;
  name: string;
  format: string;
  kind: string;
  jaw: string | null;
  storage_key: string;
}

const SELECT_REPORT = `
  SELECT r.id, r.code, r.organization_id, r.case_id, r.title, r.draft, r.version,
         r.created_at, r.updated_at, r.published_at,
         c.code AS case_code, c.patient_name,
         o.name AS organization_name, o.region AS organization_region,
         v.content AS published
    FROM reports r
    JOIN cases c ON c.id = r.case_id
    JOIN organizations o ON o.id = r.organization_id
    LEFT JOIN report_versions v ON v.report_id = r.id AND v.version = r.version`;

export const reportsRepository = {
  /**
   * A case's reports with their snapshots (an erasure; the snapshots' trigger gives their bytes back): answers how
   * many reports went and the snapshots' stored keys.
   */
  async deleteOfCase(db: Queryable, caseId: number) {
    const snapshots = await db.query<{ storage_key: string }>(
      `SELECT s.storage_key FROM report_snapshots s JOIN reports r ON r.id = s.report_id WHERE r.case_id = $1`,
      [caseId],
    );
    const reports = await db.query(`DELETE FROM reports WHERE case_id = $1 RETURNING id`, [caseId]);
    return { reports: reports.length, snapshotKeys: snapshots.map((s) => s.storage_key) };
  },
  /** A live case of the organization. */
  async findCase(db: Queryable, orgId: number, caseCode: string) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id
         FROM cases
        WHERE organization_id = $1 AND code = $2 AND deleted_at IS NULL`,
      [orgId, caseCode],
    );
    return row ? Number(row.id) : undefined;
  },

  async listByCase(db: Queryable, caseId: number) {
    return db.query<ReportRow>(`${SELECT_REPORT} WHERE r.case_id = $1 ORDER BY r.created_at DESC, r.id DESC`, [caseId]);
  },

  /** A report of the organization whose case is live. */
  async find(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<ReportRow>(
      `${SELECT_REPORT}
        WHERE r.organization_id = $1 AND r.code = $2 AND c.deleted_at IS NULL`,
      [orgId, code],
    );
    return row;
  },

  /** A report by its id alone, whatever the organization (for a public page that a share already vouched for). */
  async findById(db: Queryable, id: number) {
    const [row] = await db.query<ReportRow>(
      `${SELECT_REPORT}
        WHERE r.id = $1 AND c.deleted_at IS NULL`,
      [id],
    );
    return row;
  },

  /** Locks the report's row for a publication (versions are numbered one after the other). */
  async lock(db: Queryable, id: number) {
    const [row] = await db.query<{ version: number; draft: unknown }>(
      `SELECT version, draft
         FROM reports
        WHERE id = $1
          FOR UPDATE`,
      [id],
    );
    return row;
  },

  async insert(
    db: Queryable,
    r: { code: string; orgId: number; caseId: number; title: string; draft: unknown; userId: number | null },
  ) {
    await db.query(
      `INSERT INTO reports (code, organization_id, case_id, title, draft, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [r.code, r.orgId, r.caseId, r.title, JSON.stringify(r.draft), r.userId],
    );
  },

  async saveDraft(db: Queryable, id: number, title: string, draft: unknown) {
    await db.query(
      `UPDATE reports
          SET title = $2, draft = $3, updated_at = now()
        WHERE id = $1`,
      [id, title, JSON.stringify(draft)],
    );
  },

  async addVersion(
    db: Queryable,
    v: {
      reportId: number;
      version: number;
      content: unknown;
      userId: number | null;
      userName: string;
      /** The publisher's day ('YYYY-MM-DD'). */
      publishedOn: string;
    },
  ) {
    await db.query(
      `INSERT INTO report_versions (report_id, version, content, published_by, published_by_name, published_on)
       VALUES ($1, $2, $3, $4, $5, $6::date)`,
      [v.reportId, v.version, JSON.stringify(v.content), v.userId, v.userName, v.publishedOn],
    );
    await db.query(
      `UPDATE reports
          SET version = $2, published_at = now()
        WHERE id = $1`,
      [v.reportId, v.version],
    );
  },

  async versions(db: Queryable, reportId: number) {
    return db.query<{ version: number; published_at: Date; published_on: string; published_by_name: string }>(
      `SELECT version, published_at, to_char(published_on, 'YYYY-MM-DD') AS published_on, published_by_name
         FROM report_versions
        WHERE report_id = $1
        ORDER BY version DESC`,
      [reportId],
    );
  },

  async versionContent(db: Queryable, reportId: number, version: number) {
    const [row] = await db.query<{ content: unknown }>(
      `SELECT content
         FROM report_versions
        WHERE report_id = $1 AND version = $2`,
      [reportId, version],
    );
    return row?.content;
  },

  /** Deletes a report; its snapshots' rows go with it (their trigger lists the blobs and frees the storage). */
  async delete(db: Queryable, id: number) {
    const keys = await db.query<{ storage_key: string }>(
      `SELECT storage_key
         FROM report_snapshots
        WHERE report_id = $1`,
      [id],
    );
    await db.query(
      `DELETE FROM reports
        WHERE id = $1`,
      [id],
    );
    return keys.map((k) => k.storage_key);
  },

  async snapshots(db: Queryable, reportId: number) {
    return db.query<SnapshotRow>(
      `SELECT code, view, size, storage_key, created_at
         FROM report_snapshots
        WHERE report_id = $1
        ORDER BY id`,
      [reportId],
    );
  },

  async snapshotCount(db: Queryable, reportId: number) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n
         FROM report_snapshots
        WHERE report_id = $1`,
      [reportId],
    );
    return row!.n;
  },

  async insertSnapshot(
    db: Queryable,
    s: { code: string; reportId: number; orgId: number; view: string; size: number; key: string },
  ) {
    await db.query(
      `INSERT INTO report_snapshots (code, report_id, organization_id, view, size, storage_key)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [s.code, s.reportId, s.orgId, s.view, s.size, s.key],
    );
  },

  /** Deletes a snapshot of the report; answers its storage key, or undefined when there is none. */
  async deleteSnapshot(db: Queryable, reportId: number, code: string) {
    const [row] = await db.query<{ storage_key: string }>(
      `DELETE FROM report_snapshots
        WHERE report_id = $1 AND code = $2
       RETURNING storage_key`,
      [reportId, code],
    );
    return row?.storage_key;
  },

  /** The case's files (scans and pictures) a report may show. */
  async caseFiles(db: Queryable, caseId: number) {
    return db.query<CaseFileRef>(
      `SELECT code, name, format, kind, jaw, storage_key
         FROM files
        WHERE case_id = $1
        ORDER BY kind, created_at, id`,
      [caseId],
    );
  },
};
