import {
  AppCallLog,
  AppCallLogBody,
  AppActivated,
  AppActivation,
  AppCodeOnlyBody,
  AppCreateBody,
  AppCreated,
  AppEditBody,
  AppInteraction,
  AppInteractionBody,
  AppInteractionDone,
  AppInteractionUidBody,
  AppLaunch,
  AppSignBody,
  Permission,
  RegisteredApp,
  RegisteredAppList,
  envelope,
} from '@portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue, ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { DemoMailbox } from '../mail/demo-mailbox.js';
import type { AppsService } from './apps.service.js';
import { INTERACTION_COOKIE, INTERACTION_COOKIE_PATH } from './openid-provider.js';

const MANAGE = { permission: Permission.AppManage } as const;

/** The uid of the authorization request this browser started (the provider set the cookie on its way to the page). */
const browserUid = (request: FastifyRequest) => cookieValue(request.headers.cookie, INTERACTION_COOKIE);

/** An answered request needs its cookie no more. */
const forgetInteraction = (reply: FastifyReply) =>
  reply.header(
    'set-cookie',
    `${INTERACTION_COOKIE}=; Path=${INTERACTION_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`,
  );

/**
 * Apps (docs/product-decisions.md, "Apps"; docs/api.md, "Apps: OAuth 2.0 / OpenID Connect"): the register of OAuth
 * apps, their activation from a mailed link, opening one for a user, and the calls the sign-in and consent page makes
 * for the provider. The demo mailbox shows the administrator's browser the activation mails it caused.
 */
export function appsModule(apps: AppsService, demoMailbox: DemoMailbox): Module {
  return {
    publicRoutes(app) {
      // A mailed activation link is a credential: its calls are few per address (the sign is 256 random bits).
      const linkCalls = {
        rateLimit: { max: 20, timeWindow: '1 minute' },
        errors: ['INVALID_LINK', 'LINK_EXPIRED'] as const,
      };
      app.post(
        '/app/activation',
        {
          schema: {
            tags: ['apps'],
            summary: "What /activate-app/{sign} shows before the app's developer activates it",
            body: AppSignBody,
            response: { 200: envelope(AppActivation) },
          },
          config: linkCalls,
        },
        async (request) => ok(request, await apps.activation(request.body.sign)),
      );

      app.post(
        '/app/activate',
        {
          schema: {
            tags: ['apps'],
            summary:
              'Activate a pending app from its mailed one-time link; answers its client_id and, for a confidential app, its secret, shown once',
            body: AppSignBody,
            response: { 200: envelope(AppActivated) },
          },
          config: linkCalls,
        },
        async (request) => ok(request, await apps.activate(request.body.sign)),
      );
    },

    privateRoutes(app) {
      app.post(
        '/app/list',
        {
          schema: {
            tags: ['apps'],
            summary: 'Every registered app with its users and last use (super administrator)',
            response: { 200: envelope(RegisteredAppList) },
          },
          config: MANAGE,
        },
        async (request) => ok(request, await apps.list()),
      );

      app.post(
        '/app/create',
        {
          schema: {
            tags: ['apps'],
            summary:
              'Register an app; answers its client_id (appCode) and, for a confidential app, its secret, shown once',
            body: AppCreateBody,
            response: { 200: envelope(AppCreated) },
          },
          config: MANAGE,
        },
        async (request, reply) => {
          const { app: created, mailId } = await apps.create(request.body, request.auth.user.language);
          if (mailId) demoMailbox.grantMail(request, reply, mailId);
          return ok(request, created);
        },
      );

      app.post(
        '/app/sendActivation',
        {
          schema: {
            tags: ['apps'],
            summary: "Mail a pending app's contact a new one-time activation link (the previous one stops working)",
            body: AppCodeOnlyBody,
            response: { 200: envelope(RegisteredApp) },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND', 'APP_STATUS_CONFLICT'] },
        },
        async (request, reply) => {
          const { app: pending, mailId } = await apps.sendActivation(request.body.appCode, request.auth.user.language);
          demoMailbox.grantMail(request, reply, mailId);
          return ok(request, pending);
        },
      );

      app.post(
        '/app/edit',
        {
          schema: {
            tags: ['apps'],
            summary: "Change an app's name, logo, redirect addresses, scopes or contact",
            body: AppEditBody,
            response: { 200: envelope(RegisteredApp) },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await apps.edit(request.body)),
      );

      for (const [path, status, summary] of [
        ['/app/suspend', 'suspended', 'Suspend an app: its authorization requests and its tokens are refused at once'],
        ['/app/resume', 'active', 'Let a suspended app work again'],
      ] as const) {
        app.post(
          path,
          {
            schema: {
              tags: ['apps'],
              summary,
              body: AppCodeOnlyBody,
              response: { 200: envelope(RegisteredApp) },
            },
            config: { ...MANAGE, errors: ['NOT_FOUND', 'APP_STATUS_CONFLICT'] },
          },
          async (request) => ok(request, await apps.setStatus(request.body.appCode, status)),
        );
      }

      app.post(
        '/app/interaction',
        {
          schema: {
            tags: ['apps'],
            summary:
              'What /third/auth-login shows: the app, the scopes it asks for, and whether the signed-in user is the one it asked for',
            body: AppInteractionBody,
            response: { 200: envelope(AppInteraction) },
          },
          config: {
            everyMember: 'a signed-in user is asked to authorize an app for themselves',
            errors: [
              'APP_ID_REQUIRED',
              'APP_INTERACTION_EXPIRED',
              'APP_AUTHORIZATION_FAILED',
              'AUTH_ACCOUNT_MISSING',
              'NOT_FOUND',
            ],
          },
        },
        async (request) => ok(request, await apps.interaction(request.auth, request.body, browserUid(request))),
      );

      app.post(
        '/app/callLog',
        {
          schema: {
            tags: ['apps'],
            summary:
              "The organization's log of app calls, newest minute first: which app called what for which member, how often, how often refused",
            body: AppCallLogBody,
            response: { 200: envelope(AppCallLog) },
          },
          config: { permission: Permission.AppAudit },
        },
        async (request) => ok(request, await apps.callLog(request.auth, request.body)),
      );

      app.post(
        '/app/launch',
        {
          schema: {
            tags: ['apps'],
            summary:
              'Where /as-auth-redirect/{appCode} opens an app for the signed-in user: its registered launch address with iss and login_hint',
            body: AppCodeOnlyBody,
            response: { 200: envelope(AppLaunch) },
          },
          config: {
            everyMember: 'a signed-in user opens an app, which then asks them to authorize it',
            errors: ['NOT_FOUND'],
          },
        },
        async (request) => ok(request, await apps.launch(request.auth, request.body.appCode)),
      );

      app.post(
        '/app/consent',
        {
          schema: {
            tags: ['apps'],
            summary:
              'The signed-in user authorizes the app; answers where the browser goes next (back to the provider)',
            body: AppInteractionUidBody,
            response: { 200: envelope(AppInteractionDone) },
          },
          config: {
            everyMember: 'a signed-in user authorizes an app to act for themselves',
            errors: [
              'APP_INTERACTION_EXPIRED',
              'APP_AUTHORIZATION_FAILED',
              'APP_USER_MISMATCH',
              'AUTH_ACCOUNT_MISSING',
            ],
          },
        },
        async (request, reply) => {
          const done = await apps.consent(request.auth, request.body.uid, browserUid(request));
          forgetInteraction(reply);
          return ok(request, done);
        },
      );

      app.post(
        '/app/deny',
        {
          schema: {
            tags: ['apps'],
            summary: 'The signed-in user refuses; answers where the browser goes next (the app is told access_denied)',
            body: AppInteractionUidBody,
            response: { 200: envelope(AppInteractionDone) },
          },
          config: {
            everyMember: 'a signed-in user refuses an app',
            errors: ['APP_INTERACTION_EXPIRED', 'APP_AUTHORIZATION_FAILED'],
          },
        },
        async (request, reply) => {
          const done = await apps.deny(request.auth, request.body.uid, browserUid(request));
          forgetInteraction(reply);
          return ok(request, done);
        },
      );
    },
  };
}
