import type { ShareResourceType } from '@portal/contracts';
import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface ShareRow {
  id: number;
  code: string;
  resource_type: ShareResourceType;
  resource_id: number;
  organization_id: number;
  created_by: number | null;
  password_hash: string | null;
  expires_at: Date | string | null;
  show_patient_name: boolean;
  revoked_at: Date | string | null;
  version: number;
  created_at: Date | string;
}
export interface ShareListRow extends ShareRow {
  creator_name: string | null;
  views: number;
  last_viewed_at: Date | string | null;
}
export interface PublicShareRow extends ShareRow {
  organization_name: string;
  /** Whether the share is over (revoked or past its expiry), judged by the database's clock. */
  ended: boolean;
}

export const sharesRepository = {
  /** The share links of a case, of its reports and of its orders (an erasure); answers how many went. */
  async deleteOfCase(db: Queryable, caseId: number) {
    const rows = await db.query(
      `DELETE FROM shares
        WHERE (resource_type = 'case' AND resource_id = $1)
           OR (resource_type = 'report' AND resource_id IN (SELECT id FROM reports WHERE case_id = $1))
           OR (resource_type = 'order' AND resource_id IN (SELECT id FROM orders WHERE case_id = $1))
        RETURNING id`,
      [caseId],
    );
    return rows.length;
  },
  async insert(
    db: Queryable,
    s: {
      code: string;
      resourceType: ShareResourceType;
      resourceId: number;
      organizationId: number;
      createdBy: number;
      passwordHash: string | null;
      expiresInDays: number | null;
      showPatientName: boolean;
    },
  ) {
    const [row] = await db.query<ShareRow>(
      `INSERT INTO shares (code, resource_type, resource_id, organization_id, created_by, password_hash, expires_at,
                           show_patient_name)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(days => $7::int) END,
               $8)
       RETURNING *`,
      [
        s.code,
        s.resourceType,
        s.resourceId,
        s.organizationId,
        s.createdBy,
        s.passwordHash,
        s.expiresInDays,
        s.showPatientName,
      ],
    );
    return row!;
  },

  /** The shares of one resource of the organization, newest first, with their view counts. */
  async listByResource(db: Queryable, orgId: number, resourceType: ShareResourceType, resourceId: number) {
    return db.query<ShareListRow>(
      `SELECT s.*, u.display_name AS creator_name, v.views, v.last_viewed_at
         FROM shares s
         LEFT JOIN users u ON u.id = s.created_by
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS views, max(l.at) AS last_viewed_at
             FROM access_log l
            WHERE l.share_id = s.id AND l.action = 'share.page'
         ) v
        WHERE s.organization_id = $1 AND s.resource_type = $2 AND s.resource_id = $3
        ORDER BY s.created_at DESC, s.id DESC`,
      [orgId, resourceType, resourceId],
    );
  },

  /** A share of the organization by its code (the sharer's calls). */
  async findInOrganization(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<ShareListRow>(
      `SELECT s.*, u.display_name AS creator_name, 0 AS views, NULL AS last_viewed_at
         FROM shares s
         LEFT JOIN users u ON u.id = s.created_by
        WHERE s.organization_id = $1 AND s.code = $2`,
      [orgId, code],
    );
    return row;
  },

  /**
   * A share by its public code with the sharer's organization name. One row comes back whether or not the code
   * exists (all null when it does not), so an unknown code costs what a known one does.
   */
  async findPublic(db: Queryable, code: string): Promise<PublicShareRow | undefined> {
    const [row] = await db.query<PublicShareRow | { [K in keyof PublicShareRow]: null }>(
      `SELECT s.*, o.name AS organization_name,
              (s.revoked_at IS NOT NULL OR (s.expires_at IS NOT NULL AND s.expires_at <= now())) AS ended
         FROM (SELECT $1::text AS asked) q
         LEFT JOIN shares s ON s.code = q.asked
         LEFT JOIN organizations o ON o.id = s.organization_id`,
      [code],
    );
    return row?.id == null ? undefined : row;
  },

  /** Ends a share once: the sharer, or anyone when `anyMember` (the organization's administrator). */
  async revoke(db: Queryable, shareId: number, userId: number, anyMember: boolean) {
    const [row] = await db.query<ShareRow>(
      `UPDATE shares
          SET revoked_at = now(), version = version + 1
        WHERE id = $1 AND revoked_at IS NULL AND ($3::boolean OR created_by = $2)
        RETURNING *`,
      [shareId, userId, anyMember],
    );
    return row;
  },

  /** A share's visits (the access log's entries made through it by visitors), newest first. */
  async accessLog(db: Queryable, shareId: number, limit: number, offset: number) {
    const rows = await db.query<{
      id: number;
      at: Date | string;
      action: 'share.page' | 'share.pdf' | 'share.file';
      user_agent: string;
      address: string;
      total: number;
    }>(
      sqlPageAndTotal(
        'FROM access_log WHERE share_id = $1 AND actor_user_id IS NULL',
        `SELECT id, at, action, user_agent, address
           FROM access_log
          WHERE share_id = $1 AND actor_user_id IS NULL
          ORDER BY at DESC, id DESC
          LIMIT $2 OFFSET $3`,
      ),
      [shareId, limit, offset],
    );
    return pageOf(rows);
  },
};
