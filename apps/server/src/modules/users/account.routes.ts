import { z } from 'zod';
import {
  AppCodeBody,
  AuthorizedAppList,
  AVATAR_MAX_BYTES,
  EditAvatarResult,
  EditEmailBody,
  EditEmailResult,
  EditUserBody,
  EditUsernameBody,
  EmailChangeConfirmBody,
  EmailChangeConfirmResult,
  EmptyEnvelope,
  UserDetail,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import { fail } from '../../platform/errors.js';
import { multipartParts, readLimited, type MultipartLimits } from '../../platform/multipart.js';
import type { Module } from '../../platform/services.js';
import type { AccountService } from './account.service.js';

const AVATAR_PARTS: MultipartLimits = { fields: [], fileField: 'file', maxFiles: 1, maxFileBytes: AVATAR_MAX_BYTES };
const AvatarParams = z.object({ key: z.string().regex(/^[0-9a-f]{32}$/) });

/** Own space → account info and auth management. */
export function accountModule(account: AccountService): Module {
  return {
    publicRoutes(app) {
      app.get(
        '/avatar/:key',
        {
          schema: {
            tags: ['users'],
            summary: "A user's avatar image by the address `user/edit_avatar` answered",
            params: AvatarParams,
            produces: ['image/png', 'image/jpeg', 'image/webp'],
          },
          config: { errors: ['NOT_FOUND'] },
        },
        async (request, reply) => {
          const image = await account.avatar(request.params.key);
          // A new avatar gets a new address, so an address's image never changes.
          return reply
            .header('content-type', image.contentType)
            .header('cache-control', 'public, max-age=31536000, immutable')
            .header('content-disposition', 'inline')
            .send(image.bytes);
        },
      );

      app.post(
        '/user/edit_email/confirm',
        {
          schema: {
            tags: ['users'],
            summary: 'Confirm a new email address with the link mailed to it; the old address is told',
            body: EmailChangeConfirmBody,
            response: { 200: envelope(EmailChangeConfirmResult) },
          },
          config: {
            rateLimit: { max: 20, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED', 'EMAIL_TAKEN'],
          },
        },
        async (request) => ok(request, await account.confirmEmailChange(request.body.id)),
      );
    },
    privateRoutes(app) {
      app.post(
        '/user/getUserDetail',
        {
          schema: {
            tags: ['users'],
            summary: 'The signed-in user as own space shows it, with an email change waiting for confirmation',
            response: { 200: envelope(UserDetail) },
          },
          config: { everyMember: "own space: the caller's own account info" },
        },
        async (request) => ok(request, await account.detail(request.auth.userId)),
      );

      app.post(
        '/user/edit',
        {
          schema: {
            tags: ['users'],
            summary: 'Edit own account info: display name, nickname, phone, gender, language',
            body: EditUserBody,
            response: { 200: envelope(UserDetail) },
          },
          config: { everyMember: "own space: the caller's own account info", errors: ['PHONE_TAKEN'] },
        },
        async (request) => ok(request, await account.edit(request.auth.userId, request.body)),
      );

      app.post(
        '/user/edit_username',
        {
          schema: {
            tags: ['users'],
            summary: 'Change own account name; possible once (2070 afterwards)',
            body: EditUsernameBody,
            response: { 200: envelope(UserDetail) },
          },
          config: {
            everyMember: "own space: the caller's own account name",
            errors: ['ACCOUNT_TAKEN', 'ACCOUNT_ALREADY_RENAMED'],
          },
        },
        async (request) => ok(request, await account.editUsername(request.auth.userId, request.body.account)),
      );

      app.post(
        '/user/edit_email',
        {
          schema: {
            tags: ['users'],
            summary:
              'Ask for a new email address (needs the password within 15 minutes): a link goes to it and the change applies when it is opened',
            body: EditEmailBody,
            response: { 200: envelope(EditEmailResult) },
          },
          config: {
            everyMember: "own space: the caller's own email address",
            sensitive: true,
            errors: ['EMAIL_TAKEN'],
          },
        },
        async (request) => ok(request, await account.editEmail(request.auth.userId, request.body.email)),
      );

      app.post(
        '/user/edit_avatar',
        {
          schema: {
            tags: ['users'],
            summary: `Set own avatar (multipart field "file": a PNG, JPEG or WebP image of at most ${AVATAR_MAX_BYTES / 1024 / 1024} MB, checked by content)`,
            response: { 200: envelope(EditAvatarResult) },
          },
          config: {
            everyMember: "own space: the caller's own avatar",
            multipart: AVATAR_PARTS,
            errors: ['FILE_TOO_LARGE', 'TOO_MANY_FILES', 'FILE_CONTENT_MISMATCH'],
          },
        },
        async (request) => {
          let bytes: Buffer | undefined;
          for await (const part of multipartParts(request)) {
            if (part.type === 'file') bytes = await readLimited(part.file, AVATAR_MAX_BYTES);
          }
          if (!bytes) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
          return ok(request, await account.editAvatar(request.auth.userId, bytes));
        },
      );

      app.post(
        '/user/authApp/list',
        {
          schema: {
            tags: ['users'],
            summary: 'Third-party applications the signed-in user authorized',
            response: { 200: envelope(AuthorizedAppList) },
          },
          config: { everyMember: 'own space: the apps the caller authorized' },
        },
        async (request) => ok(request, await account.authorizedApps(request.auth.userId)),
      );

      app.post(
        '/user/authApp/revoke',
        {
          schema: {
            tags: ['users'],
            summary: "Revoke one of the signed-in user's authorized applications",
            body: AppCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { everyMember: 'own space: revoking an app the caller authorized', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await account.revokeApp(request.auth.userId, request.body.appCode);
          return ok(request, null);
        },
      );
    },
  };
}
