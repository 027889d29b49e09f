import { z } from 'zod';
import { EmptyEnvelope, ForgetPassBody, LinkBody, MaskedEmail, ResetPassBody, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { RecoveryService } from './recovery.service.js';

export function recoveryModule(p: Platform, recovery = new RecoveryService(p.db, p.mailer, p.config)): Module {
  return {
    publicRoutes(app) {
      app.post('/user/forgetPass', {
        schema: { tags: ['recovery'], summary: 'Email a one-time password reset link', body: ForgetPassBody, response: { 200: envelope(MaskedEmail) } },
        config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      }, async (request) => ok(request, await recovery.sendResetLink(request.body.account)));

      app.post('/user/getChangePassEmail', {
        schema: { tags: ['recovery'], summary: 'The masked email address a reset link goes to', body: ForgetPassBody, response: { 200: envelope(MaskedEmail) } },
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      }, async (request) => ok(request, await recovery.maskedEmail(request.body.account)));

      app.post('/user/forgetPassEmailConfirm', {
        schema: { tags: ['recovery'], summary: 'Check a reset link before showing the form', body: LinkBody, response: { 200: envelope(z.object({ account: z.string() })) } },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      }, async (request) => ok(request, await recovery.checkLink(request.body.id)));

      app.post('/user/forgetPassResetPass', {
        schema: { tags: ['recovery'], summary: 'Set a new password with a reset link', body: ResetPassBody, response: { 200: EmptyEnvelope } },
        config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      }, async (request) => {
        await recovery.resetPassword(request.body.id, request.body.password, request.body.confirmPassword);
        return ok(request, null);
      });
    },
  };
}
