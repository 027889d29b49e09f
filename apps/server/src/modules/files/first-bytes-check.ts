import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { DataStore } from '@tus/server';
import type { FileFormat } from '@portal/contracts';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { contentVerdict, SNIFF_BYTES } from './content-check.js';
import { uploadsRepository } from './files.repository.js';

/**
 * The content check on an upload's first bytes, as they arrive: a file that is not what its name says is refused
 * (415, code 2026) once its first bytes tell, instead of after the whole upload, and is discarded with the bytes
 * it reserved. It wraps the tus datastore's write, so it runs after tus has authorised the request, on the bytes
 * at offset 0 (a PATCH, or a POST that creates the upload with its first bytes). A binary STL is told by its
 * declared size: the upload's Upload-Length. The full check at finish still runs: it sees the real size.
 */
export function checkFirstBytes(datastore: DataStore, db: Db): DataStore {
  const write = async (stream: Readable, id: string, offset: number) => {
    if (offset !== 0) return datastore.write(stream, id, offset);
    const upload = await uploadsRepository.formatAndSize(db, id);
    if (!upload) return datastore.write(stream, id, offset);
    const head = new HeadCheck(upload.format, Number(upload.size));
    // pipe, not pipeline: a refusal must not destroy the request's stream (tus answers on it); it stops
    // reading it, so the rest of the body is never taken in.
    stream.on('error', (err) => head.destroy(err));
    // The store may start reading only after its own requests (S3): an error before then must not go unheard.
    // It still reaches the store, which finds the stream destroyed; `refused` tells a refusal from other errors.
    head.on('error', () => undefined);
    try {
      return await datastore.write(stream.pipe(head), id, offset);
    } catch (err) {
      if (!head.refused) throw err;
      await datastore.remove(id).catch(() => undefined);
      await uploadsRepository.delete(db, id);
      throw new AppError('FILE_CONTENT_MISMATCH', { format: upload.format.toUpperCase() });
    }
  };
  return new Proxy(datastore, {
    get(target, key) {
      if (key === 'write') return write;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Passes the bytes through, judging the first SNIFF_BYTES of them as they come; fails at the first 'no'. */
class HeadCheck extends Transform {
  refused = false;
  private head: Buffer[] = [];
  private seen = 0;
  private decided = false;

  constructor(
    private readonly format: FileFormat,
    private readonly size: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    if (this.decided) return done(null, chunk);
    this.head.push(chunk);
    this.seen += chunk.length;
    const bytes = Buffer.concat(this.head).subarray(0, SNIFF_BYTES);
    contentVerdict(this.format, bytes, this.size).then((verdict) => {
      if (verdict === 'no') {
        this.refused = true;
        return done(new Error('content does not match the format'));
      }
      if (verdict === 'yes' || this.seen >= SNIFF_BYTES) {
        this.decided = true;
        this.head = [];
      }
      done(null, chunk);
    }, done);
  }
}
