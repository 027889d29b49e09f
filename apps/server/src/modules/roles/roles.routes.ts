import { z } from 'zod';
import {
  AllotRoleMenusBody,
  AssignableRoles,
  ManagedRole,
  MenuTree,
  MenuTreeQuery,
  Permission,
  RoleCodeBody,
  RoleCodesBody,
  RoleList,
  RoleListQuery,
  RoleMenus,
  SaveRoleBody,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { RolesService } from './roles.service.js';

/** Account → Role Management, and the menu trees a role's screens and buttons are picked from. */
export function rolesModule(roles: RolesService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/user/role/list',
        {
          schema: {
            tags: ['roles'],
            summary: "The roles that can be given to the caller's users",
            response: { 200: envelope(AssignableRoles) },
          },
          config: { permission: Permission.UserView },
        },
        async (request) => ok(request, await roles.assignable(request.auth)),
      );

      app.post(
        '/user/role/listByPage',
        {
          schema: {
            tags: ['roles'],
            summary: 'Roles with how many users hold them, a page at a time',
            body: RoleListQuery,
            response: { 200: envelope(RoleList) },
          },
          config: { permission: Permission.RoleView },
        },
        async (request) => ok(request, await roles.page(request.auth, request.body)),
      );

      app.post(
        '/user/role/save_or_update',
        {
          schema: {
            tags: ['roles'],
            summary:
              "Add a role of the caller's organization (the super administrator: one a type shares) or rename one",
            body: SaveRoleBody,
            response: { 200: envelope(ManagedRole) },
          },
          config: { permission: Permission.RoleEdit, errors: ['NOT_FOUND', 'ROLE_READ_ONLY'] },
        },
        async (request) => ok(request, await roles.save(request.auth, request.body)),
      );

      app.post(
        '/user/role/setDefault',
        {
          schema: {
            tags: ['roles'],
            summary: 'The role registered users of its type get (super administrator)',
            body: RoleCodeBody,
            response: { 200: envelope(ManagedRole) },
          },
          config: { permission: Permission.RoleEdit, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await roles.setDefault(request.auth, request.body.roleCode)),
      );

      app.post(
        '/user/role/delByIds',
        {
          schema: {
            tags: ['roles'],
            summary: 'Delete roles nobody holds (all or none)',
            body: RoleCodesBody,
            response: { 200: envelope(z.object({ count: z.number() })) },
          },
          config: { permission: Permission.RoleEdit, errors: ['NOT_FOUND', 'ROLE_READ_ONLY', 'ROLE_IN_USE'] },
        },
        async (request) => ok(request, { count: await roles.delete(request.auth, request.body.roleCodes) }),
      );

      app.post(
        '/user/role/allotRolePermission',
        {
          schema: {
            tags: ['roles'],
            summary: "Replace a role's screens and buttons; its users get the change at once",
            body: AllotRoleMenusBody,
            response: { 200: envelope(RoleMenus) },
          },
          config: { permission: Permission.RoleEdit, errors: ['NOT_FOUND', 'ROLE_READ_ONLY'] },
        },
        async (request) =>
          ok(request, await roles.allotMenus(request.auth, request.body.roleCode, request.body.menuCodes)),
      );

      app.post(
        '/permission/listAllMenu',
        {
          schema: {
            tags: ['roles'],
            summary: "Every screen and button a role of the caller's organization type may have, as a tree",
            body: MenuTreeQuery,
            response: { 200: envelope(MenuTree) },
          },
          config: { permission: Permission.RoleView },
        },
        async (request) => ok(request, await roles.menuTree(request.auth, request.body.orgType)),
      );

      app.post(
        '/permission/listMenuByRole',
        {
          schema: {
            tags: ['roles'],
            summary: "A role's ticked screens and buttons",
            body: RoleCodeBody,
            response: { 200: envelope(RoleMenus) },
          },
          config: { permission: Permission.RoleView, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await roles.menusOf(request.auth, request.body.roleCode)),
      );
    },
  };
}
