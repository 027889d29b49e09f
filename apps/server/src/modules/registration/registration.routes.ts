import { z } from 'zod';
import {
  CheckUsernameBody, CompanyRegisterBody, EmailConfirmResult, EmptyEnvelope, LinkBody, RegisterBody, RegisterResult, ResendActivateBody,
  ResendConfirmBody, envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { RegistrationService } from './registration.service.js';

export function registrationModule(p: Platform, registration = new RegistrationService(p.db, p.mailer, p.config)): Module {
  const limited = { rateLimit: { max: 20, timeWindow: '1 minute' } };
  return {
    publicRoutes(app) {
      app.post('/user/checkUsernameExist', {
        schema: { tags: ['registration'], summary: 'Whether an account name is taken', body: CheckUsernameBody, response: { 200: envelope(z.object({ exists: z.boolean() })) } },
        config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      }, async (request) => ok(request, { exists: await registration.checkAccount(request.body.account) }));

      app.post('/user/regist', {
        schema: { tags: ['registration'], summary: 'Register a clinic or laboratory with its administrator', body: RegisterBody, response: { 200: envelope(RegisterResult) } },
        config: limited,
      }, async (request) => ok(request, await registration.register(request.body)));

      app.post('/company/companyRegist', {
        schema: { tags: ['registration'], summary: 'Register an organization with its business details and administrator', body: CompanyRegisterBody, response: { 200: envelope(RegisterResult) } },
        config: limited,
      }, async (request) => ok(request, await registration.register(request.body)));

      app.post('/user/email.confirm', {
        schema: { tags: ['registration'], summary: 'Confirm the email address with the emailed link id', body: LinkBody, response: { 200: envelope(EmailConfirmResult) } },
        config: limited,
      }, async (request) => ok(request, await registration.confirmEmail(request.body.id)));

      app.post('/user/email/resendConfirm', {
        schema: { tags: ['registration'], summary: 'Send a new confirmation link to an email address', body: ResendConfirmBody, response: { 200: EmptyEnvelope } },
        config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      }, async (request) => {
        await registration.resendByEmail(request.body.email);
        return ok(request, null);
      });

      app.post('/user/resend_activate', {
        schema: { tags: ['registration'], summary: 'Send a new activation link for an account', body: ResendActivateBody, response: { 200: EmptyEnvelope } },
        config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      }, async (request) => {
        await registration.resendByAccount(request.body.account);
        return ok(request, null);
      });
    },
  };
}
