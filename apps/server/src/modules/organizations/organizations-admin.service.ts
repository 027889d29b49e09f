import { OrgStatus, OrgType, type OrganizationListQuery } from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { AuthService } from '../auth/auth.service.js';
import { organizationsRepository } from './organizations.repository.js';

/**
 * Account → Organizations for the super administrator: every organization with its users and storage, disabled and
 * enabled again. A disabled organization's sessions end at once; its users are told why at their next call and at
 * sign-in, and its scanners stop (device tokens resolve through the organization too).
 */
export class OrganizationsAdminService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
  ) {}

  async list(q: OrganizationListQuery) {
    const { total, rows } = await organizationsRepository.list(this.db, {
      keyword: q.keyword?.trim() || undefined,
      type: q.type,
      status: q.status,
      region: q.region,
      limit: q.pageSize,
      offset: (q.pageNum - 1) * q.pageSize,
    });
    return {
      total,
      list: rows.map((r) => ({
        organizationCode: r.code,
        name: r.name,
        type: r.type,
        region: r.region,
        status: r.status,
        reviewStatus: r.review_status,
        users: r.users,
        storageUsedBytes: Number(r.used_bytes ?? 0),
        createdAt: new Date(r.created_at).toISOString(),
        closedAt: r.closed_at ? new Date(r.closed_at).toISOString() : null,
        purgeAfter: r.closed_at
          ? new Date(
              new Date(r.closed_at).getTime() + this.config.closedOrganizationRetentionDays * 86_400_000,
            ).toISOString()
          : null,
      })),
    };
  }

  /** Disables or enables organizations, all or none; answers how many changed. */
  async setStatus(codes: string[], status: OrgStatus) {
    return this.db.transaction(async (tx) => {
      const unique = [...new Set(codes)];
      const rows = await organizationsRepository.findManyByCodes(tx, unique);
      if (rows.length !== unique.length) fail('NOT_FOUND');
      // The portal's own organization holds the super administrator: disabling it would lock everyone out.
      if (rows.some((r) => r.type === OrgType.Inner)) fail('CANNOT_CHANGE_SELF');
      // A closed organization comes back only through a restore.
      if (rows.some((r) => r.status === OrgStatus.Closed)) fail('NOT_FOUND');
      const ids = rows.map((r) => Number(r.id));
      const changed = await organizationsRepository.setStatus(tx, ids, status);
      if (status === OrgStatus.Disabled)
        for (const id of ids) await AuthService.endSessionsOfOrganization(tx, id, 'organization_disabled');
      return changed;
    });
  }
}
