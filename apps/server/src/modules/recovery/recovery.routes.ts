import { z } from 'zod';
import { EmptyEnvelope, ForgetPassBody, LinkBody, MaskedEmail, ResetPassBody, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { RecoveryService } from './recovery.service.js';

/**
 * Shared by every process (docs/product-decisions.md, "What a lookup reveals"): the masked address of an account
 * 20 times an hour per client address and 10 times per account; reset mails 10 an hour per address, 3 per account.
 */
const LOOKUP_LIMITS = { perAddress: 20, perSubject: 10, windowSeconds: 3600 };
const RESET_MAIL_LIMITS = { perAddress: 10, perSubject: 3, windowSeconds: 3600 };

export function recoveryModule(p: Platform, recovery = new RecoveryService(p.db, p.mailer, p.config)): Module {
  return {
    publicRoutes(app) {
      app.post(
        '/user/forgetPass',
        {
          schema: {
            tags: ['recovery'],
            summary: 'Email a one-time password reset link',
            body: ForgetPassBody,
            response: { 200: envelope(MaskedEmail) },
          },
          config: { rateLimit: { max: 5, timeWindow: '1 minute' }, errors: ['ACCOUNT_NOT_FOUND', 'SIGN_IN_AMBIGUOUS'] },
        },
        async (request) => {
          await p.rateLimits.lookup('forgetPass', request.ip, request.body.account, RESET_MAIL_LIMITS);
          return ok(request, await recovery.sendResetLink(request.body.account));
        },
      );

      app.post(
        '/user/getChangePassEmail',
        {
          schema: {
            tags: ['recovery'],
            summary: 'The masked email address a reset link goes to',
            body: ForgetPassBody,
            response: { 200: envelope(MaskedEmail) },
          },
          config: {
            rateLimit: { max: 20, timeWindow: '1 minute' },
            errors: ['ACCOUNT_NOT_FOUND', 'SIGN_IN_AMBIGUOUS'],
          },
        },
        async (request) => {
          await p.rateLimits.lookup('changePassEmail', request.ip, request.body.account, LOOKUP_LIMITS);
          return ok(request, await recovery.maskedEmail(request.body.account));
        },
      );

      app.post(
        '/user/forgetPassEmailConfirm',
        {
          schema: {
            tags: ['recovery'],
            summary: 'Check a reset link before showing the form',
            body: LinkBody,
            response: { 200: envelope(z.object({ account: z.string() })) },
          },
          config: { rateLimit: { max: 30, timeWindow: '1 minute' }, errors: ['INVALID_LINK', 'LINK_EXPIRED'] },
        },
        async (request) => ok(request, await recovery.checkLink(request.body.id)),
      );

      app.post(
        '/user/forgetPassResetPass',
        {
          schema: {
            tags: ['recovery'],
            summary: 'Set a new password with a reset link',
            body: ResetPassBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            rateLimit: { max: 10, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED', 'PASSWORD_RULE', 'PASSWORDS_DONT_MATCH'],
          },
        },
        async (request) => {
          await recovery.resetPassword(request.body.id, request.body.password, request.body.confirmPassword);
          return ok(request, null);
        },
      );
    },
  };
}
