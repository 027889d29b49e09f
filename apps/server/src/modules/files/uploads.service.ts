import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ERRORS as TUS_ERRORS, Server, TUS_RESUMABLE, type Upload } from '@tus/server';
import { FILE_FORMATS, hasUnsafeText, kindOfFormat, type ErrorName, type FileFormat } from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import { AppError, fail } from '../../platform/errors.js';
import { t } from '../../platform/i18n.js';
import type { BlobStore } from '../../platform/storage.js';
import { readAll, type Readable } from '../../platform/storage.js';
import { newCode } from '../../platform/crypto.js';
import { CasesService } from '../cases/cases.service.js';
import { filesRepository, storageRepository, uploadsRepository } from './files.repository.js';
import { cleanFileName, contentMatches, formatOfName, SNIFF_BYTES } from './content-check.js';
import { CHECKSUM_ALGORITHMS, UploadStore, withChecksum } from './upload-store.js';
import { readTusRequest, type TusRefusal } from './tus-protocol.js';
import { checkFirstBytes } from './first-bytes-check.js';

/** Who is uploading: a signed-in user or an activated scanner, always on behalf of one organization. */
export interface Uploader {
  organizationId: number;
  userId: number | null;
  deviceId: number | null;
  /** An upload grant is good for one case only. */
  onlyCase?: string;
}

export const TUS_PATH = '/api/v2/files/tus';
/** Unfinished uploads are discarded, and finished ones stop answering, this long after their creation. */
export const UPLOAD_EXPIRY_HOURS = 24;
const MODELS_TO_PREPARE = new Set(['stl', 'ply', 'obj']);

/**
 * Resumable uploads over the tus protocol. Creation checks the case, the name, the format, the size,
 * the file count and the quota (reserving the bytes); completion checks the content and turns the
 * upload into a file of the case. Nothing half-done is left: a refused upload is deleted.
 */
export class UploadsService {
  readonly tus: Server;
  private readonly uploadStore: UploadStore;
  private readonly callers = new WeakMap<Request, { uploader: Uploader; lang: string; created?: string }>();

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly config: Config,
    private readonly identify: (authorization: string | null, info: string | null) => Promise<Uploader>,
    /** Models get their viewer version made by a job, queued in the transaction that makes the file. */
    private readonly models: { queue: (tx: Queryable, fileId: number) => Promise<void>; wakeUp: () => void },
    private readonly blobs: BlobDeletions,
    /** Told the bytes each upload request stored (the metrics). */
    received?: (bytes: number) => void,
  ) {
    // Checksums and expiry around the store; the first bytes of an upload are checked as they reach it.
    this.uploadStore = new UploadStore(checkFirstBytes(store.uploads, db), {
      expirationMs: UPLOAD_EXPIRY_HOURS * 3_600_000,
      stagingDir: join(config.dataDir, 'upload-chunks'),
      state: (id) => uploadsRepository.state(this.db, id),
      terminated: async (id) => {
        await uploadsRepository.delete(this.db, id);
      },
      // Told when every byte is stored but the upload was never finished (its process stopped in between).
      complete: (upload) => this.complete(upload, 'en'),
      received,
    });
    this.tus = new Server({
      path: TUS_PATH,
      datastore: this.uploadStore,
      // Sent as Tus-Max-Size; a larger Upload-Length is refused with the catalogue's message (onResponseError).
      maxSize: config.uploads.maxBytes,
      allowedHeaders: ['Upload-Checksum'],
      exposedHeaders: ['Upload-Expires', 'Tus-Checksum-Algorithm'],
      respectForwardedHeaders: config.trustProxy,
      relativeLocation: true,
      // Same-origin only, like the rest of the API.
      allowedOrigins: [new URL(config.publicUrl).origin],
      namingFunction: () => newCode('up') + newCode(''),
      onIncomingRequest: (req, uploadId) => this.authorize(req, uploadId),
      onUploadCreate: (req, upload) => this.create(req, upload),
      onUploadFinish: (req, upload) => this.finish(req, upload),
      onResponseError: async (req, err) => {
        const lang = req.headers.get('lang') ?? 'en';
        if (err === TUS_ERRORS.ERR_MAX_SIZE_EXCEEDED)
          return this.errorBody(
            new AppError('FILE_TOO_LARGE', { mb: Math.round(this.config.uploads.maxBytes / 1024 / 1024) }),
            lang,
          );
        // A creation whose first bytes failed (creation-with-upload: a checksum mismatch, a dropped connection)
        // leaves nothing: the client never learnt where the upload is.
        const created = this.callers.get(req)?.created;
        if (req.method === 'POST' && created) await this.discard(created);
        if (err instanceof AppError) return this.errorBody(err, lang);
        return undefined;
      },
    });
  }

  handle(req: IncomingMessage, res: ServerResponse) {
    const request = readTusRequest(req);
    if ('refusal' in request) return this.answerRefusal(req, res, request.refusal);
    if (req.method === 'OPTIONS') res.setHeader('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
    return withChecksum(request.checksum, () => this.tus.handle(req, res));
  }

  /** A request refused before tus saw it still gets a tus answer (Tus-Resumable). */
  private answerRefusal(req: IncomingMessage, res: ServerResponse, refusal: TusRefusal) {
    if (refusal instanceof AppError) {
      const { status_code, body } = this.errorBody(refusal, (req.headers.lang as string | undefined) ?? 'en');
      res.writeHead(status_code, { 'Tus-Resumable': TUS_RESUMABLE, 'Content-Type': 'application/json; charset=utf-8' });
      res.end(body);
    } else {
      res.writeHead(refusal.status, { ...refusal.headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(refusal.body);
    }
  }

  private refuse(name: ErrorName, lang: string, params: Record<string, string | number> = {}): never {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the tus server answers the error bodies it is thrown
    throw this.errorBody(new AppError(name, params), lang);
  }

  private errorBody(err: AppError, lang: string) {
    return {
      status_code: err.entry.status,
      body: JSON.stringify({ code: err.entry.code, msg: t(lang, err.entry.key, err.params), data: err.data }),
    };
  }

  private async authorize(req: Request, uploadId: string) {
    const lang = req.headers.get('lang') ?? 'en';
    let uploader: Uploader;
    try {
      uploader = await this.identify(req.headers.get('authorization'), req.headers.get('info'));
    } catch (err) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- as above
      if (err instanceof AppError) throw this.errorBody(err, lang);
      throw err;
    }
    if (req.method !== 'POST') {
      // Resuming, reading the offset or cancelling: only the organization that started it.
      const state = await uploadsRepository.state(this.db, uploadId);
      if (!state || state.organizationId !== uploader.organizationId) this.refuse('NOT_FOUND', lang);
    }
    this.callers.set(req, { uploader, lang });
  }

  private async create(req: Request, upload: Upload) {
    const { uploader, lang } = this.callers.get(req)!;
    const meta = upload.metadata ?? {};
    let name: string;
    try {
      // Created when tus made the upload, so the expiry tus announces and the one applied here agree.
      name = await this.reserve(uploader, {
        id: upload.id,
        size: upload.size,
        metadata: meta,
        createdAt: new Date(upload.creation_date!),
      });
    } catch (err) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the tus server answers the error bodies it is thrown
      if (err instanceof AppError) throw this.errorBody(err, lang);
      throw err;
    }
    this.callers.get(req)!.created = upload.id;
    return { metadata: { ...meta, filename: name } };
  }

  /**
   * An upload about to be created: its name, format, size and case are checked, then, in one transaction under the
   * quota's row lock, the case's files and unfinished uploads against the limit per case (TOO_MANY_FILES) and the
   * organization's used and reserved bytes against its quota (INSUFFICIENT_STORAGE); the bytes are reserved (an
   * `uploads` row) and a registered case is to be progressed. Refusals are the catalogue's errors. Answers the
   * cleaned file name.
   */
  async reserve(
    uploader: Uploader,
    upload: { id: string; size: number | undefined; metadata: Record<string, string | null>; createdAt: Date },
  ): Promise<string> {
    const meta = upload.metadata;
    const name = cleanFileName(meta.filename ?? '');
    if (!name) fail('PARAM_INVALID', { field: 'filename' });
    const format = formatOfName(name) as FileFormat;
    if (!(FILE_FORMATS as readonly string[]).includes(format) || !this.config.uploads.formats.includes(format)) {
      fail('FILE_FORMAT_NOT_ACCEPTED', { formats: this.config.uploads.formats.join(', ') });
    }
    const size = upload.size;
    if (size === undefined || size <= 0) fail('PARAM_INVALID', { field: 'Upload-Length' });
    const jaw = meta.jaw && ['upper', 'lower', 'bite'].includes(meta.jaw) ? meta.jaw : null;
    const caseCode = meta.caseCode ?? '';
    if (caseCode.length > 64 || hasUnsafeText(caseCode)) fail('PARAM_INVALID', { field: 'caseCode' });

    await this.db.transaction(async (tx) => {
      const found = await uploadsRepository.liveCase(tx, uploader.organizationId, caseCode);
      if (!found || (uploader.onlyCase && uploader.onlyCase !== meta.caseCode)) fail('NOT_FOUND');
      await storageRepository.lock(tx, uploader.organizationId);
      if ((await uploadsRepository.countOfCase(tx, found.id)) >= this.config.uploads.maxFilesPerCase)
        fail('TOO_MANY_FILES', { count: this.config.uploads.maxFilesPerCase });
      const usage = await storageRepository.usage(tx, uploader.organizationId);
      const quota = usage.quota ?? this.config.uploads.defaultQuotaBytes;
      if (usage.used + usage.reserved + size > quota) fail('INSUFFICIENT_STORAGE');
      await uploadsRepository.insert(tx, {
        id: upload.id,
        orgId: uploader.organizationId,
        caseId: found.id,
        userId: uploader.userId,
        deviceId: uploader.deviceId,
        name,
        format,
        jaw,
        size,
        createdAt: upload.createdAt,
      });
      await CasesService.uploadStarted(tx, found.id);
    });
    return name;
  }

  private finish(req: Request, upload: Upload) {
    return this.complete(upload, this.callers.get(req)?.lang ?? 'en');
  }

  /**
   * Turns a whole upload into a file of its case: checks its content, then, in one transaction under the quota's
   * lock, claims the upload, makes the file (or finds the same bytes already in the case) and queues its viewer
   * version. Run again on an upload already finished, it answers the same success.
   */
  async complete(upload: Upload, lang: string) {
    const pending = await uploadsRepository.pending(this.db, upload.id);
    if (!pending) {
      // The final PATCH again, from a client that lost its answer: the same success.
      if ((await uploadsRepository.state(this.db, upload.id))?.finished) return {};
      this.refuse('NOT_FOUND', lang);
    }
    const key = this.store.uploadKey(upload.id);
    const size = (await this.store.size(key)) ?? -1;
    const head = await readAll(
      await this.store.read(key, { start: 0, end: Math.min(SNIFF_BYTES, Math.max(size, 1)) - 1 }),
      SNIFF_BYTES,
    );
    if (size !== Number(pending.size) || !(await contentMatches(pending.format, new Uint8Array(head), size))) {
      await this.discard(upload.id);
      this.refuse('FILE_CONTENT_MISMATCH', lang, { format: pending.format.toUpperCase() });
    }
    const sha256 = this.uploadStore.contentDigest(upload.id, size) ?? (await sha256Of(await this.store.read(key)));
    const prepare = MODELS_TO_PREPARE.has(pending.format);
    const orgId = Number(pending.organization_id);
    const caseId = Number(pending.case_id);
    const outcome = await this.db.transaction(async (tx) => {
      // One finish at a time per organization (the quota's lock, taken first as creation does), so two uploads of
      // the same bytes cannot both become files; the upload row is claimed once.
      await storageRepository.lock(tx, orgId);
      if (!(await uploadsRepository.claim(tx, upload.id))) return null;
      const same = await filesRepository.findSameContent(tx, caseId, size, sha256);
      let fileId = same;
      if (fileId === undefined) {
        fileId = await filesRepository.insert(tx, {
          code: newCode('f'),
          orgId,
          caseId,
          name: pending.name,
          format: pending.format,
          kind: kindOfFormat(pending.format),
          jaw: pending.jaw,
          size,
          storageKey: key,
          viewerStatus: prepare ? 'pending' : 'none',
          sha256,
        });
        await CasesService.filesChanged(tx, caseId, 1, size);
      }
      await uploadsRepository.insertFinished(tx, {
        id: upload.id,
        orgId,
        caseId,
        fileId,
        size,
        metadata: upload.metadata,
        createdAt: new Date(pending.created_at),
      });
      await CasesService.uploadFinished(tx, caseId);
      // The case already holds these bytes: the upload answers as that file, its own copy goes.
      if (same !== undefined) await this.blobs.list(tx, [key]);
      else if (prepare) await this.models.queue(tx, fileId);
      return { duplicate: same !== undefined };
    });
    if (outcome?.duplicate) await this.blobs.delete([key]);
    else if (outcome && prepare) this.models.wakeUp();
    return {};
  }

  /** Drops an upload and its reservation: refused content, cancelled, or abandoned. */
  async discard(uploadId: string) {
    const key = this.store.uploadKey(uploadId);
    await this.db.transaction(async (tx) => {
      await uploadsRepository.delete(tx, uploadId);
      await this.blobs.list(tx, [key]);
    });
    await this.uploadStore.discard(uploadId);
    await this.blobs.delete([key]);
  }

  /**
   * Uploads past their expiry: unfinished ones give their reserved bytes back, finished ones stop answering;
   * chunks staged by a process that stopped mid-request go too.
   */
  async discardAbandoned() {
    const rows = await uploadsRepository.expired(this.db, UPLOAD_EXPIRY_HOURS);
    for (const r of rows) await this.discard(r.id);
    await uploadsRepository.forgetFinished(this.db, UPLOAD_EXPIRY_HOURS);
    await this.uploadStore.sweepStaging(UPLOAD_EXPIRY_HOURS * 3_600_000);
    return rows.length;
  }
}

async function sha256Of(stream: Readable) {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest();
}
