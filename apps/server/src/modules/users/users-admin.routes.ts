import { z } from 'zod';
import {
  ManagedUser,
  ManagedUserList,
  Permission,
  SignInDisputeList,
  SaveUserBody,
  UserCodeBody,
  UserCodesBody,
  UserListQuery,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { UsersAdminService } from './users-admin.service.js';
import type { DemoMailbox } from '../mail/demo-mailbox.js';

const Count = envelope(z.object({ count: z.number() }));

/** Account → Users: an organization's administrator manages its users, the super administrator everyone's. */
export function usersAdminModule(users: UsersAdminService, demoMailbox: DemoMailbox): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/user/listByPage',
        {
          schema: {
            tags: ['users'],
            summary: 'Users, a page at a time (the super administrator may name an organization)',
            body: UserListQuery,
            response: { 200: envelope(ManagedUserList) },
          },
          config: { permission: Permission.UserView },
        },
        async (request) => ok(request, await users.list(request.auth, request.body)),
      );

      app.post(
        '/user/signInDisputes',
        {
          schema: {
            tags: ['users'],
            summary:
              'Sign-in identifiers that match more than one user, refused at sign-in until one of them changes it (super administrator)',
            response: { 200: envelope(SignInDisputeList) },
          },
          config: { permission: Permission.UserView },
        },
        async (request) => ok(request, await users.signInDisputes(request.auth)),
      );

      app.post(
        '/user/detail',
        {
          schema: {
            tags: ['users'],
            summary: 'One managed user',
            body: UserCodeBody,
            response: { 200: envelope(ManagedUser) },
          },
          config: { permission: Permission.UserView, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await users.detail(request.auth, request.body.userCode)),
      );

      app.post(
        '/user/save_or_update',
        {
          schema: {
            tags: ['users'],
            summary: 'Add a user (mailed a link to set their password; inactivated until then) or edit one',
            body: SaveUserBody,
            response: { 200: envelope(ManagedUser) },
          },
          config: {
            permission: Permission.UserEdit,
            errors: [
              'NOT_FOUND',
              'ACCOUNT_TAKEN',
              'EMAIL_TAKEN',
              'PHONE_TAKEN',
              'CANNOT_CHANGE_SELF',
              'LAST_ADMINISTRATOR',
            ],
          },
        },
        async (request, reply) => {
          const { user, mailId } = await users.save(request.auth, request.body);
          // Demo mode: the administrator who added the user may read the set-password mail (they could set a
          // password for the user anyway); nobody else.
          if (mailId) demoMailbox.grantMail(request, reply, mailId);
          return ok(request, user);
        },
      );

      app.post(
        '/user/enable',
        {
          schema: { tags: ['users'], summary: 'Enable disabled users', body: UserCodesBody, response: { 200: Count } },
          config: { permission: Permission.UserEdit, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, { count: await users.enable(request.auth, request.body.userCodes) }),
      );

      app.post(
        '/user/disable',
        {
          schema: {
            tags: ['users'],
            summary: "Disable users; their sessions end at once (needs the administrator's password within 15 minutes)",
            body: UserCodesBody,
            response: { 200: Count },
          },
          config: {
            permission: Permission.UserEdit,
            sensitive: true,
            errors: ['NOT_FOUND', 'CANNOT_CHANGE_SELF', 'LAST_ADMINISTRATOR'],
          },
        },
        async (request) => ok(request, { count: await users.disable(request.auth, request.body.userCodes) }),
      );

      app.post(
        '/user/delByIds',
        {
          schema: {
            tags: ['users'],
            summary:
              "Delete users; their cases, orders and events stay (by a former user) (needs the administrator's password within 15 minutes)",
            body: UserCodesBody,
            response: { 200: Count },
          },
          config: {
            permission: Permission.UserEdit,
            sensitive: true,
            errors: ['NOT_FOUND', 'CANNOT_CHANGE_SELF', 'LAST_ADMINISTRATOR'],
          },
        },
        async (request) => ok(request, { count: await users.delete(request.auth, request.body.userCodes) }),
      );
    },
  };
}
