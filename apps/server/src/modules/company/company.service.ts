import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import {
  COMPANY_IMAGE_MAX_BYTES,
  normalizeToothNumbering,
  OrgStatus,
  OrgType,
  type CompanyImageTarget,
  type CompanyInfo,
  type EditCompanyBody,
  type EditScanRetentionBody,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../platform/auth.js';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import type { Db, Queryable } from '../../platform/db.js';
import { fail, invalidField } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { BlobStore } from '../../platform/storage.js';
import { newCode } from '../../platform/crypto.js';
import { AuthService } from '../auth/auth.service.js';
import { CasesService } from '../cases/cases.service.js';
import { DevicesService } from '../devices/devices.service.js';
import { ExportsService } from '../exports/exports.service.js';
import { FilesService } from '../files/files.service.js';
import { OrdersService } from '../orders/orders.service.js';
import { OrganizationsService } from '../organizations/organizations.service.js';
import { PartnersService } from '../partners/partners.service.js';
import { UsersService } from '../users/users.service.js';
import { companyRepository } from './company.repository.js';

const DAY_MS = 86_400_000;
/** What the images may be, told by their first bytes whatever their name says. */
const IMAGE_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const IMAGE_COLUMN = { organization: 'logo', license: 'license_image' } as const;

const orNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

/**
 * The organization's own information (own space → Organization), its logo and licence images, the area picker,
 * and closing the account: kept for the retention period (the super administrator may restore it), then purged by
 * the job queue with its stored files.
 */
export class CompanyService {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly blobs: BlobDeletions,
    private readonly jobs: Jobs,
    private readonly config: Config,
    private readonly log?: FastifyBaseLogger,
  ) {
    jobs.handle('purgeOrganization', (p) => this.purge(Number(p.organizationId)).then(() => undefined));
  }

  async info(organizationId: number): Promise<CompanyInfo> {
    const o = await companyRepository.find(this.db, organizationId);
    if (!o) fail('NOT_FOUND');
    return {
      organizationCode: o.code,
      name: o.name,
      abbreviation: o.abbreviation,
      type: o.type,
      region: o.region,
      status: o.status,
      hasLogo: Boolean(o.logo),
      hasLicenseImage: Boolean(o.license_image),
      licenseCode: o.license_code,
      representativeName: o.representative_name,
      phone: o.phone,
      email: o.email,
      countryId: o.country_area_id,
      country: o.country,
      stateId: o.state_area_id,
      state: o.state,
      cityId: o.city_area_id,
      city: o.city,
      district: o.district,
      postalCode: o.postal_code,
      address: o.address,
      retentionDays: this.config.closedOrganizationRetentionDays,
      defaultToothNumbering: o.default_tooth_numbering ? normalizeToothNumbering(o.default_tooth_numbering) : null,
      scanRetentionDays: Number(o.scan_retention_days),
    };
  }

  /** A clinic sets how long after completion its laboratories keep the scans (the bounds are the body's). */
  async editScanRetention(organizationId: number, orgType: number, body: EditScanRetentionBody) {
    if (orgType !== OrgType.Clinic) fail('NO_PERMISSION');
    await OrganizationsService.setScanRetention(this.db, organizationId, body.scanRetentionDays);
    return this.info(organizationId);
  }

  /** Any organization's information by its code (the super administrator's detail). */
  async infoByCode(organizationCode: string): Promise<CompanyInfo> {
    return this.info(await this.idOf(organizationCode));
  }

  async imageByCode(organizationCode: string, target: CompanyImageTarget) {
    return this.image(await this.idOf(organizationCode), target);
  }

  private async idOf(organizationCode: string): Promise<number> {
    const id = await companyRepository.idByCode(this.db, organizationCode);
    if (id === undefined) fail('NOT_FOUND');
    return id;
  }

  /** The areas under `parentId`; without one, the countries of the caller's regional site. */
  async areas(organizationId: number, parentId: string | undefined) {
    const o = await companyRepository.find(this.db, organizationId);
    if (!o) fail('NOT_FOUND');
    const rows = await companyRepository.areas(this.db, parentId || null, o.region);
    return {
      list: rows.map((r) => ({ id: r.id, name: r.name, level: r.level, hasChildren: r.has_children })),
    };
  }

  /**
   * Saves the organization's information. The address must be a path down the areas of the organization's region:
   * the state within the country, the city within the state; a state is needed where the country has states.
   */
  async edit(organizationId: number, body: EditCompanyBody) {
    const o = await companyRepository.find(this.db, organizationId);
    if (!o) fail('NOT_FOUND');
    const country = await companyRepository.area(this.db, body.countryId);
    if (!country || country.level !== 1 || country.region !== o.region) invalidField('countryId', 'paramInvalid');
    const state = body.stateId ? await companyRepository.area(this.db, body.stateId) : undefined;
    if (body.stateId && state?.parent_id !== country.id) invalidField('stateId', 'paramInvalid');
    if (!state && (await companyRepository.hasChildAreas(this.db, country.id))) invalidField('stateId', 'required');
    const city = body.cityId ? await companyRepository.area(this.db, body.cityId) : undefined;
    if (body.cityId && (!state || city?.parent_id !== state.id)) invalidField('cityId', 'paramInvalid');
    await OrganizationsService.updateInformation(this.db, organizationId, {
      name: body.name.trim(),
      abbreviation: orNull(body.abbreviation),
      licenseCode: orNull(body.licenseCode),
      representativeName: orNull(body.representativeName),
      phone: orNull(body.phone),
      email: orNull(body.email),
      countryAreaId: country.id,
      country: country.name,
      stateAreaId: state?.id ?? null,
      state: state?.name ?? null,
      cityAreaId: city?.id ?? null,
      city: city?.name ?? orNull(body.city),
      district: orNull(body.district),
      postalCode: orNull(body.postalCode),
      address: orNull(body.address),
      defaultToothNumbering: body.defaultToothNumbering === undefined ? undefined : orNull(body.defaultToothNumbering),
    });
    return this.info(organizationId);
  }

  /**
   * Stores the logo or the licence image. The bytes must be a PNG, JPEG, GIF or WebP image by their content, at
   * most COMPANY_IMAGE_MAX_BYTES; the image it replaces is deleted after the commit.
   */
  async saveImage(organizationId: number, target: CompanyImageTarget, body: Readable & { truncated?: boolean }) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > COMPANY_IMAGE_MAX_BYTES) break;
      chunks.push(chunk);
    }
    if (body.truncated || size > COMPANY_IMAGE_MAX_BYTES) {
      body.resume();
      fail('FILE_TOO_LARGE', { mb: COMPANY_IMAGE_MAX_BYTES / 1024 / 1024 });
    }
    const bytes = Buffer.concat(chunks);
    if (!bytes.length) invalidField('file', 'required');
    const ext = IMAGE_TYPES[(await fileTypeFromBuffer(bytes))?.mime ?? ''];
    if (!ext) fail('FILE_CONTENT_MISMATCH', { format: 'png, jpg, gif, webp' });
    const key = `organizations/${newCode(target === 'organization' ? 'logo' : 'lic')}.${ext}`;
    await this.store.write(key, Readable.from([bytes]));
    let previous: string | null;
    try {
      previous = await this.db.transaction(async (tx) => {
        const replaced = await OrganizationsService.setImage(tx, organizationId, IMAGE_COLUMN[target], key);
        if (replaced) await this.blobs.list(tx, [replaced]);
        return replaced;
      });
    } catch (err) {
      await this.store.delete(key).catch(() => undefined);
      throw err;
    }
    if (previous) await this.blobs.delete([previous]);
    return this.info(organizationId);
  }

  /** The stored logo or licence image, to show in the organization's own space. */
  async image(organizationId: number, target: CompanyImageTarget) {
    const o = await companyRepository.find(this.db, organizationId);
    const key = o?.[IMAGE_COLUMN[target]];
    if (!key) fail('NOT_FOUND');
    return { key, stream: await this.store.read(key) };
  }

  /**
   * Whoever holds company:close (its administrators) closes the organization: refused while orders are open (they are listed). Its users are
   * signed out at once and cannot sign in; its partnerships end; everything is kept until the retention is over.
   */
  async close(auth: AuthContext, confirmName: string) {
    const closedAt = await this.db.transaction(async (tx) => {
      const o = await companyRepository.find(tx, auth.organizationId, { lock: true });
      if (!o) fail('NOT_FOUND');
      // The portal's own organization holds the super administrator.
      if (o.type === OrgType.Inner) fail('CANNOT_CHANGE_SELF');
      if (confirmName.trim() !== o.name.trim()) fail('CONFIRMATION_MISMATCH', {}, { field: 'confirmName' });
      const open = await companyRepository.openOrders(tx, o.id);
      if (open.length)
        fail(
          'ORGANIZATION_HAS_OPEN_ORDERS',
          { count: open.length },
          { orders: open.map((r) => ({ orderCode: r.code, status: r.status, partner: r.partner })) },
        );
      const at = await OrganizationsService.markClosed(tx, o.id, auth.userId);
      await AuthService.endSessionsOfOrganization(tx, o.id, 'organization_closed');
      await PartnersService.endAllOf(tx, o.id, auth.userId);
      return new Date(at);
    });
    return { closedAt: closedAt.toISOString(), purgeAfter: this.purgeAfter(closedAt).toISOString() };
  }

  /** The super administrator reopens a closed organization within its retention period. */
  async restore(organizationCode: string) {
    await this.db.transaction(async (tx) => {
      const o = await companyRepository.findByCode(tx, organizationCode);
      if (!o || o.status !== OrgStatus.Closed || !o.closed_at) fail('NOT_FOUND');
      if (this.purgeAfter(new Date(o.closed_at)) <= new Date()) fail('RETENTION_OVER');
      await OrganizationsService.reopen(tx, Number(o.id));
    });
  }

  purgeAfter(closedAt: Date) {
    return new Date(closedAt.getTime() + this.config.closedOrganizationRetentionDays * DAY_MS);
  }

  /** Housekeeping: queues the purge of every closed organization whose retention is over. */
  async queueDuePurges() {
    let queued = 0;
    for (const id of await companyRepository.dueForPurge(this.db, this.config.closedOrganizationRetentionDays)) {
      // Unless one is queued or running already; the job is the platform's (`Jobs`), in the checking transaction.
      const queuedNow = await this.db.transaction(async (tx) => {
        if (await companyRepository.purgeQueued(tx, id)) return false;
        await this.jobs.enqueue('purgeOrganization', { organizationId: id }, tx);
        return true;
      });
      if (queuedNow) queued += 1;
    }
    if (queued) this.jobs.wakeUp();
    return { queued };
  }

  /**
   * Deletes everything the organization holds, each table by the module that owns it, its orders with partners
   * included (its cases go, and an order is nothing without its case); answers the stored blobs whose rows went.
   * Partners' bytes on those orders are given back to their storage.
   */
  private async deleteHoldings(tx: Queryable, organizationId: number) {
    const orders = await OrdersService.ofOrganization(tx, organizationId);
    await FilesService.releaseAttachments(tx, orders.ids, organizationId);
    await OrdersService.deleteByIds(tx, orders.ids);
    const files = await FilesService.deleteOfOrganization(tx, organizationId);
    const exports = await ExportsService.deleteOfOrganization(tx, organizationId);
    await CasesService.deleteOfOrganization(tx, organizationId);
    await PartnersService.deleteOfOrganization(tx, organizationId);
    await DevicesService.releaseOfOrganization(tx, organizationId);
    await UsersService.deleteOfOrganization(tx, organizationId);
    await OrganizationsService.delete(tx, organizationId);
    return { keys: [...orders.attachmentKeys, ...files.keys, ...exports], uploads: files.uploads };
  }

  /**
   * The purge job: removes the organization and all it holds in one transaction, then its stored files (listed in
   * that transaction, so a crash leaves them to the blob sweep). An organization restored meanwhile is left alone.
   */
  async purge(organizationId: number) {
    const keys = await this.db.transaction(async (tx) => {
      const o = await companyRepository.lockDue(tx, organizationId, this.config.closedOrganizationRetentionDays);
      if (!o) return null;
      const { keys: stored, uploads } = await this.deleteHoldings(tx, organizationId);
      const all = [
        ...stored,
        ...uploads.map((id) => this.blobs.uploadKey(id)),
        ...(o.logo ? [o.logo] : []),
        ...(o.license_image ? [o.license_image] : []),
      ];
      await this.blobs.list(tx, all);
      return all;
    });
    if (!keys) return { purged: false, files: 0 };
    const deleted = await this.blobs.delete(keys);
    this.log?.info({ organizationId, files: deleted }, 'closed organization purged');
    return { purged: true, files: deleted };
  }
}
