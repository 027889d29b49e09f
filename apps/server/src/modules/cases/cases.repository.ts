import type { CaseListQuery, CaseStatus, Treatment } from '@portal/contracts';
import { pageOf, sqlDayStart, sqlIsoTime, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface CaseRow {
  id: number;
  code: string;
  organization_id: number;
  name: string;
  patient_name: string;
  patient_id: string | null;
  birth_date: string | null;
  /** Times as ISO text (`sqlIsoTime`). */
  scan_date: string | null;
  dentist_id: number | null;
  dentist_name: string | null;
  treatments: Treatment[];
  memo: string | null;
  status: CaseStatus;
  device_serial: string | null;
  file_count: number;
  size: string;
  created_at: string;
  deleted_at: string | null;
  legal_hold_reason: string | null;
  legal_hold_at: string | null;
}

const SORT_COLUMNS: Record<CaseListQuery['sortField'], string> = {
  // Cases not scanned sort by when they were made; the list index is on this expression.
  scanDate: 'COALESCE(c.scan_date, c.created_at)',
  createdAt: 'c.created_at',
  patientName: 'lower(c.patient_name)',
  name: 'lower(c.name)',
};

const COLUMNS = `c.id, c.code, c.organization_id, c.name, c.patient_name, c.patient_id, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date,
       ${sqlIsoTime('c.scan_date')} AS scan_date, c.dentist_id, d.name AS dentist_name, c.treatments, c.memo, c.status,
       dv.serial_number AS device_serial, ${sqlIsoTime('c.created_at')} AS created_at, ${sqlIsoTime('c.deleted_at')} AS deleted_at,
       c.file_count, c.file_bytes AS size, c.legal_hold_reason, ${sqlIsoTime('c.legal_hold_at')} AS legal_hold_at`;
const JOINS = `LEFT JOIN dentists d ON d.id = c.dentist_id LEFT JOIN devices dv ON dv.id = c.device_id`;
const SELECT = `SELECT ${COLUMNS} FROM cases c ${JOINS}`;

/** Every query here is scoped to the caller's organization: a case of another is simply not found. */
/** A case a change reached: what its live event names (cases.service's `changed`). */
export interface ChangedCase {
  code: string;
  organization_id: number;
  status: string;
}
const CHANGED = 'RETURNING code, organization_id, status';

export const casesRepository = {
  /** A page of the organization's cases; `timezone` is the reader's, whose days the date filter means. */
  async list(db: Queryable, orgId: number, q: CaseListQuery & { deleted?: boolean }, timezone = 'UTC') {
    const where = [
      'c.organization_id = $1',
      q.deleted ? 'c.deleted_at IS NOT NULL AND c.purged_at IS NULL' : 'c.deleted_at IS NULL',
    ];
    const params: unknown[] = [orgId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    // A day starts at the reader's midnight: its timezone is one parameter, the days others.
    const zone = q.dateFrom || q.dateTo ? `$${params.push(timezone)}` : '';
    if (q.dateFrom) add(`COALESCE(c.scan_date, c.created_at) >= ${sqlDayStart('?', zone)}`, q.dateFrom);
    if (q.dateTo) add(`COALESCE(c.scan_date, c.created_at) < ${sqlDayStart('?::date + 1', zone)}`, q.dateTo);
    if (q.status) add('c.status = ?', q.status);
    if (q.treatment) add('? = ANY (c.treatments)', q.treatment);
    if (q.dentistId) add('c.dentist_id = ?', q.dentistId);
    const sortKey = q.deleted ? 'c.deleted_at' : SORT_COLUMNS[q.sortField];
    const dir = q.sortOrder === 'asc' && !q.deleted ? 'ASC' : 'DESC';
    const whereSql = where.join(' AND ');
    const limit = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
    const paging = [q.pageSize, (q.pageNum - 1) * q.pageSize];

    if (q.keyword) {
      // A prefix of the patient's name or ID, each as a byte-order range [keyword, keyword + the highest code point)
      // on its own index. The hits are gathered once, from the indexes alone, then counted and cut to the page; only
      // the page's rows are read from the table.
      const from = q.keyword.toLowerCase();
      params.push(from, `${from}\u{10FFFF}`);
      const [a, b] = [`$${params.length - 1}`, `$${params.length}`];
      const prefix = (column: string) => `lower(${column}) COLLATE "C" >= ${a} AND lower(${column}) COLLATE "C" < ${b}`;
      const pageLimit = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
      const rows = await db.query<CaseRow & { total: number }>(
        `WITH hits AS MATERIALIZED (
            SELECT c.id, ${sortKey} AS sort_key FROM cases c WHERE ${whereSql} AND ${prefix('c.patient_name')}
            UNION
            SELECT c.id, ${sortKey} FROM cases c WHERE ${whereSql} AND ${prefix('c.patient_id')})
         ${sqlPageAndTotal(
           'FROM hits',
           `SELECT ${COLUMNS} FROM (SELECT id, sort_key FROM hits ORDER BY sort_key ${dir}, id ${dir} ${pageLimit}) h
              JOIN cases c ON c.id = h.id ${JOINS}
             ORDER BY h.sort_key ${dir}, h.id ${dir}`,
         )}`,
        [...params, ...paging],
      );
      return pageOf(rows);
    }

    // The total is an index-only count; the list index gives the default order, so the page's joins stop after its rows.
    const rows = await db.query<CaseRow & { total: number }>(
      sqlPageAndTotal(
        `FROM cases c WHERE ${whereSql}`,
        `${SELECT} WHERE ${whereSql} ORDER BY ${sortKey} ${dir}, c.id ${dir} ${limit}`,
      ),
      [...params, ...paging],
    );
    return pageOf(rows);
  },

  async find(db: Queryable, orgId: number, code: string, opts: { deleted?: boolean } = {}) {
    const rows = await db.query<CaseRow>(
      `${SELECT} WHERE c.organization_id = $1 AND c.code = $2
          AND ${opts.deleted ? 'c.deleted_at IS NOT NULL AND c.purged_at IS NULL' : 'c.deleted_at IS NULL'}`,
      [orgId, code],
    );
    return rows[0];
  },

  /** A live case of the organization by its id (what a share names). */
  async findById(db: Queryable, orgId: number, id: number) {
    const rows = await db.query<CaseRow>(
      `${SELECT} WHERE c.organization_id = $1 AND c.id = $2 AND c.deleted_at IS NULL`,
      [orgId, id],
    );
    return rows[0];
  },

  async insert(
    db: Queryable,
    c: {
      code: string;
      orgId: number;
      name: string;
      patientName: string;
      patientId: string | null;
      birthDate: string | null;
      scanDate: string | null;
      dentistId: number | null;
      treatments: string[];
      memo: string | null;
      status: string;
      deviceId?: number | null;
      createdBy?: number | null;
    },
  ): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO cases (code, organization_id, name, patient_name, patient_id, birth_date, scan_date, dentist_id, treatments, memo, status, device_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        c.code,
        c.orgId,
        c.name,
        c.patientName,
        c.patientId,
        c.birthDate,
        c.scanDate,
        c.dentistId,
        c.treatments,
        c.memo,
        c.status,
        c.deviceId ?? null,
        c.createdBy ?? null,
      ],
    );
    return Number(row!.id);
  },

  async update(
    db: Queryable,
    orgId: number,
    code: string,
    c: {
      name: string;
      patientName: string;
      patientId: string | null;
      birthDate: string | null;
      scanDate: string | null;
      dentistId: number | null;
      treatments: string[];
      memo: string | null;
    },
  ) {
    const rows = await db.query(
      `UPDATE cases SET name = $3, patient_name = $4, patient_id = $5, birth_date = $6, scan_date = $7, dentist_id = $8, treatments = $9, memo = $10, updated_at = now()
        WHERE organization_id = $1 AND code = $2 AND deleted_at IS NULL RETURNING id`,
      [orgId, code, c.name, c.patientName, c.patientId, c.birthDate, c.scanDate, c.dentistId, c.treatments, c.memo],
    );
    return rows.length > 0;
  },

  /** Files a case under one of the organization's dentists (the demo's scanner cases, as a clinic would file them). */
  async setDentist(db: Queryable, orgId: number, code: string, dentistId: number) {
    await db.query(
      `UPDATE cases
          SET dentist_id = $3, updated_at = now()
        WHERE organization_id = $1 AND code = $2`,
      [orgId, code, dentistId],
    );
  },

  /** Locks one case's row, so the status derived from its orders is written by one transaction at a time. */
  async lock(db: Queryable, caseId: number) {
    await db.query('SELECT id FROM cases WHERE id = $1 FOR UPDATE', [caseId]);
  },
  /** Sets a case's status; the case keeps its update time when the status is already that. */
  async setStatusTo(db: Queryable, caseId: number, to: string) {
    return db.query<ChangedCase>(
      `UPDATE cases SET status = $2, updated_at = now() WHERE id = $1 AND status <> $2 ${CHANGED}`,
      [caseId, to],
    );
  },

  /** A case whose last unfinished upload finished is uploaded (unless it has moved past scanning). */
  async setUploaded(db: Queryable, caseId: number) {
    return db.query<ChangedCase>(
      `UPDATE cases SET status = 'uploaded', updated_at = now()
        WHERE id = $1 AND status IN ('registered', 'toBeProgressed', 'scanCompleted')
          AND NOT EXISTS (SELECT 1 FROM uploads WHERE case_id = $1)
       ${CHANGED}`,
      [caseId],
    );
  },
  /** Adds files to (or, negative, takes them from) the case's file count and bytes. */
  async addFiles(db: Queryable, caseId: number, count: number, bytes: number) {
    return db.query<ChangedCase>(
      `UPDATE cases SET file_count = file_count + $2, file_bytes = file_bytes + $3 WHERE id = $1 ${CHANGED}`,
      [caseId, count, bytes],
    );
  },
  /** Every case of an organization that is being purged. */
  async deleteOfOrganization(db: Queryable, orgId: number) {
    await db.query(
      `DELETE FROM cases
        WHERE organization_id = $1`,
      [orgId],
    );
  },

  async setStatus(db: Queryable, caseId: number, from: string[], to: string) {
    return db.query<ChangedCase>(
      `UPDATE cases SET status = $3, updated_at = now() WHERE id = $1 AND status = ANY ($2::text[]) ${CHANGED}`,
      [caseId, from, to],
    );
  },

  /** Moves live cases to the recycle bin; answers the codes that moved. */
  /** Cases in use (not binned), locked against concurrent orders and binning. */
  async lockActive(db: Queryable, orgId: number, codes: string[]) {
    return db.query<{ id: number; code: string; name: string }>(
      `SELECT id, code, name
         FROM cases
        WHERE organization_id = $1 AND code = ANY ($2::text[]) AND deleted_at IS NULL
        ORDER BY id
          FOR UPDATE`,
      [orgId, codes],
    );
  },
  /** The orders still running (not completed, canceled or rejected) of some cases. */
  async openOrders(db: Queryable, caseIds: number[]) {
    return db.query<{ case_id: number; code: string }>(
      `SELECT case_id, code
         FROM orders
        WHERE case_id = ANY ($1::bigint[]) AND status IN ('pending', 'accepted', 'ready', 'shipped')
        ORDER BY id`,
      [caseIds],
    );
  },
  async softDelete(db: Queryable, caseIds: number[]) {
    return db.query<{ code: string }>(
      `UPDATE cases SET deleted_at = now() WHERE id = ANY ($1::bigint[]) AND deleted_at IS NULL RETURNING code`,
      [caseIds],
    );
  },
  async restore(db: Queryable, orgId: number, codes: string[]) {
    return db.query<{ code: string }>(
      `UPDATE cases SET deleted_at = NULL
        WHERE organization_id = $1 AND code = ANY ($2::text[]) AND deleted_at IS NOT NULL AND purged_at IS NULL
        RETURNING code`,
      [orgId, codes],
    );
  },
  /** Cases in the bin to remove for good: by code, all of an organization's, or all older than a date. */
  async binned(db: Queryable, where: { orgId?: number; codes?: string[]; before?: Date }) {
    return db.query<{ id: number }>(
      `SELECT id
         FROM cases
        WHERE deleted_at IS NOT NULL AND purged_at IS NULL AND legal_hold_reason IS NULL
          AND ($1::bigint IS NULL OR organization_id = $1) AND ($2::text[] IS NULL OR code = ANY ($2::text[]))
          AND ($3::timestamptz IS NULL OR deleted_at < $3)
        ORDER BY id`,
      [where.orgId ?? null, where.codes ?? null, where.before ?? null],
    );
  },
  /**
   * An organization's cases to erase, locked: live, binned or purged (a purged tombstone still names the patient),
   * not erased yet; with whether orders name them and their legal hold.
   */
  /** The cases an erasure names, locked when `lock` (in its transaction), or only looked at (its check before). */
  async forErasure(db: Queryable, orgId: number, codes: string[], lock: boolean) {
    return db.query<{
      id: number;
      code: string;
      file_count: number;
      file_bytes: string;
      legal_hold_reason: string | null;
      has_orders: boolean;
    }>(
      `SELECT id, code, file_count, file_bytes, legal_hold_reason,
              EXISTS (SELECT 1 FROM orders o WHERE o.case_id = cases.id) AS has_orders
         FROM cases
        WHERE organization_id = $1 AND code = ANY ($2::text[]) AND erased_at IS NULL
        ORDER BY id${lock ? '\n          FOR UPDATE' : ''}`,
      [orgId, codes],
    );
  },
  /** Cases by id that are not erased yet (an erasure's replay after a restore). */
  async notErased(db: Queryable, orgId: number, ids: number[]) {
    return db.query<{ code: string }>(
      `SELECT code FROM cases WHERE organization_id = $1 AND id = ANY ($2::bigint[]) AND erased_at IS NULL ORDER BY id`,
      [orgId, ids],
    );
  },
  /**
   * An erased case that orders name: a tombstone without the patient (the laboratory keeps its order), hidden from
   * every case screen.
   */
  async markErased(db: Queryable, caseId: number) {
    return db.query<ChangedCase>(
      `UPDATE cases
          SET name = '', patient_name = '', patient_id = NULL, birth_date = NULL, memo = NULL, treatments = '{}',
              file_count = 0, file_bytes = 0, erased_at = now(), purged_at = COALESCE(purged_at, now()),
              deleted_at = COALESCE(deleted_at, now()), updated_at = now()
        WHERE id = $1 ${CHANGED}`,
      [caseId],
    );
  },
  /** Sets or releases (null) a live or binned case's legal hold; answers the case when it exists. */
  async setLegalHold(db: Queryable, orgId: number, code: string, hold: { reason: string; userId: number } | null) {
    const [row] = await db.query<{ code: string; legal_hold_reason: string | null; legal_hold_at: string | null }>(
      `UPDATE cases
          SET legal_hold_reason = $3, legal_hold_by = $4, legal_hold_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END
        WHERE organization_id = $1 AND code = $2 AND purged_at IS NULL
        RETURNING code, legal_hold_reason, ${sqlIsoTime('legal_hold_at')} AS legal_hold_at`,
      [orgId, code, hold?.reason ?? null, hold?.userId ?? null],
    );
    return row;
  },
  /** Which of the organization's binned cases a legal hold keeps (a purge by code refuses them). */
  async heldOf(db: Queryable, orgId: number, codes: string[]) {
    return db.query<{ code: string }>(
      `SELECT code FROM cases WHERE organization_id = $1 AND code = ANY ($2::text[]) AND legal_hold_reason IS NOT NULL`,
      [orgId, codes],
    );
  },
  /** Locks one binned case for its purge; skipped when another process is purging it. */
  async lockBinned(db: Queryable, caseId: number) {
    const [row] = await db.query<{ id: number; has_orders: boolean }>(
      `SELECT id, EXISTS (SELECT 1 FROM orders o WHERE o.case_id = cases.id) AS has_orders
         FROM cases
        WHERE id = $1 AND deleted_at IS NOT NULL AND purged_at IS NULL AND legal_hold_reason IS NULL
          FOR UPDATE SKIP LOCKED`,
      [caseId],
    );
    return row;
  },
  /** A purged case that orders name: kept as a tombstone without files, hidden from every case screen. */
  async markPurged(db: Queryable, caseId: number) {
    await db.query(
      `UPDATE cases SET purged_at = now(), file_count = 0, file_bytes = 0, updated_at = now() WHERE id = $1`,
      [caseId],
    );
  },
  async delete(db: Queryable, caseId: number) {
    await db.query(`DELETE FROM cases WHERE id = $1`, [caseId]);
  },
  /** Whether the dentist is one of the organization's (a case may only name its own). */
  async hasDentist(db: Queryable, orgId: number, dentistId: number) {
    const rows = await db.query('SELECT 1 FROM dentists WHERE id = $1 AND organization_id = $2', [dentistId, orgId]);
    return rows.length > 0;
  },
  /** A live case a scanner made, with whether uploads to it are still open and how many files it has. */
  async scanProgress(db: Queryable, orgId: number, code: string, deviceId: number) {
    const [row] = await db.query<{ id: number; uploading: boolean; files: number }>(
      `SELECT c.id,
              EXISTS (SELECT 1 FROM uploads u WHERE u.case_id = c.id) AS uploading,
              (SELECT count(*)::int FROM files f WHERE f.case_id = c.id) AS files
         FROM cases c
        WHERE c.organization_id = $1 AND c.code = $2 AND c.device_id = $3 AND c.deleted_at IS NULL`,
      [orgId, code, deviceId],
    );
    return row;
  },
  async idsByCodes(db: Queryable, orgId: number, codes: string[]) {
    return db.query<{ id: number; code: string; name: string; patient_name: string }>(
      `SELECT id, code, name, patient_name FROM cases WHERE organization_id = $1 AND code = ANY ($2::text[]) AND deleted_at IS NULL`,
      [orgId, codes],
    );
  },
};
