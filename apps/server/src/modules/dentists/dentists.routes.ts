import { z } from 'zod';
import { DeleteDentistBody, DentistListResult, EmptyEnvelope, SaveDentistBody, envelope } from '@portal/contracts';
import type { Db } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';

/** The organization's dentists: a name is required and unique within the organization (§5). */
export class DentistsService {
  constructor(private readonly db: Db) {}
  async list(orgId: number) {
    const rows = await this.db.query<{ id: number; name: string; case_count: number }>(
      `SELECT d.id, d.name, (SELECT count(*)::int FROM cases c WHERE c.dentist_id = d.id AND c.deleted_at IS NULL) AS case_count
         FROM dentists d WHERE d.organization_id = $1 ORDER BY lower(d.name)`,
      [orgId],
    );
    return { list: rows.map((r) => ({ id: Number(r.id), name: r.name, caseCount: Number(r.case_count) })) };
  }
  async save(orgId: number, input: { id?: number; name: string }) {
    const name = input.name.trim();
    if (!name) throw new AppError('PARAM_INVALID', { field: 'name' }, { field: 'name' }, 'dentistNameRequired');
    const [clash] = await this.db.query(
      'SELECT 1 FROM dentists WHERE organization_id = $1 AND lower(name) = lower($2) AND id IS DISTINCT FROM $3',
      [orgId, name, input.id ?? null],
    );
    if (clash) throw new AppError('NAME_IN_USE', { field: 'name' }, { field: 'name' });
    try {
      if (input.id) {
        const rows = await this.db.query(
          'UPDATE dentists SET name = $3 WHERE id = $1 AND organization_id = $2 RETURNING id',
          [input.id, orgId, name],
        );
        if (!rows.length) fail('NOT_FOUND');
        return input.id;
      }
      const [row] = await this.db.query<{ id: number }>(
        'INSERT INTO dentists (organization_id, name) VALUES ($1, $2) RETURNING id',
        [orgId, name],
      );
      return Number(row!.id);
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new AppError('NAME_IN_USE', { field: 'name' }, { field: 'name' });
      throw err;
    }
  }
  async delete(orgId: number, id: number) {
    const rows = await this.db.query('DELETE FROM dentists WHERE id = $1 AND organization_id = $2 RETURNING id', [
      id,
      orgId,
    ]);
    if (!rows.length) fail('NOT_FOUND');
  }
}

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
