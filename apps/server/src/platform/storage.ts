import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DataStore } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';

/**
 * Where files live. Keys are made by the server only (`uploads/<id>`, `viewer/<code>.mesh`,
 * `exports/<code>.zip`), never from a client's file name, so nothing can escape the store.
 */
export interface BlobStore {
  kind: 'local' | 's3';
  /** The tus datastore that receives resumable uploads under `uploads/`. */
  readonly uploads: DataStore;
  uploadKey(uploadId: string): string;
  write(key: string, body: Readable): Promise<number>;
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** A pre-signed URL for direct download, where the store offers one (S3); null for the local store. */
  presignedGet(key: string, fileName: string, ttlSeconds: number): Promise<string | null>;
}

const KEY = /^(uploads|viewer|exports|attachments)\/[A-Za-z0-9._-]{1,200}$/;
function checkKey(key: string) {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
}

export class LocalStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly uploads: DataStore;
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
    this.uploads = new FileStore({ directory: join(this.root, 'uploads') });
  }
  uploadKey(uploadId: string) {
    return `uploads/${uploadId}`;
  }
  private path(key: string) {
    checkKey(key);
    return join(this.root, key);
  }
  async write(key: string, body: Readable) {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.part`;
    await pipeline(body, createWriteStream(tmp));
    const { rename } = await import('node:fs/promises');
    await rename(tmp, path);
    return (await stat(path)).size;
  }
  async read(key: string, range?: { start: number; end: number }) {
    return createReadStream(this.path(key), range);
  }
  async size(key: string) {
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return null;
    }
  }
  async delete(key: string) {
    const path = this.path(key);
    await rm(path, { force: true });
    // The tus file store keeps the upload's metadata beside it.
    if (key.startsWith('uploads/')) await rm(`${path}.json`, { force: true });
  }
  async presignedGet() {
    return null;
  }
}

export interface S3Options {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly uploads: DataStore;
  private readonly client: S3Client;
  constructor(private readonly opts: S3Options) {
    const clientConfig = {
      endpoint: opts.endpoint,
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      // Checksums only where S3 requires them: many S3-compatible stores do not decode the
      // aws-chunked trailers the SDK would otherwise add to every upload.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    this.client = new S3Client(clientConfig);
    this.uploads = new S3Store({ partSize: 8 * 1024 * 1024, s3ClientConfig: { ...clientConfig, bucket: opts.bucket } });
  }
  uploadKey(uploadId: string) {
    // The tus S3 store names objects by the upload id alone.
    return `uploads/${uploadId}`;
  }
  private objectKey(key: string) {
    checkKey(key);
    return key.startsWith('uploads/') ? key.slice('uploads/'.length) : key;
  }
  async write(key: string, body: Readable) {
    let size = 0;
    body.on('data', (c: Buffer) => (size += c.length));
    await new Upload({ client: this.client, params: { Bucket: this.opts.bucket, Key: this.objectKey(key), Body: body } }).done();
    return size;
  }
  async read(key: string, range?: { start: number; end: number }) {
    const res = await this.client.send(
      new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    return res.Body as Readable;
  }
  async size(key: string) {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key) }));
      return res.ContentLength ?? null;
    } catch {
      return null;
    }
  }
  async delete(key: string) {
    const objectKey = this.objectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: objectKey }));
    // The tus S3 store keeps the upload's metadata in a companion object.
    if (key.startsWith('uploads/')) await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: `${objectKey}.info` })).catch(() => undefined);
  }
  async presignedGet(key: string, fileName: string, ttlSeconds: number) {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.objectKey(key),
        ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      }),
      { expiresIn: ttlSeconds },
    );
  }
}

export async function readAll(stream: Readable, limit = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total >= limit) break;
  }
  stream.destroy();
  return Buffer.concat(chunks);
}
export { Readable };
