import { queryOptions } from '@tanstack/react-query';
import type { MenuNode } from '@portal/contracts';
import { http } from '../../../lib/http';
import { roleKeys } from './keys';

export const menuTreeQuery = (orgType?: number) =>
  queryOptions({
    queryKey: roleKeys.menuTree(orgType),
    queryFn: () => http.post<{ list: MenuNode[] }>('permission/listAllMenu', { orgType }).then((r) => r.list),
  });
export const roleMenusQuery = (roleCode: string) =>
  queryOptions({
    queryKey: roleKeys.menusOf(roleCode),
    queryFn: () =>
      http.post<{ menuCodes: string[] }>('permission/listMenuByRole', { roleCode }).then((r) => r.menuCodes),
  });
/** Replaces a role's screens and buttons; its users get the change at once. */
export const allotRoleMenus = (roleCode: string, menuCodes: string[]) =>
  http.write<{ menuCodes: string[] }>('user/role/allotRolePermission', { roleCode, menuCodes });
