import type { FileFormat } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';
import type { LabScanTerms } from '../orders/lab-scans.js';

export interface FileRow {
  id: number;
  code: string;
  organization_id: number;
  case_id: number;
  name: string;
  format: string;
  kind: string;
  jaw: string | null;
  size: string;
  storage_key: string;
  viewer_key: string | null;
  viewer_status: string;
  unit: string | null;
  created_at: Date;
}

export const filesRepository = {
  async byCase(db: Queryable, caseId: number) {
    return db.query<FileRow>(`SELECT * FROM files WHERE case_id = $1 ORDER BY kind, created_at, id`, [caseId]);
  },
  /** A file of the organization whose case is live. */
  async find(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<FileRow & { case_code: string }>(
      `SELECT f.*, c.code AS case_code FROM files f JOIN cases c ON c.id = f.case_id
        WHERE f.organization_id = $1 AND f.code = $2 AND c.deleted_at IS NULL`,
      [orgId, code],
    );
    return row;
  },
  /** A file the organization may read: its own, or one of a case sent to it as a laboratory in an order. */
  /**
   * A file of the organization's live case, or of a case it is the laboratory of an order for: then with what the
   * laboratory's scan rule reads of each of those orders (`lab_orders`, json: parsed by the driver, or its text).
   */
  async findReadable(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<FileRow & { case_code: string; lab_orders: LabScanTerms[] | string }>(
      `SELECT f.*, c.code AS case_code,
              (SELECT coalesce(json_agg(json_build_object('status', o.status, 'completed_at', o.completed_at,
                                                          'clinic_scan_retention_days', co.scan_retention_days)), '[]')
                 FROM orders o JOIN organizations co ON co.id = o.clinic_organization_id
                WHERE o.case_id = f.case_id AND o.lab_organization_id = $1) AS lab_orders
         FROM files f JOIN cases c ON c.id = f.case_id
        WHERE f.code = $2 AND c.deleted_at IS NULL
          AND (f.organization_id = $1 OR EXISTS (SELECT 1 FROM orders o WHERE o.case_id = f.case_id AND o.lab_organization_id = $1))`,
      [orgId, code],
    );
    return row;
  },
  async findByCode(db: Queryable, code: string) {
    const [row] = await db.query<FileRow>(`SELECT * FROM files WHERE code = $1`, [code]);
    return row;
  },
  /** Whether the organization has a live case (not in the recycle bin) by this code. */
  async caseIsLive(db: Queryable, orgId: number, caseCode: string) {
    const rows = await db.query(
      `SELECT 1
         FROM cases
        WHERE organization_id = $1 AND code = $2 AND deleted_at IS NULL`,
      [orgId, caseCode],
    );
    return rows.length > 0;
  },
  /** What the viewer version's preparation reads of a file. */
  async forPreparation(db: Queryable, fileId: number) {
    const [row] = await db.query<{ id: number; code: string; format: string; size: string; storage_key: string }>(
      'SELECT id, code, format, size, storage_key FROM files WHERE id = $1',
      [fileId],
    );
    return row;
  },
  /** Adds the file and its bytes to the organization's usage, in one transaction with the caller (the case's totals are the cases module's). */
  async insert(
    db: Queryable,
    f: {
      code: string;
      orgId: number;
      caseId: number;
      name: string;
      format: string;
      kind: string;
      jaw: string | null;
      size: number;
      storageKey: string;
      viewerStatus: string;
      sha256?: Buffer;
    },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO files (code, organization_id, case_id, name, format, kind, jaw, size, storage_key, viewer_status, sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        f.code,
        f.orgId,
        f.caseId,
        f.name,
        f.format,
        f.kind,
        f.jaw,
        f.size,
        f.storageKey,
        f.viewerStatus,
        f.sha256 ?? null,
      ],
    );
    await storageRepository.add(db, f.orgId, f.size);
    return Number(row!.id);
  },
  /** A file of the case with exactly these bytes (same size and SHA-256), if there is one. */
  async findSameContent(db: Queryable, caseId: number, size: number, sha256: Buffer) {
    const [row] = await db.query<{ id: number }>(
      'SELECT id FROM files WHERE case_id = $1 AND size = $2 AND sha256 = $3 ORDER BY id LIMIT 1',
      [caseId, size, sha256],
    );
    return row ? Number(row.id) : undefined;
  },
  async delete(db: Queryable, fileId: number) {
    const [row] = await db.query<{
      organization_id: number;
      case_id: number;
      size: string;
      storage_key: string;
      viewer_key: string | null;
    }>(`DELETE FROM files WHERE id = $1 RETURNING organization_id, case_id, size, storage_key, viewer_key`, [fileId]);
    if (row) await storageRepository.add(db, Number(row.organization_id), -Number(row.size));
    return row;
  },
  /** Deletes a case's files and gives their bytes back to the organization; answers the stored keys to delete. */
  async deleteOfCase(db: Queryable, caseId: number) {
    const rows = await db.query<{
      organization_id: number;
      size: string;
      storage_key: string;
      viewer_key: string | null;
    }>(`DELETE FROM files WHERE case_id = $1 RETURNING organization_id, size, storage_key, viewer_key`, [caseId]);
    const perOrg = new Map<number, number>();
    for (const r of rows) {
      perOrg.set(Number(r.organization_id), (perOrg.get(Number(r.organization_id)) ?? 0) + Number(r.size));
    }
    for (const [org, bytes] of perOrg) await storageRepository.add(db, org, -bytes);
    return rows.flatMap((r) => [r.storage_key, ...(r.viewer_key ? [r.viewer_key] : [])]);
  },
  /**
   * Deletes everything an organization that is being purged stored here: its files, its unfinished uploads and its
   * finished ones; answers the stored keys of the files and the ids of the unfinished uploads.
   */
  async deleteOfOrganization(db: Queryable, orgId: number): Promise<{ keys: string[]; uploads: string[] }> {
    const keys: string[] = [];
    for (const f of await db.query<{ storage_key: string; viewer_key: string | null }>(
      `DELETE FROM files
        WHERE organization_id = $1
        RETURNING storage_key, viewer_key`,
      [orgId],
    ))
      keys.push(f.storage_key, ...(f.viewer_key ? [f.viewer_key] : []));
    const uploads = (
      await db.query<{ id: string }>(
        `DELETE FROM uploads
          WHERE organization_id = $1
          RETURNING id`,
        [orgId],
      )
    ).map((r) => r.id);
    await db.query(
      `DELETE FROM finished_uploads
        WHERE organization_id = $1`,
      [orgId],
    );
    return { keys, uploads };
  },
  /** The preparation's outcome: its status, the viewer version when ready, and the unit the model was found in. */
  async setViewer(
    db: Queryable,
    fileId: number,
    status: 'pending' | 'ready' | 'failed',
    opts: { viewerKey?: string; viewerSize?: number; unit?: string } = {},
  ) {
    return db.query<{ code: string; case_code: string; organization_id: number; lab_ids: number[] }>(
      `UPDATE files f SET viewer_status = $2, viewer_key = COALESCE($3, viewer_key), viewer_size = COALESCE($4, viewer_size),
              unit = COALESCE($5, unit)
         FROM cases c
        WHERE f.id = $1 AND c.id = f.case_id
       RETURNING f.code, c.code AS case_code, f.organization_id,
                 ARRAY(SELECT DISTINCT o.lab_organization_id FROM orders o WHERE o.case_id = c.id) AS lab_ids`,
      [fileId, status, opts.viewerKey ?? null, opts.viewerSize ?? null, opts.unit ?? null],
    );
  },
};

export const storageRepository = {
  /** The organization's stored bytes and file count per kind of file. */
  async byKind(db: Queryable, orgId: number) {
    return db.query<{ kind: string; bytes: string; count: number }>(
      `SELECT kind, sum(size) AS bytes, count(*)::int AS count
         FROM files
        WHERE organization_id = $1
        GROUP BY kind
        ORDER BY kind`,
      [orgId],
    );
  },
  /** The bytes of the organization's files whose cases are in the recycle bin. */
  async binnedBytes(db: Queryable, orgId: number) {
    const [row] = await db.query<{ bytes: string }>(
      `SELECT COALESCE(sum(f.size), 0) AS bytes
         FROM files f
         JOIN cases c ON c.id = f.case_id
        WHERE f.organization_id = $1 AND c.deleted_at IS NOT NULL`,
      [orgId],
    );
    return row!;
  },
  /** The organization's ten largest live cases by the bytes of their files. */
  async largestCases(db: Queryable, orgId: number) {
    return db.query<{ code: string; name: string; patient_name: string; size: string }>(
      `SELECT c.code, c.name, c.patient_name, sum(f.size) AS size
         FROM files f
         JOIN cases c ON c.id = f.case_id
        WHERE f.organization_id = $1 AND c.deleted_at IS NULL
        GROUP BY c.id
        ORDER BY sum(f.size) DESC
        LIMIT 10`,
      [orgId],
    );
  },
  /** The organization's ten largest files of live cases. */
  async largestFiles(db: Queryable, orgId: number) {
    return db.query<{ code: string; case_code: string; name: string; size: string }>(
      `SELECT f.code, c.code AS case_code, f.name, f.size
         FROM files f
         JOIN cases c ON c.id = f.case_id
        WHERE f.organization_id = $1 AND c.deleted_at IS NULL
        ORDER BY f.size DESC
        LIMIT 10`,
      [orgId],
    );
  },
  async add(db: Queryable, orgId: number, bytes: number) {
    await db.query(
      `INSERT INTO storage_accounts (organization_id, used_bytes) VALUES ($1, GREATEST($2, 0))
       ON CONFLICT (organization_id) DO UPDATE SET used_bytes = storage_accounts.used_bytes + $2`,
      [orgId, bytes],
    );
  },
  /**
   * Gives other organizations back the bytes of their attachments on some orders (the orders are about to be deleted
   * with an organization that is being purged, `orgId`).
   */
  async releaseAttachments(db: Queryable, orderIds: number[], orgId: number) {
    await db.query(
      `UPDATE storage_accounts s
          SET used_bytes = GREATEST(0, s.used_bytes - a.bytes)
         FROM (SELECT organization_id, sum(size)::bigint AS bytes
                 FROM order_attachments
                WHERE order_id = ANY ($1::bigint[]) AND organization_id <> $2
                GROUP BY organization_id) a
        WHERE s.organization_id = a.organization_id`,
      [orderIds, orgId],
    );
  },
  async usage(db: Queryable, orgId: number) {
    const [row] = await db.query<{ used: string; quota: string | null; reserved: string }>(
      `SELECT COALESCE((SELECT used_bytes FROM storage_accounts WHERE organization_id = $1), 0) AS used,
              (SELECT quota_bytes FROM storage_accounts WHERE organization_id = $1) AS quota,
              COALESCE((SELECT sum(size) FROM uploads WHERE organization_id = $1), 0) AS reserved`,
      [orgId],
    );
    return {
      used: Number(row!.used),
      quota: row!.quota === null ? null : Number(row!.quota),
      reserved: Number(row!.reserved),
    };
  },
  /** Serialises quota decisions of one organization (row lock), so two uploads cannot both squeeze in. */
  async lock(db: Queryable, orgId: number) {
    await db.query(`INSERT INTO storage_accounts (organization_id) VALUES ($1) ON CONFLICT DO NOTHING`, [orgId]);
    await db.query(`SELECT 1 FROM storage_accounts WHERE organization_id = $1 FOR UPDATE`, [orgId]);
  },
};

/** What the tus endpoint knows of an upload: in progress (reserving its bytes) or finished (until it expires). */
export interface UploadState {
  organizationId: number;
  size: number;
  createdAt: Date;
  finished: boolean;
  /** A finished upload's tus metadata (an unfinished one's lives in the tus store). */
  metadata?: Record<string, string | null>;
}

export const uploadsRepository = {
  /** A live case of the organization that an upload may go to. */
  async liveCase(db: Queryable, orgId: number, caseCode: string) {
    const [row] = await db.query<{ id: number }>(
      'SELECT id FROM cases WHERE code = $1 AND organization_id = $2 AND deleted_at IS NULL',
      [caseCode, orgId],
    );
    return row;
  },
  /** The case's files and unfinished uploads together, against the limit of files per case. */
  async countOfCase(db: Queryable, caseId: number) {
    const [row] = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM files WHERE case_id = $1) + (SELECT count(*) FROM uploads WHERE case_id = $1) AS n`,
      [caseId],
    );
    return Number(row!.n);
  },
  /** An unfinished upload, which reserves its bytes until it is finished or discarded. */
  async insert(
    db: Queryable,
    u: {
      id: string;
      orgId: number;
      caseId: number;
      userId: number | null;
      deviceId: number | null;
      name: string;
      format: string;
      jaw: string | null;
      size: number;
      createdAt: Date;
    },
  ) {
    await db.query(
      `INSERT INTO uploads (id, organization_id, case_id, user_id, device_id, name, format, jaw, size, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [u.id, u.orgId, u.caseId, u.userId, u.deviceId, u.name, u.format, u.jaw, u.size, u.createdAt],
    );
  },
  /** An unfinished upload, as finishing it needs it. */
  async pending(db: Queryable, id: string) {
    const [row] = await db.query<{
      organization_id: number;
      case_id: number;
      name: string;
      format: FileFormat;
      jaw: string | null;
      size: string;
      created_at: Date;
    }>('SELECT organization_id, case_id, name, format, jaw, size, created_at FROM uploads WHERE id = $1', [id]);
    return row;
  },
  /** What the content check of an upload's first bytes needs: its format and declared size. */
  async formatAndSize(db: Queryable, id: string) {
    const [row] = await db.query<{ format: FileFormat; size: string }>(
      'SELECT format, size FROM uploads WHERE id = $1',
      [id],
    );
    return row;
  },
  async delete(db: Queryable, id: string) {
    await db.query('DELETE FROM uploads WHERE id = $1', [id]);
  },
  /** Deletes the unfinished upload to finish it; false when another finish claimed it first. */
  async claim(db: Queryable, id: string) {
    const rows = await db.query('DELETE FROM uploads WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  },
  /** Unfinished uploads created longer ago than their expiry. */
  async expired(db: Queryable, olderThanHours: number) {
    return db.query<{ id: string }>(`SELECT id FROM uploads WHERE created_at < now() - make_interval(hours => $1)`, [
      olderThanHours,
    ]);
  },
  async state(db: Queryable, id: string): Promise<UploadState | null> {
    const [row] = await db.query<{
      organization_id: number;
      size: string;
      created_at: Date;
      finished: boolean;
      metadata: Record<string, string | null> | null;
    }>(
      `SELECT organization_id, size, created_at, false AS finished, NULL::jsonb AS metadata FROM uploads WHERE id = $1
       UNION ALL
       SELECT organization_id, size, created_at, true AS finished, metadata FROM finished_uploads WHERE id = $1`,
      [id],
    );
    if (!row) return null;
    return {
      organizationId: Number(row.organization_id),
      size: Number(row.size),
      createdAt: new Date(row.created_at),
      finished: row.finished,
      metadata: row.metadata ?? undefined,
    };
  },
  /** Records the finished upload and the file its bytes belong to; it reserves nothing any more. */
  async insertFinished(
    db: Queryable,
    u: {
      id: string;
      orgId: number;
      caseId: number;
      fileId: number;
      size: number;
      metadata: Record<string, string | null> | undefined;
      createdAt: Date;
    },
  ) {
    await db.query(
      `INSERT INTO finished_uploads (id, organization_id, case_id, file_id, size, metadata, created_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
      [u.id, u.orgId, u.caseId, u.fileId, u.size, u.metadata ? JSON.stringify(u.metadata) : null, u.createdAt],
    );
  },
  /** Drops a case's unfinished uploads (their reservations go with them); answers their ids. */
  async deleteOfCase(db: Queryable, caseId: number) {
    const rows = await db.query<{ id: string }>('DELETE FROM uploads WHERE case_id = $1 RETURNING id', [caseId]);
    return rows.map((r) => r.id);
  },
  /** Finished uploads past their expiry stop answering. */
  async forgetFinished(db: Queryable, olderThanHours: number) {
    await db.query(`DELETE FROM finished_uploads WHERE created_at < now() - make_interval(hours => $1)`, [
      olderThanHours,
    ]);
  },
};
