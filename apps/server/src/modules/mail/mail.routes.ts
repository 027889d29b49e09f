import { DemoMailboxQuery, OutboxQuery, OutboxResult, Permission, envelope } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';

async function listMails(db: Queryable, limit: number, offset: number, to?: string) {
  const rows = await db.query<{ id: number; to_address: string; subject: string; body_text: string; status: string; created_at: Date; total: string }>(
    `SELECT id, to_address, subject, body_text, status, created_at, count(*) OVER () AS total FROM mail_outbox
      WHERE ($3::text IS NULL OR lower(to_address) = lower($3)) ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [limit, offset, to ?? null],
  );
  return {
    total: rows.length ? Number(rows[0]!.total) : 0,
    list: rows.map((r) => ({ id: Number(r.id), to: r.to_address, subject: r.subject, text: r.body_text, status: r.status, createdAt: new Date(r.created_at).toISOString() })),
  };
}

export function mailModule(p: Platform): Module {
  return {
    publicRoutes(app) {
      // Demo mode only: lets a newcomer open the confirmation link without a mail server.
      app.get('/mail/demoMailbox', {
        schema: { tags: ['mail'], summary: 'Mails sent to an address (demo mode only)', querystring: DemoMailboxQuery, response: { 200: envelope(OutboxResult) } },
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      }, async (request) => {
        if (!p.config.seedDemo) fail('NOT_FOUND');
        return ok(request, await listMails(p.db, 50, 0, request.query.email));
      });
    },
    privateRoutes(app) {
      app.post('/mail/listOutbox', {
        schema: { tags: ['mail'], summary: 'The mail outbox (super administrator)', body: OutboxQuery, response: { 200: envelope(OutboxResult) } },
        config: { permission: Permission.OutboxView },
      }, async (request) => ok(request, await listMails(p.db, request.body.pageSize, (request.body.pageNum - 1) * request.body.pageSize)));
    },
  };
}
