import type { UserListQuery } from '@portal/contracts';
import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface ManagedUserRow {
  id: number;
  user_code: string;
  account: string;
  display_name: string;
  nickname: string | null;
  email: string;
  phone: string | null;
  gender: number | null;
  status: number;
  organization_id: number;
  org_code: string;
  org_name: string;
  org_type: number;
  role_id: number;
  role_code: string;
  role_name: string;
  role_built_in: boolean;
  /** ISO 8601 in UTC, as the API gives them. */
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

const SORT: Record<UserListQuery['sortField'], string> = {
  createdAt: 'u.created_at',
  account: 'lower(u.account)',
  displayName: 'lower(u.display_name)',
};

/** A moment as ISO 8601 text in UTC: written by PostgreSQL, it is neither parsed into a Date nor formatted again. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const COLUMNS = `u.id, u.user_code, u.account, u.display_name, u.nickname, u.email, u.phone, u.gender, u.status,
       u.organization_id, o.code AS org_code, o.name AS org_name, o.type AS org_type,
       u.role_id, r.code AS role_code, r.name AS role_name, r.built_in AS role_built_in,
       ${iso('u.created_at')} AS created_at, ${iso('u.updated_at')} AS updated_at,
       (SELECT ${iso('s.created_at')} FROM sessions s WHERE s.user_id = u.id ORDER BY s.created_at DESC LIMIT 1)
         AS last_sign_in_at`;
const FROM = `users u JOIN organizations o ON o.id = u.organization_id JOIN roles r ON r.id = u.role_id`;

/** Users as administrators manage them; deleted users are never listed. `orgId` null: every organization. */
export const usersAdminRepository = {
  /** Where an organization works: its users' tooth numbering follows it. */
  async organizationPlace(db: Queryable, orgId: number) {
    const [row] = await db.query<{ region: string; country: string | null; default_tooth_numbering: string | null }>(
      `SELECT region, country, default_tooth_numbering
         FROM organizations
        WHERE id = $1`,
      [orgId],
    );
    return row ?? { region: '', country: null, default_tooth_numbering: null };
  },
  async list(db: Queryable, orgId: number | null, q: UserListQuery & { roleId?: number }) {
    const where = ['u.deleted_at IS NULL'];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replaceAll('?', `$${params.length}`));
    };
    if (orgId !== null) add('u.organization_id = ?', orgId);
    if (q.status !== undefined) add('u.status = ?', q.status);
    if (q.roleId !== undefined) add('u.role_id = ?', q.roleId);
    if (q.keyword) {
      // A prefix of the name, account, email or phone, as a byte-order range on the lower-cased value.
      const from = q.keyword.toLowerCase();
      params.push(from, `${from}\u{10FFFF}`);
      const [a, b] = [`$${params.length - 1}`, `$${params.length}`];
      where.push(
        `((lower(u.display_name) COLLATE "C") BETWEEN ${a} AND ${b} OR (lower(u.account) COLLATE "C") BETWEEN ${a} AND ${b}
          OR (lower(u.email) COLLATE "C") BETWEEN ${a} AND ${b} OR (u.phone COLLATE "C") BETWEEN ${a} AND ${b})`,
      );
    }
    const whereSql = where.join(' AND ');
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const rows = await db.query<ManagedUserRow & { total: number }>(
      sqlPageAndTotal(
        `FROM users u WHERE ${whereSql}`,
        `SELECT ${COLUMNS}
           FROM ${FROM}
          WHERE ${whereSql}
          ORDER BY ${SORT[q.sortField]} ${dir}, u.id ${dir}
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      ),
      [...params, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    return pageOf(rows);
  },

  async findByCodes(db: Queryable, orgId: number | null, codes: string[], lock = false) {
    return db.query<ManagedUserRow>(
      `SELECT ${COLUMNS}
         FROM ${FROM}
        WHERE u.user_code = ANY ($1::text[]) AND u.deleted_at IS NULL AND ($2::bigint IS NULL OR u.organization_id = $2)
        ORDER BY u.id
        ${lock ? 'FOR UPDATE OF u' : ''}`,
      [codes, orgId],
    );
  },

  /** Active users holding an administrator (built-in) role in an organization, other than `except`. */
  async otherActiveAdministrators(db: Queryable, orgId: number, except: number[]) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n
         FROM users u JOIN roles r ON r.id = u.role_id
        WHERE u.organization_id = $1 AND u.status = 1 AND u.deleted_at IS NULL AND r.built_in
          AND NOT (u.id = ANY ($2::bigint[]))`,
      [orgId, except],
    );
    return row!.n;
  },

  async setStatus(db: Queryable, ids: number[], status: number, from: number[]) {
    return db.query<{ id: number }>(
      `UPDATE users SET status = $2, updated_at = now()
        WHERE id = ANY ($1::bigint[]) AND status = ANY ($3::smallint[])
        RETURNING id`,
      [ids, status, from],
    );
  },

  /**
   * A deleted user keeps its row, so cases, orders and events keep their author, but loses what identifies a
   * person: account, email and phone are freed for others, the names emptied (shown as a former user).
   */
  async softDelete(db: Queryable, ids: number[]) {
    await db.query(
      `UPDATE users
          SET deleted_at = now(), status = 2, account = 'former.' || user_code, email = user_code || '@former.invalid',
              phone = NULL, display_name = '', nickname = NULL, avatar = NULL, receive_email = false,
              password_hash = '!', updated_at = now()
        WHERE id = ANY ($1::bigint[]) AND deleted_at IS NULL`,
      [ids],
    );
  },
};
