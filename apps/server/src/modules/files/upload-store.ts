/* eslint-disable @typescript-eslint/only-throw-error -- the tus server answers the error bodies it is thrown (ERRORS.*) */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline as pipe, Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/server';
import { AppError } from '../../platform/errors.js';
import { ScopedStorage } from '../../platform/scoped-storage.js';
import type { UploadState } from './files.repository.js';

/** The checksum algorithms offered (tus checksum extension), by their tus names, with their digest lengths. */
const DIGEST_BYTES = { sha1: 20, sha256: 32, sha512: 64, md5: 16 } as const;
export type ChecksumAlgorithm = keyof typeof DIGEST_BYTES;
export const CHECKSUM_ALGORITHMS = Object.keys(DIGEST_BYTES) as ChecksumAlgorithm[];
export interface Checksum {
  algorithm: ChecksumAlgorithm;
  digest: Buffer;
}

/** Reads an `Upload-Checksum` header (`<algorithm> <base64 digest>`); anything else is refused naming the header. */
export function parseChecksum(header: string): Checksum {
  const [, name, value] = /^([A-Za-z0-9-]+) ([A-Za-z0-9+/]+={0,2})$/.exec(header.trim()) ?? [];
  const algorithm = name?.toLowerCase() as ChecksumAlgorithm;
  const digest = Buffer.from(value ?? '', 'base64');
  if (!Object.hasOwn(DIGEST_BYTES, algorithm ?? '') || digest.length !== DIGEST_BYTES[algorithm])
    throw new AppError('PARAM_INVALID', { field: 'Upload-Checksum' });
  return { algorithm, digest };
}

/** tus hands a datastore only the body: the checksum of the request being handled travels beside it. */
const requestChecksum = new ScopedStorage<Checksum | null>();
export const withChecksum = <T>(checksum: Checksum | null, run: () => Promise<T>): Promise<T> =>
  requestChecksum.run(checksum, run);

/** Running content hashes kept at most (a lost one only means hashing the finished blob again). */
const MAX_RUNNING_HASHES = 1000;

/**
 * The tus datastore the endpoint speaks to: the blob store's own (file or S3) plus what the portal adds.
 * - The database says what an upload is: unknown (404), in progress, or finished. A finished upload keeps
 *   answering (offset = length) until it expires even though its bytes now belong to a file, and cannot be
 *   terminated.
 * - Expiry counts from the creation recorded in the database (tus answers 410 after it, and sends
 *   Upload-Expires).
 * - Checksum extension: a chunk with Upload-Checksum is staged in a side file while it is hashed, and only
 *   handed to the store when it matches (else 460 and the offset stays), so it works the same on both stores
 *   and never holds a chunk in memory.
 * - A SHA-256 of the content is kept running while the chunks arrive in order in this process, so finishing
 *   rarely has to read the blob back.
 * No creation-defer-length: the quota is reserved from Upload-Length at creation.
 */
export class UploadStore extends DataStore {
  private readonly running = new Map<string, { hash: Hash; offset: number }>();

  constructor(
    private readonly inner: DataStore,
    private readonly opts: {
      expirationMs: number;
      /** Where checksummed chunks wait for their verification. */
      stagingDir: string;
      state: (id: string) => Promise<UploadState | null>;
      /** The client terminated an upload in progress: its reservation goes. */
      terminated: (id: string) => Promise<void>;
      /** Makes a whole upload a file (what tus's finish does), for one whose process stopped before finishing it. */
      complete: (upload: Upload) => Promise<unknown>;
      /** Told how many bytes of an upload the store took (the metrics). */
      received?: (bytes: number) => void;
    },
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'checksum', 'expiration'];
  }

  override getExpiration() {
    return this.opts.expirationMs;
  }

  override async create(upload: Upload) {
    // The creation date is the one the database records (the S3 store would set its own).
    const createdAt = upload.creation_date;
    const made = await this.inner.create(upload);
    made.creation_date = createdAt;
    return made;
  }

  override async getUpload(id: string) {
    const state = await this.opts.state(id);
    if (!state) throw ERRORS.FILE_NOT_FOUND;
    const creation_date = state.createdAt.toISOString();
    if (state.finished)
      return new Upload({ id, size: state.size, offset: state.size, metadata: state.metadata, creation_date });
    const upload = await this.inner.getUpload(id);
    upload.creation_date = creation_date;
    if (upload.offset === state.size) {
      // Every byte is stored, yet the upload is not finished: its process stopped before finishing it. Finished
      // now, since a client told offset = length considers it done and never sends another request.
      await this.opts.complete(upload);
      return new Upload({ id, size: state.size, offset: state.size, metadata: upload.metadata, creation_date });
    }
    return upload;
  }

  override async write(body: Readable, id: string, offset: number) {
    const state = await this.opts.state(id);
    if (!state) throw ERRORS.FILE_NOT_FOUND;
    if (state.finished) {
      // A repeated final PATCH: tus already checked that it carries no bytes past the end.
      body.resume();
      await finished(body);
      return offset;
    }
    const newOffset = await this.verifyAndCommit(body, id, offset);
    this.opts.received?.(newOffset - offset);
    return newOffset;
  }

  private async verifyAndCommit(body: Readable, id: string, offset: number) {
    const checksum = requestChecksum.getStore();
    if (!checksum) return this.commit(body, id, offset);
    await mkdir(this.opts.stagingDir, { recursive: true });
    const staged = join(this.opts.stagingDir, `${id}.${randomBytes(6).toString('hex')}`);
    try {
      const hash = createHash(checksum.algorithm);
      await pipeline(body, hashing(hash), createWriteStream(staged));
      if (!hash.digest().equals(checksum.digest))
        throw new AppError('UPLOAD_CHECKSUM_MISMATCH', { algorithm: checksum.algorithm });
      return await this.commit(createReadStream(staged), id, offset);
    } finally {
      await rm(staged, { force: true });
    }
  }

  override async remove(id: string) {
    const state = await this.opts.state(id);
    if (!state) throw ERRORS.FILE_NOT_FOUND;
    if (state.finished) throw ERRORS.INVALID_TERMINATION; // its bytes are a case's file now
    this.running.delete(id);
    await this.inner.remove(id).catch((err) => {
      if (err !== ERRORS.FILE_NOT_FOUND) throw err;
    });
    await this.opts.terminated(id);
  }

  /** Drops what the store holds of an unfinished upload; what it does not find is already gone. */
  async discard(id: string) {
    this.running.delete(id);
    await this.inner.remove(id).catch(() => undefined);
  }

  /** The SHA-256 of the whole upload when every byte passed through this process in order; else null. */
  contentDigest(id: string, size: number): Buffer | null {
    const run = this.running.get(id);
    this.running.delete(id);
    return run?.offset === size ? run.hash.digest() : null;
  }

  /** Staged chunks left behind by a process that stopped mid-request. */
  async sweepStaging(olderThanMs: number) {
    const names = await readdir(this.opts.stagingDir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(this.opts.stagingDir, name);
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs > olderThanMs) await rm(path, { force: true });
    }
  }

  /** Hands the bytes to the store, hashing them on the way when the hash so far covers everything before. */
  private async commit(source: Readable, id: string, offset: number) {
    const run = this.running.get(id);
    this.running.delete(id);
    const hash = offset === 0 ? createHash('sha256') : run?.offset === offset ? run.hash : null;
    if (!hash) return this.inner.write(source, id, offset);
    let passed = 0;
    const counted = hashing(hash, (n) => (passed += n));
    const newOffset = await this.inner.write(
      pipe(source, counted, () => undefined),
      id,
      offset,
    );
    // Kept only when the store took exactly the bytes hashed (an interrupted chunk may have lost some).
    if (newOffset === offset + passed) {
      this.running.set(id, { hash, offset: newOffset });
      if (this.running.size > MAX_RUNNING_HASHES) this.running.delete(this.running.keys().next().value!);
    }
    return newOffset;
  }
}

function hashing(hash: Hash, onBytes?: (n: number) => void) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      onBytes?.(chunk.length);
      done(null, chunk);
    },
  });
}
