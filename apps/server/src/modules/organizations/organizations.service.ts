import type { Queryable } from '../../platform/db.js';
import { organizationsRepository, type NewOrganization, type OrganizationEdit } from './organizations.repository.js';

/**
 * An organization's own record, as other modules read it and change it in their own transactions (`tx`): the own
 * space (company: information, images, closing and reopening), the closed organization's purge, and the user
 * administration's look-up by code. The organizations
 * table is written by this module alone; review and the super administrator's list are `ReviewService` and
 * `OrganizationsAdminService`.
 */
export class OrganizationsService {
  /** A new organization (sign-up); answers its id. */
  static insert(tx: Queryable, organization: NewOrganization) {
    return organizationsRepository.insert(tx, organization);
  }

  /** An organization by its code: its id, type, review status and name. */
  static findByCode(db: Queryable, code: string) {
    return organizationsRepository.findByCode(db, code);
  }

  /** The organization's names, licence, representative and address. */
  static updateInformation(db: Queryable, organizationId: number, e: OrganizationEdit) {
    return organizationsRepository.updateInformation(db, organizationId, e);
  }

  /** A clinic's days after an order's completion during which its laboratory may still download the scans. */
  static setScanRetention(db: Queryable, organizationId: number, days: number) {
    return organizationsRepository.setScanRetention(db, organizationId, days);
  }

  /** Sets the stored key of the logo or the licence image under the row's lock; answers the key it replaced. */
  static setImage(tx: Queryable, organizationId: number, column: 'logo' | 'license_image', key: string) {
    return organizationsRepository.setImage(tx, organizationId, column, key);
  }

  /** Closed by its administrator (`userId`); answers when. */
  static markClosed(tx: Queryable, organizationId: number, userId: number) {
    return organizationsRepository.markClosed(tx, organizationId, userId);
  }

  /** Reopened within its retention period: active again. */
  static reopen(tx: Queryable, organizationId: number) {
    return organizationsRepository.reopen(tx, organizationId);
  }

  /** The purge's last step: the organization's row, once everything it held is gone. */
  static delete(tx: Queryable, organizationId: number) {
    return organizationsRepository.delete(tx, organizationId);
  }
}
