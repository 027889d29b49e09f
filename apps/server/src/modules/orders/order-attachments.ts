import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { fileStreamError } from '../../platform/multipart.js';
import { FILE_FORMATS, type FileFormat, type OrderAttachment } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import type { BlobStore } from '../../platform/storage.js';
import { cleanFileName, contentMatches, formatOfName, SNIFF_BYTES } from '../files/content-check.js';
import { FilesService, type FileLinks } from '../files/files.service.js';
import { attachmentsRepository, type AttachmentRow } from './orders.repository.js';

/** Attachments are small documents (photos, pdf, a model); scans belong to the case. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENTS_PER_REQUEST = 10;
const ACCEPTED = new Set<string>(FILE_FORMATS.filter((f) => f !== 'a3d' && f !== 'svg'));

export function toAttachment(r: AttachmentRow, viewerOrgId: number): OrderAttachment {
  return {
    code: r.code,
    name: r.name,
    format: r.format,
    size: Number(r.size),
    organizationName: r.organization_name,
    mine: Number(r.organization_id) === viewerOrgId,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Files either side attaches to an order: checked by content, counted against the uploader's storage. */
export class OrderAttachments {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly links: FileLinks,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
    private readonly defaultQuotaBytes: number,
  ) {}

  listByOrder(db: Queryable, orderId: number) {
    return attachmentsRepository.listByOrder(db, orderId);
  }

  listByMessages(db: Queryable, messageIds: number[]) {
    return attachmentsRepository.listByMessages(db, messageIds);
  }

  /** A batch of files for one request: staged one by one, then committed together or not at all. */
  batch(orgId: number, userId: number) {
    return new AttachmentBatch(this.db, this.store, orgId, userId, this.defaultQuotaBytes);
  }

  /** Binds attachments the sender uploaded to the order to a new message. */
  async bindToMessage(tx: Queryable, orderId: number, orgId: number, messageId: number, codes: string[]) {
    if (codes.length === 0) return;
    const bound = await attachmentsRepository.bindToMessage(tx, orderId, orgId, [...new Set(codes)], messageId);
    if (bound !== new Set(codes).size) fail('NOT_FOUND');
  }

  /** A signed, expiring download link for an attachment of an order the caller may see. */
  async link(viewer: { orgId: number }, attachmentCode: string) {
    const row = await attachmentsRepository.findForParty(this.db, viewer.orgId, attachmentCode);
    if (!row) fail('NOT_FOUND');
    const signed = this.links.sign('attachment', row.code, this.ttlSeconds);
    const url =
      (await this.store.presignedGet(row.storage_key, row.name, this.ttlSeconds)) ??
      `${this.publicUrl}/api/v2/order/attachment/${row.code}?exp=${signed.exp}&sig=${signed.sig}`;
    return { url, expiresAt: new Date(signed.exp * 1000).toISOString() };
  }

  async openByLink(code: string, exp: number, sig: string) {
    this.links.check('attachment', code, exp, sig);
    const row = await attachmentsRepository.findByCode(this.db, code);
    if (!row) fail('INVALID_LINK');
    return {
      name: row.name,
      format: row.format,
      size: Number(row.size),
      stream: await this.store.read(row.storage_key),
    };
  }
}

/** A file checked and written to the store, whose row is not written yet. */
export interface StagedFile {
  code: string;
  key: string;
  name: string;
  format: string;
  size: number;
}

/**
 * The files of one `order/save_attachments` request (and of `chat/attachments`). Each is streamed to the store as it arrives and checked by
 * content; the rows, and the bytes counted against the storage, are written in one transaction once every file
 * passed. Any refusal deletes what was staged, so a refused request keeps nothing and is charged nothing.
 */
export class AttachmentBatch {
  private readonly staged: StagedFile[] = [];

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly orgId: number,
    private readonly userId: number,
    private readonly defaultQuotaBytes: number,
  ) {}

  get count() {
    return this.staged.length;
  }

  async stage(rawName: string, body: Readable & { truncated?: boolean }) {
    const name = cleanFileName(rawName);
    if (!name) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
    const format = formatOfName(name);
    if (!ACCEPTED.has(format)) fail('FILE_FORMAT_NOT_ACCEPTED', { formats: [...ACCEPTED].join(', ') });
    const code = newCode('a');
    const key = `attachments/${code}`;
    const head = new HeadCapture(SNIFF_BYTES);
    // Staged before it is written, so a failure half-way through the write is cleaned up too.
    const entry = { code, key, name, format, size: 0 };
    this.staged.push(entry);
    try {
      entry.size = await this.store.write(
        key,
        pipeline(body, head, () => undefined),
      );
    } catch (err) {
      throw fileStreamError(err, ATTACHMENT_MAX_BYTES);
    }
    if (body.truncated || entry.size > ATTACHMENT_MAX_BYTES) {
      fail('FILE_TOO_LARGE', { mb: ATTACHMENT_MAX_BYTES / 1024 / 1024 });
    }
    if (!(await contentMatches(format as FileFormat, head.bytes(), entry.size))) {
      fail('FILE_CONTENT_MISMATCH', { format });
    }
  }

  /** Writes every staged file's row and usage for the order; refused as a whole when the storage is full. */
  async commit(orderId: number): Promise<OrderAttachment[]> {
    return this.db.transaction(async (tx) => {
      const ids = await this.writeRows(tx, (f) =>
        attachmentsRepository.insert(tx, { ...f, orderId, orgId: this.orgId, userId: this.userId, storageKey: f.key }),
      );
      const saved = await attachmentsRepository.listByIds(tx, ids);
      return saved.map((r) => toAttachment(r, this.orgId));
    });
  }

  /** Charges the staged files to the uploader's storage and writes a row for each (by `insert`) in `tx`. */
  async writeRows(tx: Queryable, insert: (file: StagedFile) => Promise<number>): Promise<number[]> {
    const total = this.staged.reduce((sum, f) => sum + f.size, 0);
    await FilesService.charge(tx, this.orgId, total, this.defaultQuotaBytes);
    const ids: number[] = [];
    for (const f of this.staged) ids.push(await insert(f));
    return ids;
  }

  /** Deletes every staged file (a refused request). */
  async discard() {
    await Promise.all(this.staged.map((f) => this.store.delete(f.key).catch(() => undefined)));
    this.staged.length = 0;
  }
}

/** Passes a stream through while keeping its first bytes, for the content check. */
class HeadCapture extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    done(null, chunk);
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.chunks));
  }
}
