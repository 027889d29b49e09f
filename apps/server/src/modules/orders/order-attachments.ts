import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { fileStreamError } from '../../platform/multipart.js';
import { FILE_FORMATS, type FileFormat, type OrderAttachment } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import type { BlobStore } from '../../platform/storage.js';
import { cleanFileName, contentMatches, formatOfName, SNIFF_BYTES } from '../files/content-check.js';
import { storageRepository } from '../files/files.repository.js';
import type { FileLinks } from '../files/files.service.js';

/** Attachments are small documents (photos, pdf, a model); scans belong to the case. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENTS_PER_REQUEST = 10;
const ACCEPTED = new Set<string>(FILE_FORMATS.filter((f) => f !== 'a3d' && f !== 'svg'));

interface AttachmentRow {
  id: number;
  code: string;
  order_id: number;
  organization_id: number;
  message_id: number | null;
  name: string;
  format: string;
  size: string;
  storage_key: string;
  created_at: Date;
  organization_name: string;
}

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

const SELECT = `SELECT a.*, og.name AS organization_name FROM order_attachments a JOIN organizations og ON og.id = a.organization_id`;

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
    return db.query<AttachmentRow>(`${SELECT} WHERE a.order_id = $1 ORDER BY a.id`, [orderId]);
  }

  listByMessages(db: Queryable, messageIds: number[]) {
    return db.query<AttachmentRow>(`${SELECT} WHERE a.message_id = ANY ($1::bigint[]) ORDER BY a.id`, [messageIds]);
  }

  /** A batch of files for one request: staged one by one, then committed together or not at all. */
  batch(orgId: number, userId: number) {
    return new AttachmentBatch(this.db, this.store, orgId, userId, this.defaultQuotaBytes);
  }

  /** Binds attachments the sender uploaded to the order to a new message. */
  async bindToMessage(tx: Queryable, orderId: number, orgId: number, messageId: number, codes: string[]) {
    if (codes.length === 0) return;
    const bound = await tx.query(
      `UPDATE order_attachments SET message_id = $4 WHERE order_id = $1 AND organization_id = $2 AND code = ANY ($3::text[]) AND message_id IS NULL RETURNING id`,
      [orderId, orgId, [...new Set(codes)], messageId],
    );
    if (bound.length !== new Set(codes).size) fail('NOT_FOUND');
  }

  /** A signed, expiring download link for an attachment of an order the caller may see. */
  async link(viewer: { orgId: number }, attachmentCode: string) {
    const [row] = await this.db.query<{ code: string; name: string; storage_key: string }>(
      `SELECT a.code, a.name, a.storage_key FROM order_attachments a JOIN orders o ON o.id = a.order_id
        WHERE a.code = $1 AND (o.clinic_organization_id = $2 OR o.lab_organization_id = $2)`,
      [attachmentCode, viewer.orgId],
    );
    if (!row) fail('NOT_FOUND');
    const signed = this.links.sign('attachment', row.code, this.ttlSeconds);
    const url =
      (await this.store.presignedGet(row.storage_key, row.name, this.ttlSeconds)) ??
      `${this.publicUrl}/api/v2/order/attachment/${row.code}?exp=${signed.exp}&sig=${signed.sig}`;
    return { url, expiresAt: new Date(signed.exp * 1000).toISOString() };
  }

  async openByLink(code: string, exp: number, sig: string) {
    this.links.check('attachment', code, exp, sig);
    const [row] = await this.db.query<{ name: string; format: string; size: string; storage_key: string }>(
      'SELECT name, format, size, storage_key FROM order_attachments WHERE code = $1',
      [code],
    );
    if (!row) fail('INVALID_LINK');
    return {
      name: row.name,
      format: row.format,
      size: Number(row.size),
      stream: await this.store.read(row.storage_key),
    };
  }
}

/**
 * The files of one `order/save_attachments` request. Each is streamed to the store as it arrives and checked by
 * content; the rows, and the bytes counted against the storage, are written in one transaction once every file
 * passed. Any refusal deletes what was staged, so a refused request keeps nothing and is charged nothing.
 */
export class AttachmentBatch {
  private readonly staged: Array<{ code: string; key: string; name: string; format: string; size: number }> = [];

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
    const total = this.staged.reduce((sum, f) => sum + f.size, 0);
    return this.db.transaction(async (tx) => {
      await storageRepository.lock(tx, this.orgId);
      const usage = await storageRepository.usage(tx, this.orgId);
      if (usage.used + usage.reserved + total > (usage.quota ?? this.defaultQuotaBytes)) fail('INSUFFICIENT_STORAGE');
      const ids: number[] = [];
      for (const f of this.staged) {
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO order_attachments (code, order_id, organization_id, user_id, name, format, size, storage_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           RETURNING id`,
          [f.code, orderId, this.orgId, this.userId, f.name, f.format, f.size, f.key],
        );
        ids.push(Number(row!.id));
      }
      await storageRepository.add(tx, this.orgId, total);
      const saved = await tx.query<AttachmentRow>(`${SELECT} WHERE a.id = ANY ($1::bigint[]) ORDER BY a.id`, [ids]);
      return saved.map((r) => toAttachment(r, this.orgId));
    });
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
