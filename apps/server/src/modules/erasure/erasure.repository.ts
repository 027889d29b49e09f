import type { ErasureCertificate } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

export interface ErasureRow {
  code: string;
  certificate: ErasureCertificate;
  user_code: string | null;
  user_name: string | null;
}

const SELECT = `SELECT e.code, e.certificate, u.user_code AS user_code, u.display_name AS user_name
                  FROM erasures e LEFT JOIN users u ON u.id = e.user_id`;

export const erasureRepository = {
  async insert(
    db: Queryable,
    e: { code: string; orgId: number; userId: number | null; reason: string; caseIds: number[]; certificate: object },
  ) {
    await db.query(
      `INSERT INTO erasures (code, organization_id, user_id, reason, case_ids, certificate)
       VALUES ($1, $2, (SELECT id FROM users WHERE id = $3), $4, $5, $6)`,
      [e.code, e.orgId, e.userId, e.reason, e.caseIds, JSON.stringify(e.certificate)],
    );
  },
  /** What is still to be removed from the store once the erasure committed and its deletions were tried. */
  async setPendingBlobs(db: Queryable, code: string, pending: number) {
    await db.query(
      `UPDATE erasures SET certificate = jsonb_set(certificate, '{pendingBlobs}', to_jsonb($2::int)) WHERE code = $1`,
      [code, pending],
    );
  },
  async page(db: Queryable, orgId: number, limit: number, offset: number) {
    const [count] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM erasures WHERE organization_id = $1`,
      [orgId],
    );
    const rows = await db.query<ErasureRow>(
      `${SELECT} WHERE e.organization_id = $1 ORDER BY e.created_at DESC, e.id DESC LIMIT $2 OFFSET $3`,
      [orgId, limit, offset],
    );
    return { total: count?.n ?? 0, rows };
  },
  async find(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<ErasureRow>(`${SELECT} WHERE e.organization_id = $1 AND e.code = $2`, [orgId, code]);
    return row;
  },
  /** Which of the ledger's erasures the database knows (the others are older than a restored backup). */
  async known(db: Queryable, codes: string[]) {
    const rows = await db.query<{ code: string }>(`SELECT code FROM erasures WHERE code = ANY ($1::text[])`, [codes]);
    return new Set(rows.map((r) => r.code));
  },
  async organizationExists(db: Queryable, orgId: number) {
    const rows = await db.query(`SELECT 1 FROM organizations WHERE id = $1`, [orgId]);
    return rows.length > 0;
  },
};
