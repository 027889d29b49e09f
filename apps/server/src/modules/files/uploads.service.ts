import type { IncomingMessage, ServerResponse } from 'node:http';
import { EVENTS, Server, type Upload } from '@tus/server';
import { FILE_FORMATS, kindOfFormat, type ErrorName, type FileFormat } from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { t } from '../../platform/i18n.js';
import type { BlobStore } from '../../platform/storage.js';
import { readAll } from '../../platform/storage.js';
import { newCode } from '../../platform/crypto.js';
import { filesRepository, storageRepository } from './files.repository.js';
import { cleanFileName, contentMatches, formatOfName, SNIFF_BYTES } from './content-check.js';

/** Who is uploading: a signed-in user or an activated scanner, always on behalf of one organization. */
export interface Uploader {
  organizationId: number;
  userId: number | null;
  deviceId: number | null;
  /** An upload grant is good for one case only. */
  onlyCase?: string;
}

export const TUS_PATH = '/api/v2/files/tus';
const MODELS_TO_PREPARE = new Set(['stl', 'ply', 'obj']);

/**
 * Resumable uploads over the tus protocol. Creation checks the case, the name, the format, the size,
 * the file count and the quota (reserving the bytes); completion checks the content and turns the
 * upload into a file of the case. Nothing half-done is left: a refused upload is deleted.
 */
export class UploadsService {
  readonly tus: Server;
  private readonly callers = new WeakMap<Request, { uploader: Uploader; lang: string }>();

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly config: Config,
    private readonly identify: (authorization: string | null, info: string | null) => Promise<Uploader>,
    private readonly onModelStored: (fileId: number) => Promise<void>,
  ) {
    this.tus = new Server({
      path: TUS_PATH,
      datastore: store.uploads,
      // The size limit is checked in onUploadCreate, so the refusal carries the catalogue's message.
      respectForwardedHeaders: config.trustProxy,
      relativeLocation: true,
      // Same-origin only, like the rest of the API.
      allowedOrigins: [new URL(config.publicUrl).origin],
      namingFunction: () => newCode('up') + newCode(''),
      onIncomingRequest: (req, uploadId) => this.authorize(req, uploadId),
      onUploadCreate: (req, upload) => this.create(req, upload),
      onUploadFinish: (req, upload) => this.finish(req, upload),
      onResponseError: async (req, err) => {
        if (err instanceof AppError) return this.errorBody(err, req.headers.get('lang') ?? 'en');
        return undefined;
      },
    });
    // A client that cancels (tus termination) gives the reserved bytes back.
    this.tus.on(EVENTS.POST_TERMINATE, (_req, _res, id: string) => void this.db.query('DELETE FROM uploads WHERE id = $1', [id]));
  }

  handle(req: IncomingMessage, res: ServerResponse) {
    return this.tus.handle(req, res);
  }

  private refuse(name: ErrorName, lang: string, params: Record<string, string | number> = {}): never {
    throw this.errorBody(new AppError(name, params), lang);
  }

  private errorBody(err: AppError, lang: string) {
    return { status_code: err.entry.status, body: JSON.stringify({ code: err.entry.code, msg: t(lang, err.entry.key, err.params), data: err.data }) };
  }

  private async authorize(req: Request, uploadId: string) {
    const lang = req.headers.get('lang') ?? 'en';
    let uploader: Uploader;
    try {
      uploader = await this.identify(req.headers.get('authorization'), req.headers.get('info'));
    } catch (err) {
      if (err instanceof AppError) throw this.errorBody(err, lang);
      throw err;
    }
    if (req.method !== 'POST') {
      // Resuming, reading the offset or cancelling: only the organization that started it.
      const [row] = await this.db.query<{ organization_id: number }>('SELECT organization_id FROM uploads WHERE id = $1', [uploadId]);
      if (!row || Number(row.organization_id) !== uploader.organizationId) this.refuse('NOT_FOUND', lang);
    }
    this.callers.set(req, { uploader, lang });
  }

  private async create(req: Request, upload: Upload) {
    const { uploader, lang } = this.callers.get(req)!;
    const meta = upload.metadata ?? {};
    const name = cleanFileName(meta.filename ?? '');
    if (!name) this.refuse('PARAM_INVALID', lang, { field: 'filename' });
    const format = formatOfName(name) as FileFormat;
    if (!(FILE_FORMATS as readonly string[]).includes(format) || !this.config.uploads.formats.includes(format)) {
      this.refuse('FILE_FORMAT_NOT_ACCEPTED', lang, { formats: this.config.uploads.formats.join(', ') });
    }
    const size = upload.size;
    if (size === undefined || size <= 0) this.refuse('PARAM_INVALID', lang, { field: 'Upload-Length' });
    if (size > this.config.uploads.maxBytes) this.refuse('FILE_TOO_LARGE', lang, { mb: Math.round(this.config.uploads.maxBytes / 1024 / 1024) });
    const jaw = meta.jaw && ['upper', 'lower', 'bite'].includes(meta.jaw) ? meta.jaw : null;

    await this.db.transaction(async (tx) => {
      const [found] = await tx.query<{ id: number }>(
        'SELECT id FROM cases WHERE code = $1 AND organization_id = $2 AND deleted_at IS NULL',
        [meta.caseCode ?? '', uploader.organizationId],
      );
      if (!found || (uploader.onlyCase && uploader.onlyCase !== meta.caseCode)) this.refuse('NOT_FOUND', lang);
      await storageRepository.lock(tx, uploader.organizationId);
      const [counts] = await tx.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM files WHERE case_id = $1) + (SELECT count(*) FROM uploads WHERE case_id = $1) AS n',
        [found.id],
      );
      if (Number(counts!.n) >= this.config.uploads.maxFilesPerCase) this.refuse('TOO_MANY_FILES', lang, { count: this.config.uploads.maxFilesPerCase });
      const usage = await storageRepository.usage(tx, uploader.organizationId);
      const quota = usage.quota ?? this.config.uploads.defaultQuotaBytes;
      if (usage.used + usage.reserved + size > quota) this.refuse('INSUFFICIENT_STORAGE', lang);
      await tx.query(
        `INSERT INTO uploads (id, organization_id, case_id, user_id, device_id, name, format, jaw, size) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [upload.id, uploader.organizationId, found.id, uploader.userId, uploader.deviceId, name, format, jaw, size],
      );
      await tx.query(`UPDATE cases SET status = 'toBeProgressed', updated_at = now() WHERE id = $1 AND status = 'registered'`, [found.id]);
    });
    return { metadata: { ...meta, filename: name } };
  }

  private async finish(req: Request, upload: Upload) {
    const lang = this.callers.get(req)?.lang ?? 'en';
    const [pending] = await this.db.query<{ organization_id: number; case_id: number; name: string; format: FileFormat; jaw: string | null; size: string }>(
      'SELECT organization_id, case_id, name, format, jaw, size FROM uploads WHERE id = $1',
      [upload.id],
    );
    if (!pending) this.refuse('NOT_FOUND', lang);
    const key = this.store.uploadKey(upload.id);
    const size = (await this.store.size(key)) ?? -1;
    const head = await readAll(await this.store.read(key, { start: 0, end: Math.min(SNIFF_BYTES, Math.max(size, 1)) - 1 }), SNIFF_BYTES);
    if (size !== Number(pending.size) || !(await contentMatches(pending.format, new Uint8Array(head), size))) {
      await this.discard(upload.id);
      this.refuse('FILE_CONTENT_MISMATCH', lang, { format: pending.format.toUpperCase() });
    }
    const prepare = MODELS_TO_PREPARE.has(pending.format);
    const fileId = await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM uploads WHERE id = $1', [upload.id]);
      const id = await filesRepository.insert(tx, {
        code: newCode('f'), orgId: Number(pending.organization_id), caseId: Number(pending.case_id), name: pending.name, format: pending.format,
        kind: kindOfFormat(pending.format), jaw: pending.jaw, size, storageKey: key, viewerStatus: prepare ? 'pending' : 'none',
      });
      await tx.query(
        `UPDATE cases SET status = 'uploaded', updated_at = now() WHERE id = $1 AND status IN ('registered', 'toBeProgressed', 'scanCompleted')
            AND NOT EXISTS (SELECT 1 FROM uploads WHERE case_id = $1)`,
        [pending.case_id],
      );
      return id;
    });
    if (prepare) await this.onModelStored(fileId);
    return {};
  }

  /** Drops an upload and its reservation: refused content, cancelled, or abandoned. */
  async discard(uploadId: string) {
    await this.db.query('DELETE FROM uploads WHERE id = $1', [uploadId]);
    await this.store.delete(this.store.uploadKey(uploadId)).catch(() => undefined);
  }

  /** Uploads left unfinished for a day give their reserved bytes back. */
  async discardAbandoned(olderThanHours = 24) {
    const rows = await this.db.query<{ id: string }>(`SELECT id FROM uploads WHERE created_at < now() - make_interval(hours => $1)`, [olderThanHours]);
    for (const r of rows) await this.discard(r.id);
    return rows.length;
  }
}
