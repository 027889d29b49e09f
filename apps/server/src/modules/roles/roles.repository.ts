import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface RoleRow {
  id: number;
  code: string;
  name: string;
  org_type: number;
  organization_id: number | null;
  organization_code: string | null;
  built_in: boolean;
  is_default_for_registered: boolean;
  users: number;
  created_at: Date;
}

export interface MenuRow {
  id: number;
  code: string;
  parent_code: string | null;
  name: string;
  type: 1 | 2;
  api_permissions: string[];
  sort: number;
}

/**
 * The roles an organization sees: those every organization of its type shares (organization_id NULL) and its own.
 * `orgId` null with `orgType` null: every role (the super administrator). Users are counted in `countOrgId` (all
 * organizations when null).
 */
function visibleWhere(scope: { orgType: number | null; orgId: number | null }, params: unknown[]) {
  if (scope.orgType === null) return 'true';
  params.push(scope.orgType, scope.orgId);
  return `r.org_type = $${params.length - 1} AND (r.organization_id IS NULL OR r.organization_id = $${params.length})`;
}

const COLUMNS = (
  countParam: string,
) => `r.id, r.code, r.name, r.org_type, r.organization_id, og.code AS organization_code,
       r.built_in, r.is_default_for_registered, r.created_at,
       (SELECT count(*)::int FROM users u
         WHERE u.role_id = r.id AND u.deleted_at IS NULL AND (${countParam}::bigint IS NULL OR u.organization_id = ${countParam})) AS users`;

export const rolesRepository = {
  async page(
    db: Queryable,
    scope: { orgType: number | null; orgId: number | null },
    q: { keyword?: string; limit: number; offset: number },
  ) {
    const params: unknown[] = [];
    const where = [visibleWhere(scope, params)];
    if (q.keyword) {
      params.push(`${q.keyword.toLowerCase()}%`);
      where.push(`lower(r.name) LIKE $${params.length}`);
    }
    params.push(scope.orgId);
    const countParam = `$${params.length}`;
    const rows = await db.query<RoleRow & { total: number }>(
      sqlPageAndTotal(
        `FROM roles r WHERE ${where.join(' AND ')}`,
        `SELECT ${COLUMNS(countParam)}
           FROM roles r LEFT JOIN organizations og ON og.id = r.organization_id
          WHERE ${where.join(' AND ')}
          ORDER BY r.built_in DESC, r.org_type, lower(r.name), r.id
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      ),
      [...params, q.limit, q.offset],
    );
    return pageOf(rows);
  },

  async all(db: Queryable, scope: { orgType: number | null; orgId: number | null }) {
    const params: unknown[] = [];
    const where = visibleWhere(scope, params);
    params.push(scope.orgId);
    return db.query<RoleRow>(
      `SELECT ${COLUMNS(`$${params.length}`)}
         FROM roles r LEFT JOIN organizations og ON og.id = r.organization_id
        WHERE ${where}
        ORDER BY r.built_in DESC, lower(r.name), r.id`,
      params,
    );
  },

  async findByCodes(db: Queryable, codes: string[], lock = false) {
    return db.query<RoleRow>(
      `SELECT ${COLUMNS('NULL')}
         FROM roles r LEFT JOIN organizations og ON og.id = r.organization_id
        WHERE r.code = ANY ($1::text[])
        ORDER BY r.id
        ${lock ? 'FOR UPDATE OF r' : ''}`,
      [codes],
    );
  },

  async insert(db: Queryable, r: { code: string; name: string; orgType: number; organizationId: number | null }) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO roles (code, name, org_type, organization_id) VALUES ($1, $2, $3, $4) RETURNING id`,
      [r.code, r.name, r.orgType, r.organizationId],
    );
    return Number(row!.id);
  },

  async rename(db: Queryable, id: number, name: string) {
    await db.query(`UPDATE roles SET name = $2 WHERE id = $1`, [id, name]);
  },

  /** One default per type (a unique index): the old one is cleared before the new one is set. */
  async setDefault(db: Queryable, id: number, orgType: number) {
    await db.query(
      `UPDATE roles SET is_default_for_registered = false
        WHERE org_type = $1 AND organization_id IS NULL AND is_default_for_registered`,
      [orgType],
    );
    await db.query(`UPDATE roles SET is_default_for_registered = true WHERE id = $1`, [id]);
  },

  async delete(db: Queryable, ids: number[]) {
    await db.query(`DELETE FROM roles WHERE id = ANY ($1::bigint[])`, [ids]);
  },

  /** Every menu entry but the wildcard, in display order. */
  async menus(db: Queryable): Promise<MenuRow[]> {
    return db.query<MenuRow>(
      `SELECT id, code, parent_code, name, type, api_permissions, sort
         FROM menus
        WHERE code <> 'all'
        ORDER BY sort, code`,
    );
  },

  /** The permission codes a role holds through its menu entries. */
  async permissionsOf(db: Queryable, roleId: number): Promise<string[]> {
    const rows = await db.query<{ p: string }>(
      `SELECT DISTINCT unnest(m.api_permissions) AS p
         FROM role_menus rm JOIN menus m ON m.id = rm.menu_id
        WHERE rm.role_id = $1`,
      [roleId],
    );
    return rows.map((r) => r.p);
  },

  /** The menu codes an organization type may give its roles: those of its built-in roles. */
  async allowedMenuCodes(db: Queryable, orgType: number): Promise<Set<string>> {
    const rows = await db.query<{ code: string }>(
      `SELECT DISTINCT m.code
         FROM roles r JOIN role_menus rm ON rm.role_id = r.id JOIN menus m ON m.id = rm.menu_id
        WHERE r.built_in AND r.org_type = $1 AND m.code <> 'all'`,
      [orgType],
    );
    return new Set(rows.map((r) => r.code));
  },

  async menuCodesOf(db: Queryable, roleId: number): Promise<string[]> {
    const rows = await db.query<{ code: string }>(
      `SELECT m.code FROM role_menus rm JOIN menus m ON m.id = rm.menu_id WHERE rm.role_id = $1 ORDER BY m.sort, m.code`,
      [roleId],
    );
    return rows.map((r) => r.code);
  },

  async replaceMenus(db: Queryable, roleId: number, menuCodes: string[]) {
    await db.query(`DELETE FROM role_menus WHERE role_id = $1`, [roleId]);
    await db.query(`INSERT INTO role_menus (role_id, menu_id) SELECT $1, id FROM menus WHERE code = ANY ($2::text[])`, [
      roleId,
      menuCodes,
    ]);
  },
};
