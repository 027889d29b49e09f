import type { AccessAction, AccessVia } from '@portal/contracts';
import { sqlDayStart, sqlIsoTime, type Queryable } from '../../platform/db.js';

/** One access as written: ids only (docs/product-decisions.md, "Patient-data access log"). */
export interface AccessRecord {
  ownerOrgId: number;
  action: AccessAction;
  actorUserId: number | null;
  actorOrgId: number | null;
  appId: number | null;
  shareId?: number | null;
  caseId?: number | null;
  orderId?: number | null;
  fileId?: number | null;
  reportId?: number | null;
  address: string | null;
  userAgent: string | null;
}

export interface AccessFilter {
  dateFrom?: string;
  dateTo?: string;
  /** The reader's timezone: the days start at its midnight. */
  timezone: string;
  action?: AccessAction;
  via?: AccessVia;
  userCode?: string;
  caseCode?: string;
  appCode?: string;
}

export interface AccessRow {
  id: string;
  at: string;
  action: AccessAction;
  via: AccessVia;
  user_code: string | null;
  user_name: string | null;
  account: string | null;
  organization_name: string | null;
  app_code: string | null;
  app_name: string | null;
  case_code: string | null;
  order_code: string | null;
  file_code: string | null;
  report_code: string | null;
  address: string | null;
  user_agent: string | null;
}

const VIA_SQL = `CASE WHEN l.actor_user_id IS NULL THEN 'share' WHEN l.app_id IS NOT NULL THEN 'app' ELSE 'member' END`;

/**
 * The entries an organization may read: accesses to its own patients' data (by anyone), and what its own members
 * read of others' (a laboratory's reads of its clinics' orders). Filters are added only when given, so each shape of
 * query keeps one plan.
 */
function filterSql(orgId: number, f: AccessFilter) {
  const params: unknown[] = [orgId];
  const parts = ['(l.owner_org_id = $1 OR l.actor_org_id = $1)'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    parts.push(sql.replaceAll('?', `$${params.length}`));
  };
  const zone = f.dateFrom || f.dateTo ? `$${params.push(f.timezone)}` : '';
  if (f.dateFrom) add(`l.at >= ${sqlDayStart('?', zone)}`, f.dateFrom);
  if (f.dateTo) add(`l.at < ${sqlDayStart('?::date + 1', zone)}`, f.dateTo);
  if (f.action) add('l.action = ?', f.action);
  if (f.via === 'share') parts.push('l.actor_user_id IS NULL');
  if (f.via === 'app') parts.push('l.app_id IS NOT NULL');
  if (f.via === 'member') parts.push('l.actor_user_id IS NOT NULL AND l.app_id IS NULL');
  if (f.userCode) add('l.actor_user_id = (SELECT id FROM users WHERE user_code = ?)', f.userCode);
  if (f.appCode) add('l.app_id = (SELECT id FROM oauth_apps WHERE code = ?)', f.appCode);
  if (f.caseCode) add('l.case_id = (SELECT id FROM cases WHERE code = ?)', f.caseCode);
  return { where: parts.join(' AND '), params };
}

const SELECT = `SELECT l.id::text AS id, ${sqlIsoTime('l.at')} AS at, l.action, ${VIA_SQL} AS via,
       u.user_code, u.display_name AS user_name, u.account,
       CASE WHEN l.actor_org_id IS DISTINCT FROM $1 THEN ao.name END AS organization_name,
       a.code AS app_code, a.name AS app_name,
       c.code AS case_code, o.code AS order_code, f.code AS file_code, r.code AS report_code,
       l.address, l.user_agent
  FROM access_log l
  LEFT JOIN users u ON u.id = l.actor_user_id
  LEFT JOIN organizations ao ON ao.id = l.actor_org_id
  LEFT JOIN oauth_apps a ON a.id = l.app_id
  LEFT JOIN cases c ON c.id = l.case_id
  LEFT JOIN orders o ON o.id = l.order_id
  LEFT JOIN files f ON f.id = l.file_id
  LEFT JOIN reports r ON r.id = l.report_id`;

/** The patient-data access log (`access_log`): appended to, never changed (the table's triggers refuse it). */
export const accessLogRepository = {
  /** The apps (client IDs) that read any of the cases or listed the organization's patients. */
  async appsThatRead(db: Queryable, orgId: number, caseIds: number[]) {
    const rows = await db.query<{ code: string }>(
      `SELECT DISTINCT a.code
         FROM access_log l JOIN oauth_apps a ON a.id = l.app_id
        WHERE l.app_id IS NOT NULL
          AND (l.case_id = ANY ($2::bigint[]) OR (l.owner_org_id = $1 AND l.action IN ('case.list', 'order.list')))
        ORDER BY a.code`,
      [orgId, caseIds],
    );
    return rows.map((r) => r.code);
  },
  async insert(db: Queryable, e: AccessRecord) {
    await db.query(
      `INSERT INTO access_log (owner_org_id, action, actor_user_id, actor_org_id, app_id, share_id, case_id, order_id,
                               file_id, report_id, address, user_agent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        e.ownerOrgId,
        e.action,
        e.actorUserId,
        e.actorOrgId,
        e.appId,
        e.shareId ?? null,
        e.caseId ?? null,
        e.orderId ?? null,
        e.fileId ?? null,
        e.reportId ?? null,
        e.address,
        e.userAgent,
      ],
    );
  },

  /** Several accesses in one statement (an export reads many cases at once). */
  async insertMany(db: Queryable, entries: AccessRecord[]) {
    if (entries.length === 1) return this.insert(db, entries[0]!);
    if (!entries.length) return;
    const col = <T>(pick: (e: AccessRecord) => T) => entries.map(pick);
    await db.query(
      `INSERT INTO access_log (owner_org_id, action, actor_user_id, actor_org_id, app_id, share_id, case_id, order_id,
                               file_id, report_id, address, user_agent)
       SELECT * FROM unnest($1::int8[], $2::text[], $3::int8[], $4::int8[], $5::int8[], $6::int8[], $7::int8[],
                            $8::int8[], $9::int8[], $10::int8[], $11::text[], $12::text[])`,
      [
        col((e) => e.ownerOrgId),
        col((e) => e.action),
        col((e) => e.actorUserId),
        col((e) => e.actorOrgId),
        col((e) => e.appId),
        col((e) => e.shareId ?? null),
        col((e) => e.caseId ?? null),
        col((e) => e.orderId ?? null),
        col((e) => e.fileId ?? null),
        col((e) => e.reportId ?? null),
        col((e) => e.address),
        col((e) => e.userAgent),
      ],
    );
  },

  /** A page of what the organization may read, newest first, with the total. */
  async page(db: Queryable, orgId: number, f: AccessFilter, limit: number, offset: number) {
    const { where, params } = filterSql(orgId, f);
    const [count] = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM access_log l WHERE ${where}`,
      params,
    );
    const rows = await db.query<AccessRow>(
      `${SELECT} WHERE ${where} ORDER BY l.at DESC, l.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { total: count?.total ?? 0, rows };
  },

  /** The newest `limit` entries the organization may read (the CSV export). */
  async newest(db: Queryable, orgId: number, f: AccessFilter, limit: number) {
    const { where, params } = filterSql(orgId, f);
    return db.query<AccessRow>(`${SELECT} WHERE ${where} ORDER BY l.at DESC, l.id DESC LIMIT $${params.length + 1}`, [
      ...params,
      limit,
    ]);
  },

  /**
   * An access through a share (made, or visited): whose patient and which case are read from the share in the same
   * statement (an order's share is its clinic's patient, whichever side made it).
   */
  async insertForShare(
    db: Queryable,
    shareId: number,
    e: Pick<AccessRecord, 'action' | 'actorUserId' | 'actorOrgId' | 'appId' | 'fileId' | 'address' | 'userAgent'>,
  ) {
    await db.query(
      `INSERT INTO access_log (owner_org_id, action, actor_user_id, actor_org_id, app_id, share_id, case_id, order_id,
                               file_id, report_id, address, user_agent)
       SELECT CASE WHEN s.resource_type = 'order' THEN o.clinic_organization_id ELSE s.organization_id END,
              $2, $3, $4, $5, s.id,
              CASE s.resource_type WHEN 'case' THEN s.resource_id WHEN 'order' THEN o.case_id ELSE r.case_id END,
              CASE WHEN s.resource_type = 'order' THEN s.resource_id END,
              $6,
              CASE WHEN s.resource_type = 'report' THEN s.resource_id END,
              $7, $8
         FROM shares s
         LEFT JOIN orders o ON s.resource_type = 'order' AND o.id = s.resource_id
         LEFT JOIN reports r ON s.resource_type = 'report' AND r.id = s.resource_id
        WHERE s.id = $1`,
      [shareId, e.action, e.actorUserId, e.actorOrgId, e.appId, e.fileId ?? null, e.address, e.userAgent],
    );
  },
};
