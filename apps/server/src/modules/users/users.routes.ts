import {
  Permission,
  ResetUserPassBody,
  ResetUserPassResult,
  ChangePassBody,
  EmptyEnvelope,
  ForceChangePassBody,
  ToothNumberingBody,
  UpdateUserBody,
  UserInfo,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { UsersService } from './users.service.js';
import { toUserInfo } from './user-info.js';

export function usersModule(users: UsersService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/user/info',
        {
          schema: {
            tags: ['users'],
            summary: 'The signed-in user with organization and role',
            response: { 200: envelope(UserInfo) },
          },
          config: { everyMember: "the caller's own user, read at every start", allowForcedPasswordChange: true },
        },
        async (request) => ok(request, toUserInfo(request.auth.user)),
      );

      app.post(
        '/user/update',
        {
          schema: {
            tags: ['users'],
            summary: 'Update own account info',
            body: UpdateUserBody,
            response: { 200: envelope(UserInfo) },
          },
          config: { everyMember: "own space: the caller's own account info", errors: ['PHONE_TAKEN'] },
        },
        async (request) => ok(request, await users.update(request.auth.userId, request.body)),
      );

      app.post(
        '/user/setToothNumberingSystem',
        {
          schema: {
            tags: ['users'],
            summary: "Set the tooth numbering system ('universal' or 'fdi'; anything else is fdi)",
            body: ToothNumberingBody,
            response: { 200: envelope(UserInfo) },
          },
          config: { everyMember: "the caller's own tooth numbering" },
        },
        async (request) =>
          ok(request, await users.setToothNumbering(request.auth.userId, request.body.toothNumberingSystem)),
      );

      app.post(
        '/user/changePass',
        {
          schema: {
            tags: ['users'],
            summary: 'Change own password (ends the other sessions)',
            body: ChangePassBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            everyMember: "the caller's own password",
            errors: [
              'INVALID_PASSWORD',
              'TOO_MANY_LOGIN_FAILURES',
              'PASSWORD_RULE',
              'PASSWORDS_DONT_MATCH',
              'SAME_PASSWORD',
            ],
          },
        },
        async (request) => {
          await users.changePassword(request.auth.userId, request.auth.sessionId, request.body);
          return ok(request, null);
        },
      );

      app.post(
        '/user/forceChangePass',
        {
          schema: {
            tags: ['users'],
            summary: 'Change a password the user was flagged to change',
            body: ForceChangePassBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            everyMember: "the caller's own forced password change",
            allowForcedPasswordChange: true,
            errors: ['NO_PERMISSION', 'PASSWORD_RULE', 'PASSWORDS_DONT_MATCH', 'SAME_PASSWORD'],
          },
        },
        async (request) => {
          await users.forceChangePassword(request.auth.userId, request.auth.sessionId, request.body);
          return ok(request, null);
        },
      );

      app.post(
        '/user/resetPass',
        {
          schema: {
            tags: ['users'],
            summary:
              "Give a user a temporary password that must be changed at next sign-in (needs the administrator's password within 15 minutes)",
            body: ResetUserPassBody,
            response: { 200: envelope(ResetUserPassResult) },
          },
          config: {
            permission: Permission.UserEdit,
            sensitive: true,
            // §8 names its own code for this call; the client asks for the password on it as on 1014.
            reauthRefusal: 'RESET_NEEDS_VERIFICATION',
            errors: ['NOT_FOUND', 'CANNOT_CHANGE_SELF'],
          },
        },
        async (request) => ok(request, await users.resetPassword(request.auth, request.body.userCode)),
      );
    },
  };
}
