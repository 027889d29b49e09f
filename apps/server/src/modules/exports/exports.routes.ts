import { z } from 'zod';
import { ExportBody, ExportCodeBody, ExportInfo, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { ExportsService } from './exports.service.js';
import { readerOf } from '../audit/access-log.js';

const LinkQuery = z.object({ exp: z.coerce.number().int(), sig: z.string().min(10).max(100) });

export function exportsModule(exports: ExportsService): Module {
  return {
    publicRoutes(app) {
      app.get(
        '/export/download/:exportCode',
        {
          schema: {
            tags: ['exports'],
            summary: 'The packed zip, by the signed link of export/status',
            params: z.object({ exportCode: z.string().min(1).max(64) }),
            querystring: LinkQuery,
            produces: ['application/zip'],
          },
          config: { errors: ['INVALID_LINK', 'LINK_EXPIRED'] },
        },
        async (request, reply) => {
          const { stream, size, name } = await exports.openByLink(
            request.params.exportCode,
            request.query.exp,
            request.query.sig,
          );
          return reply
            .header('content-type', 'application/zip')
            .header('content-length', size)
            .header('content-disposition', `attachment; filename="${name}"`)
            .send(stream);
        },
      );
    },
    privateRoutes(app) {
      app.post(
        '/export/create',
        {
          schema: {
            tags: ['exports'],
            summary: 'Pack chosen file types of chosen cases into a zip (background job)',
            body: ExportBody,
            response: { 200: envelope(ExportInfo) },
          },
          config: { permission: 'case:view', errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await exports.create(readerOf(request), request.body.caseCodes, request.body.types)),
      );

      app.post(
        '/export/status',
        {
          schema: {
            tags: ['exports'],
            summary:
              "An export's status (0 default, 1 success, 2 fail, 3 no file, 4 no required file, 5 packing) and progress",
            body: ExportCodeBody,
            response: { 200: envelope(ExportInfo) },
          },
          config: { permission: 'case:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await exports.status(request.auth.organizationId, request.body.exportCode)),
      );
    },
  };
}
