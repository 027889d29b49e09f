import { UserMenuResult, collectPermissions, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { menusRepository } from './menus.repository.js';

export function menusModule(p: Platform): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/permission/listUserMenu',
        {
          schema: {
            tags: ['menus'],
            summary: "The signed-in user's menu tree and button permission list",
            response: { 200: envelope(UserMenuResult) },
          },
          config: {
            everyMember: "the caller's own menu, which is what decides their screens",
            allowForcedPasswordChange: true,
          },
        },
        async (request) => {
          const menus = await menusRepository.treeForRole(p.db, request.auth.roleId);
          return ok(request, { menus, permissions: collectPermissions(menus) });
        },
      );
    },
  };
}
