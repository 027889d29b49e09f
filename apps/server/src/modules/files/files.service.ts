import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import type { BlobStore } from '../../platform/storage.js';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import { CasesService } from '../cases/cases.service.js';
import { labHasScans, type LabScanTerms } from '../orders/lab-scans.js';
import { filesRepository, storageRepository, uploadsRepository } from './files.repository.js';
import type { AccessLog, Reader } from '../audit/access-log.js';

export type { FileRow } from './files.repository.js';

export type LinkPurpose = 'download' | 'viewer' | 'attachment';

/** Short-lived, signed links to files, so a browser can fetch them without an access token. */
export class FileLinks {
  constructor(private readonly secret: string) {}
  private signature(purpose: LinkPurpose, code: string, exp: number) {
    return createHmac('sha256', this.secret).update(`${purpose}:${code}:${exp}`).digest('base64url');
  }
  sign(purpose: LinkPurpose, code: string, ttlSeconds: number) {
    const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
    return { exp, sig: this.signature(purpose, code, exp) };
  }
  /** Invalid (2021) or expired (2020) links get the catalogue's answers. */
  check(purpose: LinkPurpose, code: string, exp: number, sig: string) {
    const expected = Buffer.from(this.signature(purpose, code, exp));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) fail('INVALID_LINK');
    if (exp < Date.now() / 1000) fail('LINK_EXPIRED');
  }
}

export class FilesService {
  // Static: what other modules read and change of files, uploads and storage, on their own connection or inside
  // their own transaction (`tx`). The files module's tables are written here and nowhere else.

  /** A case's files, by kind and age. */
  static byCase(db: Queryable, caseId: number) {
    return filesRepository.byCase(db, caseId);
  }

  /**
   * A case's purge: deletes its files and its unfinished uploads, giving their bytes back to the organization;
   * answers the stored keys of the files and the ids of the uploads (whose blobs the store names).
   */
  static async deleteOfCase(tx: Queryable, caseId: number) {
    const keys = await filesRepository.deleteOfCase(tx, caseId);
    const uploads = await uploadsRepository.deleteOfCase(tx, caseId);
    return { keys, uploads };
  }

  /**
   * Counts bytes another module stores for the organization (order attachments, report snapshots) in that module's
   * transaction, under the quota's row lock: refused as a whole (INSUFFICIENT_STORAGE) when the storage is full.
   */
  static async charge(tx: Queryable, orgId: number, bytes: number, defaultQuotaBytes: number) {
    await storageRepository.lock(tx, orgId);
    const usage = await storageRepository.usage(tx, orgId);
    if (usage.used + usage.reserved + bytes > (usage.quota ?? defaultQuotaBytes)) fail('INSUFFICIENT_STORAGE');
    await storageRepository.add(tx, orgId, bytes);
  }

  /** Bytes another module stored for organizations (report snapshots, order attachments) went: their storage follows. */
  static async release(tx: Queryable, stored: Array<{ orgId: number; size: number }>) {
    const perOrg = new Map<number, number>();
    for (const s of stored) perOrg.set(s.orgId, (perOrg.get(s.orgId) ?? 0) + s.size);
    for (const [orgId, bytes] of perOrg) await storageRepository.add(tx, orgId, -bytes);
  }

  /** Other organizations get the bytes of their attachments on these orders back (the orders go with `orgId`). */
  static releaseAttachments(tx: Queryable, orderIds: number[], orgId: number) {
    return storageRepository.releaseAttachments(tx, orderIds, orgId);
  }

  /** An organization's purge: its files and uploads; answers the files' stored keys and the uploads' ids. */
  static deleteOfOrganization(tx: Queryable, orgId: number) {
    return filesRepository.deleteOfOrganization(tx, orgId);
  }

  readonly links: FileLinks;
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly config: Config,
    private readonly blobs: BlobDeletions,
    private readonly accessLog: AccessLog,
  ) {
    this.links = new FileLinks(`files:${config.jwtSecret}`);
  }

  get publicUrl() {
    return this.config.publicUrl;
  }

  async assertCase(orgId: number, caseCode: string) {
    if (!(await filesRepository.caseIsLive(this.db, orgId, caseCode))) fail('NOT_FOUND');
  }

  /** A grant to download the original (pre-signed on S3, signed route otherwise) and to load the viewer version. */
  /** Links to a file for the caller (its case's clinic, or a laboratory whose order may show it); each is logged. */
  async grant(reader: Reader, fileCode: string) {
    const orgId = reader.organizationId;
    const file = await filesRepository.findReadable(this.db, orgId, fileCode);
    if (!file) fail('NOT_FOUND');
    if (Number(file.organization_id) !== orgId) {
      const orders = (
        typeof file.lab_orders === 'string' ? JSON.parse(file.lab_orders) : file.lab_orders
      ) as LabScanTerms[];
      if (!orders.some((o) => labHasScans(o))) fail('ORDER_SCANS_UNAVAILABLE');
    }
    const ttl = this.config.fileLinkTtlSeconds;
    const base = `${this.config.publicUrl}/api/v2/file`;
    const d = this.links.sign('download', file.code, ttl);
    const url =
      (await this.store.presignedGet(file.storage_key, file.name, ttl)) ??
      `${base}/download/${file.code}?exp=${d.exp}&sig=${d.sig}`;
    let viewerUrl: string | null = null;
    if (file.viewer_status !== 'none') {
      const v = this.links.sign('viewer', file.code, ttl);
      viewerUrl = `${base}/viewer/${file.code}?exp=${v.exp}&sig=${v.sig}`;
    }
    await this.accessLog.read(reader, {
      ownerOrgId: Number(file.organization_id),
      action: 'file.open',
      caseId: Number(file.case_id),
      fileId: Number(file.id),
    });
    return { url, viewerUrl, expiresAt: new Date(d.exp * 1000).toISOString() };
  }

  async openByLink(purpose: LinkPurpose, fileCode: string, exp: number, sig: string) {
    this.links.check(purpose, fileCode, exp, sig);
    const file = await filesRepository.findByCode(this.db, fileCode);
    if (!file) fail('INVALID_LINK');
    if (purpose === 'viewer') {
      if (file.viewer_status === 'pending') fail('RESOURCE_PREPARING');
      if (file.viewer_status !== 'ready' || !file.viewer_key) fail('NOT_FOUND');
      return { file, key: file.viewer_key, size: (await this.store.size(file.viewer_key)) ?? 0 };
    }
    return { file, key: file.storage_key, size: Number(file.size) };
  }

  /**
   * A file of a given case by code for a share's links (which the share's module has signed and checked): the
   * original, or the viewer version (2007 while it is prepared); NOT_FOUND for a file of another case.
   */
  async openInCase(caseId: number, purpose: 'download' | 'viewer', fileCode: string) {
    const file = await filesRepository.findByCode(this.db, fileCode);
    if (!file || Number(file.case_id) !== caseId) fail('NOT_FOUND');
    if (purpose === 'viewer') {
      if (file.viewer_status === 'pending') fail('RESOURCE_PREPARING');
      if (file.viewer_status !== 'ready' || !file.viewer_key) fail('NOT_FOUND');
      return { file, key: file.viewer_key, size: (await this.store.size(file.viewer_key)) ?? 0 };
    }
    return { file, key: file.storage_key, size: Number(file.size) };
  }

  read(key: string, range?: { start: number; end: number }) {
    return this.store.read(key, range);
  }

  async delete(orgId: number, fileCode: string) {
    const file = await filesRepository.find(this.db, orgId, fileCode);
    if (!file) fail('NOT_FOUND');
    const keys = await this.db.transaction(async (tx) => {
      const removed = await filesRepository.delete(tx, Number(file.id));
      if (removed) await CasesService.filesChanged(tx, Number(removed.case_id), -1, -Number(removed.size));
      const stored = removed ? [removed.storage_key, ...(removed.viewer_key ? [removed.viewer_key] : [])] : [];
      await this.blobs.list(tx, stored);
      return stored;
    });
    await this.blobs.delete(keys);
  }

  /**
   * Counts bytes another module stores for the organization (report snapshots) in that module's transaction:
   * refused as a whole when the storage is full.
   */
  charge(tx: Queryable, orgId: number, bytes: number) {
    return FilesService.charge(tx, orgId, bytes, this.config.uploads.defaultQuotaBytes);
  }

  async usage(orgId: number) {
    const u = await storageRepository.usage(this.db, orgId);
    const byKind = await storageRepository.byKind(this.db, orgId);
    const bin = await storageRepository.binnedBytes(this.db, orgId);
    const largestCases = await storageRepository.largestCases(this.db, orgId);
    const largestFiles = await storageRepository.largestFiles(this.db, orgId);
    return {
      usedBytes: u.used,
      quotaBytes: u.quota ?? this.config.uploads.defaultQuotaBytes,
      recycleBinBytes: Number(bin.bytes),
      byKind: byKind.map((k) => ({ kind: k.kind as 'model', bytes: Number(k.bytes), count: k.count })),
      largestCases: largestCases.map((c) => ({
        caseCode: c.code,
        name: c.name,
        patientName: c.patient_name,
        size: Number(c.size),
      })),
      largestFiles: largestFiles.map((f) => ({
        fileCode: f.code,
        caseCode: f.case_code,
        name: f.name,
        size: Number(f.size),
      })),
    };
  }
}
