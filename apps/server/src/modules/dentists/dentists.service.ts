import type { SaveDentistBody } from '@portal/contracts';
import type { Db } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { dentistsRepository } from './dentists.repository.js';

/** The organization's dentists: a name is required and unique within the organization (§5). */
export class DentistsService {
  constructor(private readonly db: Db) {}
  async list(orgId: number) {
    const rows = await dentistsRepository.list(this.db, orgId);
    return { list: rows.map((r) => ({ id: Number(r.id), name: r.name, caseCount: Number(r.case_count) })) };
  }
  async save(orgId: number, input: SaveDentistBody) {
    const name = input.name.trim();
    if (!name) throw new AppError('PARAM_INVALID', { field: 'name' }, { field: 'name' }, 'dentistNameRequired');
    if (await dentistsRepository.nameTaken(this.db, orgId, name, input.id ?? null))
      throw new AppError('NAME_IN_USE', { field: 'name' }, { field: 'name' });
    try {
      if (input.id) {
        if (!(await dentistsRepository.rename(this.db, orgId, input.id, name))) fail('NOT_FOUND');
        return input.id;
      }
      return await dentistsRepository.insert(this.db, orgId, name);
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new AppError('NAME_IN_USE', { field: 'name' }, { field: 'name' });
      throw err;
    }
  }
  async delete(orgId: number, id: number) {
    if (!(await dentistsRepository.delete(this.db, orgId, id))) fail('NOT_FOUND');
  }
}
