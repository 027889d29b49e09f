import { z } from 'zod';
import {
  CheckTakenBody,
  CompanyRegisterBody,
  EmailConfirmResult,
  EmptyEnvelope,
  LinkBody,
  RegisterBody,
  RegisterResult,
  ResendActivateBody,
  ResendConfirmBody,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { RegistrationService } from './registration.service.js';

/**
 * The registration form asks as the name is typed: 300 an hour per client address (shared by every process),
 * 30 for one name (docs/product-decisions.md, "What a lookup reveals").
 */
const ACCOUNT_CHECK_LIMITS = { perAddress: 300, perSubject: 30, windowSeconds: 3600 };

export function registrationModule(
  p: Platform,
  registration = new RegistrationService(p.db, p.mailer, p.config),
): Module {
  const limited = { rateLimit: { max: 20, timeWindow: '1 minute' } };
  return {
    publicRoutes(app) {
      app.post(
        '/user/checkUsernameExist',
        {
          schema: {
            tags: ['registration'],
            summary: 'Whether an account name, an email address or a phone number is taken',
            body: CheckTakenBody,
            response: { 200: envelope(z.object({ exists: z.boolean() })) },
          },
          config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
        },
        async (request) => {
          const b = request.body;
          await p.rateLimits.lookup(
            'checkUsername',
            request.ip,
            b.account ?? b.email ?? b.phone ?? '',
            ACCOUNT_CHECK_LIMITS,
          );
          return ok(request, { exists: await registration.isTaken(b) });
        },
      );

      // Two ways in (spec §2: a quick registration and one with the business details), one rule.
      const registerErrors = [
        'AGREEMENTS_REQUIRED',
        'PASSWORD_RULE',
        'PASSWORDS_DONT_MATCH',
        'ACCOUNT_TAKEN',
        'EMAIL_TAKEN',
        'PHONE_TAKEN',
      ] as const;
      const registrationRoutes = [
        { url: '/user/regist', body: RegisterBody, summary: 'Register a clinic or laboratory with its administrator' },
        {
          url: '/company/companyRegist',
          body: CompanyRegisterBody,
          summary: 'Register an organization with its business details and administrator',
        },
      ] as const;
      for (const route of registrationRoutes)
        app.post(
          route.url,
          {
            schema: {
              tags: ['registration'],
              summary: route.summary,
              body: route.body,
              response: { 200: envelope(RegisterResult) },
            },
            config: { ...limited, errors: [...registerErrors] },
          },
          async (request, reply) => {
            const result = await registration.register(request.body);
            p.demoMailbox.grantAddress(request, reply, request.body.email);
            return ok(request, result);
          },
        );

      app.post(
        '/user/email.confirm',
        {
          schema: {
            tags: ['registration'],
            summary: 'Confirm the email address with the emailed link id',
            body: LinkBody,
            response: { 200: envelope(EmailConfirmResult) },
          },
          config: { ...limited, errors: ['INVALID_LINK', 'LINK_EXPIRED'] },
        },
        async (request) => ok(request, await registration.confirmEmail(request.body.id)),
      );

      app.post(
        '/user/email/resendConfirm',
        {
          schema: {
            tags: ['registration'],
            summary: 'Send a new confirmation link to an email address',
            body: ResendConfirmBody,
            response: { 200: EmptyEnvelope },
          },
          config: { rateLimit: { max: 5, timeWindow: '1 minute' }, errors: ['ACCOUNT_NOT_FOUND', 'ALREADY_ACTIVATED'] },
        },
        async (request) => {
          await registration.resendByEmail(request.body.email);
          return ok(request, null);
        },
      );

      app.post(
        '/user/resend_activate',
        {
          schema: {
            tags: ['registration'],
            summary: 'Send a new activation link for an account',
            body: ResendActivateBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            rateLimit: { max: 5, timeWindow: '1 minute' },
            errors: ['ACCOUNT_NOT_FOUND', 'SIGN_IN_AMBIGUOUS', 'ALREADY_ACTIVATED'],
          },
        },
        async (request) => {
          await registration.resendByAccount(request.body.account);
          return ok(request, null);
        },
      );
    },
  };
}
