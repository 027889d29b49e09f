import { AccessLog, AccessLogExportBody, AccessLogQuery, Permission, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { AuditService } from './audit.service.js';

export function auditModule(audit: AuditService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/audit/accessLog',
        {
          schema: {
            tags: ['audit'],
            summary:
              "Who read the organization's patient data, and what its members read of others': newest first, filtered",
            body: AccessLogQuery,
            response: { 200: envelope(AccessLog) },
          },
          config: { permission: Permission.AuditRead },
        },
        async (request) => ok(request, await audit.list(request.auth, request.body, request.timezone)),
      );

      app.post(
        '/audit/accessLog/export',
        {
          schema: {
            tags: ['audit'],
            summary:
              'The filtered access log as CSV (newest first, at most 50,000 entries); cells a spreadsheet would run are kept as text',
            body: AccessLogExportBody,
            produces: ['text/csv'],
          },
          config: { permission: Permission.AuditRead },
        },
        async (request, reply) => {
          const file = await audit.exportCsv(request.auth, request.body, request.timezone);
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
            .send(file.body);
        },
      );
    },
  };
}
