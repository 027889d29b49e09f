import { z } from 'zod';
import { DeleteDentistBody, DentistListResult, EmptyEnvelope, SaveDentistBody, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { DentistsService } from './dentists.service.js';

export function dentistsModule(p: Platform, dentists = new DentistsService(p.db)): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/dentist/list',
        {
          schema: {
            tags: ['dentists'],
            summary: "The organization's dentists",
            response: { 200: envelope(DentistListResult) },
          },
          config: { permission: 'case:view' },
        },
        async (request) => ok(request, await dentists.list(request.auth.organizationId)),
      );
      app.post(
        '/dentist/save',
        {
          schema: {
            tags: ['dentists'],
            summary: 'Add or rename a dentist',
            body: SaveDentistBody,
            response: { 200: envelope(z.object({ id: z.number() })) },
          },
          config: { permission: 'case:edit', errors: ['NAME_IN_USE', 'NOT_FOUND'] },
        },
        async (request) => ok(request, { id: await dentists.save(request.auth.organizationId, request.body) }),
      );
      app.post(
        '/dentist/delete',
        {
          schema: {
            tags: ['dentists'],
            summary: 'Remove a dentist (their cases keep no dentist)',
            body: DeleteDentistBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'case:edit', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await dentists.delete(request.auth.organizationId, request.body.id);
          return ok(request, null);
        },
      );
    },
  };
}
