import type { MenuItem } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

interface MenuRow {
  code: string;
  parent_code: string | null;
  name: string;
  path: string | null;
  icon: string | null;
  show_flag: boolean;
  show_always: boolean;
  component: string | null;
  type: 1 | 2;
  api_permissions: string[];
}

export const menusRepository = {
  /** The role's menu entries as a tree, in display order. */
  async treeForRole(db: Queryable, roleId: number): Promise<MenuItem[]> {
    const rows = await db.query<MenuRow>(
      `SELECT m.code, m.parent_code, m.name, m.path, m.icon, m.show_flag, m.show_always, m.component, m.type, m.api_permissions
         FROM role_menus rm JOIN menus m ON m.id = rm.menu_id WHERE rm.role_id = $1 ORDER BY m.sort, m.code`,
      [roleId],
    );
    const items = new Map<string, MenuItem>();
    for (const r of rows) {
      items.set(r.code, {
        code: r.code,
        name: r.name,
        path: r.path,
        icon: r.icon,
        showFlag: r.show_flag,
        showAlways: r.show_always,
        component: r.component,
        type: r.type,
        apiPermissions: r.api_permissions,
        children: [],
      });
    }
    const roots: MenuItem[] = [];
    for (const r of rows) {
      const item = items.get(r.code)!;
      if (!r.parent_code) roots.push(item);
      else items.get(r.parent_code)?.children.push(item);
    }
    return roots;
  },
};
