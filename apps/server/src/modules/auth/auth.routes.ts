import { z } from 'zod';
import {
  CheckIdentityBody,
  CheckIdentityResult,
  EmptyEnvelope,
  FreeLoginBody,
  LoginBody,
  RefreshBody,
  TokenPair,
  FREE_LOGIN_SIGN_VALIDITY_MINUTES,
  envelope,
} from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { AuthService } from './auth.service.js';

const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export function authModule(p: Platform, auth = new AuthService(p.db, p.tokens)): Module {
  // The route's `rateLimit` stops bursts in this process; the same per-minute budget is also counted in PostgreSQL, so
  // it holds for the whole site when several processes share the client's requests.
  const sharedLoginBudget = (request: FastifyRequest) =>
    p.rateLimits.hit('login:ip', request.ip, p.config.loginRateLimitPerMinute, 60);
  return {
    publicRoutes(app) {
      app.post(
        '/login',
        {
          schema: {
            tags: ['auth'],
            summary: 'Sign in by account name, phone number or email',
            body: LoginBody,
            response: { 200: envelope(TokenPair) },
          },
          config: {
            rateLimit: { max: p.config.loginRateLimitPerMinute, timeWindow: '1 minute' },
            errors: [
              'ACCOUNT_NOT_FOUND',
              'SIGN_IN_AMBIGUOUS',
              'INVALID_PASSWORD',
              'CAPTCHA_REQUIRED',
              'VERIFICATION_CODE_WRONG',
              'TOO_MANY_LOGIN_FAILURES',
              'EMAIL_NOT_VERIFIED',
              'USER_DISABLED',
              'ORGANIZATION_DISABLED',
              'ORGANIZATION_CLOSED',
              'LAB_PENDING_REVIEW',
              'LAB_REJECTED',
            ],
          },
        },
        async (request) => {
          await sharedLoginBudget(request);
          return ok(request, await auth.login(request.body, client(request)));
        },
      );

      app.post(
        '/user/refresh_token',
        {
          schema: {
            tags: ['auth'],
            summary: 'Rotate the refresh token',
            body: RefreshBody,
            response: { 200: envelope(TokenPair) },
          },
          config: { rateLimit: { max: 60, timeWindow: '1 minute' }, errors: ['REFRESH_TOKEN_INVALID'] },
        },
        async (request) => ok(request, await auth.refresh(request.body.refreshToken)),
      );

      app.post(
        '/user/free-login',
        {
          schema: {
            tags: ['auth'],
            summary: 'Sign in with a one-time sign',
            body: FreeLoginBody,
            response: { 200: envelope(TokenPair) },
          },
          config: {
            rateLimit: { max: p.config.loginRateLimitPerMinute, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED'],
          },
        },
        async (request) => {
          await sharedLoginBudget(request);
          return ok(request, await auth.freeLogin(request.body.sign, client(request)));
        },
      );
    },

    privateRoutes(app) {
      app.post(
        '/user/logout',
        {
          schema: { tags: ['auth'], summary: 'Revoke the current session', response: { 200: EmptyEnvelope } },
          config: { everyMember: "signing out of one's own session", allowForcedPasswordChange: true },
        },
        async (request) => {
          await auth.logout(request.auth.sessionId);
          return ok(request, null);
        },
      );

      app.post(
        '/user/free-login/sign',
        {
          schema: {
            tags: ['auth'],
            summary: `Issue a one-time sign-in sign for the current user (valid ${FREE_LOGIN_SIGN_VALIDITY_MINUTES} minutes, dies with this session)`,
            response: { 200: envelope(z.object({ sign: z.string() })) },
          },
          config: { everyMember: "a one-time sign for the caller's own session" },
        },
        async (request) =>
          ok(request, { sign: await auth.issueFreeLoginSign(request.auth.userId, request.auth.sessionId) }),
      );

      app.post(
        '/user/checkIdentity',
        {
          schema: {
            tags: ['auth'],
            summary: 'Confirm the current password before a sensitive action',
            body: CheckIdentityBody,
            response: { 200: envelope(CheckIdentityResult) },
          },
          config: {
            everyMember: "re-entering the caller's own password before a sensitive action",
            rateLimit: { max: 10, timeWindow: '1 minute' },
            errors: ['INVALID_PASSWORD', 'TOO_MANY_LOGIN_FAILURES'],
          },
        },
        async (request) => {
          const until = await auth.checkIdentity(request.auth.userId, request.auth.sessionId, request.body.password);
          return ok(request, { validUntil: until.toISOString() });
        },
      );
    },
  };
}
