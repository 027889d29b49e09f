import { DemoMailboxQuery, OutboxQuery, OutboxResult, Permission, envelope } from '@portal/contracts';
import { mailRepository } from './mail.repository.js';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';

export function mailModule(p: Platform): Module {
  return {
    publicRoutes(app) {
      // Demo mode only: lets a newcomer open the links the portal mails without a mail server, never other people's
      // mail (see DemoMailbox).
      app.get(
        '/mail/demoMailbox',
        {
          schema: {
            tags: ['mail'],
            summary:
              "Mails sent to an address (demo mode only): the demo accounts' and those registered or invited from this browser",
            querystring: DemoMailboxQuery,
            response: { 200: envelope(OutboxResult) },
          },
          config: { rateLimit: { max: 60, timeWindow: '1 minute' }, errors: ['NOT_FOUND'] },
        },
        async (request) => {
          if (!p.demoMailbox.enabled) fail('NOT_FOUND');
          const scope = p.demoMailbox.scope(request, request.query.email);
          const onlyIds = scope === 'all' ? undefined : scope.mailIds;
          return ok(request, await mailRepository.toAddress(p.db, request.query.email, 50, onlyIds));
        },
      );
    },
    privateRoutes(app) {
      app.post(
        '/mail/listOutbox',
        {
          schema: {
            tags: ['mail'],
            summary: 'The mail outbox (super administrator)',
            body: OutboxQuery,
            response: { 200: envelope(OutboxResult) },
          },
          config: { permission: Permission.OutboxView },
        },
        async (request) =>
          ok(
            request,
            await mailRepository.page(p.db, request.body.pageSize, (request.body.pageNum - 1) * request.body.pageSize),
          ),
      );
    },
  };
}
