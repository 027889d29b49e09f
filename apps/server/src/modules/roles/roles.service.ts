import {
  OrgType,
  PERMISSION_WILDCARD,
  type ManagedRole,
  type MenuNode,
  type RoleListQuery,
  type SaveRoleBody,
} from '@portal/contracts';
import type { AuthContext, Permissions } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail, invalidField } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { rolesRepository, type MenuRow, type RoleRow } from './roles.repository.js';

function toRole(r: RoleRow): ManagedRole {
  return {
    roleCode: r.code,
    name: r.name,
    builtIn: r.built_in,
    orgType: r.org_type,
    organizationCode: r.organization_code,
    defaultForRegistered: r.is_default_for_registered,
    users: Number(r.users),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Menu rows as a tree, the children in display order. */
function toTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map<string, MenuNode>();
  for (const r of rows) {
    nodes.set(r.code, { code: r.code, name: r.name, type: r.type, apiPermissions: r.api_permissions, children: [] });
  }
  const roots: MenuNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.code)!;
    const parent = r.parent_code ? nodes.get(r.parent_code) : undefined;
    if (parent) parent.children.push(node);
    else if (!r.parent_code) roots.push(node);
  }
  return roots;
}

/**
 * Roles (decided in docs/product-decisions.md, "Roles and menus"): built-in roles come with the portal and are
 * read-only; an organization adds roles of its own, limited to the menu entries its built-in role has; the super
 * administrator also adds roles every organization of a type shares, and picks the default role of each type.
 * A change of a role's menu applies to its users at once (every process forgets the permissions it holds).
 */
export class RolesService {
  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
  ) {}

  /**
   * The first of `wanted` the caller does not hold, if any: nobody gives a role, or a user, a permission they do not
   * hold themselves (the wildcard included), so a role editor cannot raise their own role or anyone's.
   */
  private async beyondCaller(auth: Pick<AuthContext, 'roleId'>, wanted: Iterable<string>): Promise<string | undefined> {
    const held = await this.permissions.held(auth);
    const all = held.has(PERMISSION_WILDCARD);
    for (const p of wanted) {
      if (p === PERMISSION_WILDCARD && !all) return p;
      if (!all && !held.has(p)) return p;
    }
    return undefined;
  }

  private isSuper(auth: AuthContext) {
    return auth.orgType === OrgType.Inner;
  }

  /** What the caller sees: everything for the super administrator, else its type's shared roles and its own. */
  private scope(auth: AuthContext) {
    return this.isSuper(auth) ? { orgType: null, orgId: null } : { orgType: auth.orgType, orgId: auth.organizationId };
  }

  /**
   * Refuses acting on users whose role holds a permission the caller does not (1002): someone who may edit users
   * cannot edit, disable or reset the password of an administrator, and so cannot take over their account.
   */
  async assertRolesWithinCaller(auth: Pick<AuthContext, 'roleId'>, roleIds: number[], db: Queryable = this.db) {
    for (const id of new Set(roleIds)) if (!(await this.isWithinCaller(auth, id, db))) fail('NO_PERMISSION');
  }

  /** Whether a role holds nothing the caller does not hold. */
  async isWithinCaller(auth: Pick<AuthContext, 'roleId'>, roleId: number, db: Queryable = this.db) {
    return (await this.beyondCaller(auth, await rolesRepository.permissionsOf(db, roleId))) === undefined;
  }

  rolesByCodes(codes: string[]) {
    return rolesRepository.findByCodes(this.db, codes);
  }

  async page(auth: AuthContext, q: RoleListQuery) {
    const { total, rows } = await rolesRepository.page(this.db, this.scope(auth), {
      keyword: q.keyword,
      limit: q.pageSize,
      offset: (q.pageNum - 1) * q.pageSize,
    });
    return { total, list: rows.map(toRole) };
  }

  /** The roles that may be given to users of an organization (the caller's, or one the super admin names). */
  async assignable(auth: AuthContext, org?: { id: number; type: number }, db: Queryable = this.db) {
    const target = org ?? { id: auth.organizationId, type: auth.orgType };
    const rows = await rolesRepository.all(db, { orgType: target.type, orgId: target.id });
    return { list: rows.map(toRole) };
  }

  /**
   * A role the caller may give to users of `org`, or the field error. Inside a transaction pass it as `db`: a
   * single-connection database would otherwise wait for itself.
   */
  async assignableRole(
    auth: AuthContext,
    roleCode: string,
    org: { id: number; type: number },
    db: Queryable = this.db,
  ) {
    const { list } = await this.assignable(auth, org, db);
    const role = list.find((r) => r.roleCode === roleCode);
    if (!role) invalidField('roleCode', 'paramInvalid');
    const [row] = await rolesRepository.findByCodes(db, [roleCode]);
    const missing = await this.beyondCaller(auth, await rolesRepository.permissionsOf(db, Number(row!.id)));
    if (missing) invalidField('roleCode', 'roleBeyondCaller', { name: row!.name, permission: missing });
    return row!;
  }

  /** A role the caller may change: not built in, and its own (the super administrator: any). */
  private async editable(auth: AuthContext, codes: string[], lock: boolean, db: Queryable = this.db) {
    const rows = await rolesRepository.findByCodes(db, codes, lock);
    if (rows.length !== new Set(codes).size) fail('NOT_FOUND');
    for (const r of rows) {
      const visible =
        this.isSuper(auth) ||
        (r.org_type === auth.orgType &&
          (r.organization_id === null || Number(r.organization_id) === auth.organizationId));
      if (!visible) fail('NOT_FOUND');
      const own = this.isSuper(auth) || Number(r.organization_id) === auth.organizationId;
      if (r.built_in || !own) fail('ROLE_READ_ONLY', { name: r.name });
    }
    return rows;
  }

  async save(auth: AuthContext, body: SaveRoleBody) {
    try {
      if (body.roleCode) {
        const [role] = await this.editable(auth, [body.roleCode], false);
        await rolesRepository.rename(this.db, Number(role!.id), body.name);
        return this.one(body.roleCode);
      }
      // A super administrator's role is shared by every organization of the type it names; anyone else's is
      // their organization's own.
      const shared = this.isSuper(auth) && body.orgType !== undefined && body.orgType !== OrgType.Inner;
      const code = newCode('r');
      await rolesRepository.insert(this.db, {
        code,
        name: body.name,
        orgType: shared ? body.orgType! : auth.orgType,
        organizationId: shared ? null : auth.organizationId,
      });
      return this.one(code);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') invalidField('name', 'nameInUse');
      throw err;
    }
  }

  private async one(code: string) {
    const [row] = await rolesRepository.findByCodes(this.db, [code]);
    return toRole(row!);
  }

  /** The role new registrations of its type get (super administrator; a shared role). */
  async setDefault(auth: AuthContext, roleCode: string) {
    if (!this.isSuper(auth)) fail('NO_PERMISSION');
    const [role] = await rolesRepository.findByCodes(this.db, [roleCode]);
    if (!role) fail('NOT_FOUND');
    if (role.organization_id !== null || role.org_type === OrgType.Inner) invalidField('roleCode', 'paramInvalid');
    await this.db.transaction((tx) => rolesRepository.setDefault(tx, Number(role.id), role.org_type));
    return this.one(roleCode);
  }

  /** Deletes roles nobody holds, all or none. */
  async delete(auth: AuthContext, codes: string[]) {
    await this.db.transaction(async (tx) => {
      const rows = await this.editable(auth, codes, true, tx);
      for (const r of rows) {
        if (Number(r.users) > 0) fail('ROLE_IN_USE', { name: r.name, count: Number(r.users) });
        if (r.is_default_for_registered) throw new AppError('ROLE_IN_USE', { name: r.name }, null, 'roleIsDefault');
      }
      await rolesRepository.delete(
        tx,
        rows.map((r) => Number(r.id)),
      );
    });
    return codes.length;
  }

  /** The menu tree a role of the caller's type may get (the super administrator: of `orgType`, or every entry). */
  async menuTree(auth: AuthContext, orgType?: number) {
    const rows = await rolesRepository.menus(this.db);
    const type = this.isSuper(auth) ? orgType : auth.orgType;
    if (type === undefined) return { list: toTree(rows) };
    const allowed = await rolesRepository.allowedMenuCodes(this.db, type);
    return { list: toTree(rows.filter((r) => allowed.has(r.code))) };
  }

  async menusOf(auth: AuthContext, roleCode: string) {
    const [role] = await rolesRepository.findByCodes(this.db, [roleCode]);
    const visible =
      role &&
      (this.isSuper(auth) ||
        (role.org_type === auth.orgType &&
          (role.organization_id === null || Number(role.organization_id) === auth.organizationId)));
    if (!visible) fail('NOT_FOUND');
    return { menuCodes: await rolesRepository.menuCodesOf(this.db, Number(role.id)) };
  }

  /**
   * Replaces a role's menu entries: only those its organization type may have; the parents of ticked entries are
   * added (a button needs its screen). Takes effect for the role's users at once.
   */
  async allotMenus(auth: AuthContext, roleCode: string, menuCodes: string[]) {
    await this.db.transaction(async (tx) => {
      const [role] = await this.editable(auth, [roleCode], true, tx);
      const allowed = await rolesRepository.allowedMenuCodes(tx, role!.org_type);
      const refused = menuCodes.find((c) => !allowed.has(c));
      if (refused) invalidField('menuCodes', 'menuNotAllowed', { code: refused });
      const menus = await rolesRepository.menus(tx);
      const parents = new Map(menus.map((m) => [m.code, m.parent_code]));
      const codes = new Set<string>();
      for (const c of menuCodes) {
        for (let p: string | null | undefined = c; p; p = parents.get(p)) codes.add(p);
      }
      for (const m of menus.filter((m) => codes.has(m.code))) {
        const missing = await this.beyondCaller(auth, m.api_permissions);
        if (missing) invalidField('menuCodes', 'menuPermissionNotHeld', { code: m.code, permission: missing });
      }
      await rolesRepository.replaceMenus(tx, Number(role!.id), [...codes]);
    });
    return this.menusOf(auth, roleCode);
  }
}
