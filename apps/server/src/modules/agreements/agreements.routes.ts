import {
  AGREEMENT_TYPES,
  AgreementReadLogResult,
  EmptyEnvelope,
  SaveAgreementBody,
  envelope,
  type AgreementType,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { agreementsRepository } from './agreements.repository.js';

export function agreementsModule(p: Platform): Module {
  const absolute = (url: string) => (url.startsWith('/') ? `${p.config.publicUrl}${url}` : url);
  return {
    privateRoutes(app) {
      app.post(
        '/user/queryUserAgreementReadLog',
        {
          schema: {
            tags: ['agreements'],
            summary:
              'Agreements in force the user has not read, and whether the user has never accepted any (first sign-in)',
            response: { 200: envelope(AgreementReadLogResult) },
          },
          config: { everyMember: 'the agreements the caller has to accept', allowForcedPasswordChange: true },
        },
        async (request) => {
          const rows = await agreementsRepository.unread(p.db, request.auth.userId);
          const firstTime = rows.length > 0 && !(await agreementsRepository.hasReadAny(p.db, request.auth.userId));
          return ok(request, {
            firstTime,
            unread: rows.map((r) => ({
              agreementType: r.type as AgreementType,
              version: r.version,
              url: absolute(r.url),
            })),
          });
        },
      );

      app.post(
        '/user/saveUserAgreementReadLog',
        {
          schema: {
            tags: ['agreements'],
            summary: 'Record that the user accepted agreements (types joined by commas)',
            body: SaveAgreementBody,
            response: { 200: EmptyEnvelope },
          },
          config: { everyMember: 'the caller accepting the agreements', allowForcedPasswordChange: true },
        },
        async (request) => {
          const types = [...new Set(request.body.agreementType.split(',').map((t) => t.trim()))].filter((t) =>
            (AGREEMENT_TYPES as readonly string[]).includes(t),
          );
          await agreementsRepository.markRead(p.db, request.auth.userId, types);
          return ok(request, null);
        },
      );
    },
  };
}
