import type { Queryable } from '../../platform/db.js';

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
  async findReadable(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<FileRow & { case_code: string }>(
      `SELECT f.*, c.code AS case_code FROM files f JOIN cases c ON c.id = f.case_id
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
  /** Adds the file and its bytes to the organization's usage, in one transaction with the caller. */
  async insert(db: Queryable, f: { code: string; orgId: number; caseId: number; name: string; format: string; kind: string; jaw: string | null; size: number; storageKey: string; viewerStatus: string }) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO files (code, organization_id, case_id, name, format, kind, jaw, size, storage_key, viewer_status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [f.code, f.orgId, f.caseId, f.name, f.format, f.kind, f.jaw, f.size, f.storageKey, f.viewerStatus],
    );
    await storageRepository.add(db, f.orgId, f.size);
    await db.query('UPDATE cases SET file_count = file_count + 1, file_bytes = file_bytes + $2 WHERE id = $1', [f.caseId, f.size]);
    return Number(row!.id);
  },
  async delete(db: Queryable, fileId: number) {
    const [row] = await db.query<{ organization_id: number; case_id: number; size: string; storage_key: string; viewer_key: string | null }>(
      `DELETE FROM files WHERE id = $1 RETURNING organization_id, case_id, size, storage_key, viewer_key`,
      [fileId],
    );
    if (row) {
      await storageRepository.add(db, Number(row.organization_id), -Number(row.size));
      await db.query('UPDATE cases SET file_count = file_count - 1, file_bytes = file_bytes - $2 WHERE id = $1', [row.case_id, Number(row.size)]);
    }
    return row;
  },
  /** Removes the rows of whole cases and their bytes from usage; answers the keys to delete from the store. */
  async deleteCases(db: Queryable, caseIds: number[]) {
    const rows = await db.query<{ organization_id: number; size: string; storage_key: string; viewer_key: string | null }>(
      `DELETE FROM files WHERE case_id = ANY ($1::bigint[]) RETURNING organization_id, size, storage_key, viewer_key`,
      [caseIds],
    );
    const perOrg = new Map<number, number>();
    for (const r of rows) perOrg.set(Number(r.organization_id), (perOrg.get(Number(r.organization_id)) ?? 0) + Number(r.size));
    for (const [org, bytes] of perOrg) await storageRepository.add(db, org, -bytes);
    await db.query(`DELETE FROM cases WHERE id = ANY ($1::bigint[])`, [caseIds]);
    return rows.flatMap((r) => [r.storage_key, ...(r.viewer_key ? [r.viewer_key] : [])]);
  },
  async setViewer(db: Queryable, fileId: number, status: 'pending' | 'ready' | 'failed', viewerKey?: string, viewerSize?: number) {
    await db.query(`UPDATE files SET viewer_status = $2, viewer_key = COALESCE($3, viewer_key), viewer_size = COALESCE($4, viewer_size) WHERE id = $1`, [
      fileId, status, viewerKey ?? null, viewerSize ?? null,
    ]);
  },
};

export const storageRepository = {
  async add(db: Queryable, orgId: number, bytes: number) {
    await db.query(
      `INSERT INTO storage_accounts (organization_id, used_bytes) VALUES ($1, GREATEST($2, 0))
       ON CONFLICT (organization_id) DO UPDATE SET used_bytes = storage_accounts.used_bytes + $2`,
      [orgId, bytes],
    );
  },
  async usage(db: Queryable, orgId: number) {
    const [row] = await db.query<{ used: string; quota: string | null; reserved: string }>(
      `SELECT COALESCE((SELECT used_bytes FROM storage_accounts WHERE organization_id = $1), 0) AS used,
              (SELECT quota_bytes FROM storage_accounts WHERE organization_id = $1) AS quota,
              COALESCE((SELECT sum(size) FROM uploads WHERE organization_id = $1), 0) AS reserved`,
      [orgId],
    );
    return { used: Number(row!.used), quota: row!.quota === null ? null : Number(row!.quota), reserved: Number(row!.reserved) };
  },
  /** Serialises quota decisions of one organization (row lock), so two uploads cannot both squeeze in. */
  async lock(db: Queryable, orgId: number) {
    await db.query(`INSERT INTO storage_accounts (organization_id) VALUES ($1) ON CONFLICT DO NOTHING`, [orgId]);
    await db.query(`SELECT 1 FROM storage_accounts WHERE organization_id = $1 FOR UPDATE`, [orgId]);
  },
};
