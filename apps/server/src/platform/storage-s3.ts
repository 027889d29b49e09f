import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DataStore } from '@tus/server';
import { S3Store } from '@tus/s3-store';
import { checkKey, isStoreKey, STORE_FOLDERS, type BlobStore, type ListedFolder } from './storage.js';

/** Any S3-compatible store. Its own module, so the SDK is loaded only by a server configured for it. */
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
    await new Upload({
      client: this.client,
      params: { Bucket: this.opts.bucket, Key: this.objectKey(key), Body: body },
    }).done();
    return size;
  }
  async read(key: string, range?: { start: number; end: number }) {
    const res = await this.client.send(
      new GetObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
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
    // The tus S3 store keeps the upload's metadata in a companion object, and an unfinished upload's last bytes
    // short of a part in another.
    if (key.startsWith('uploads/'))
      for (const companion of [`${objectKey}.info`, `${objectKey}.part`])
        await this.client
          .send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: companion }))
          .catch(() => undefined);
  }
  async list(folder: ListedFolder) {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix: `${folder}/`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
  async *listAll() {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.opts.bucket, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        // Uploads live at the bucket's top level (the tus S3 store's naming), everything else in its folder.
        const folder = o.Key.split('/')[0] as (typeof STORE_FOLDERS)[number];
        const key = o.Key.includes('/') ? o.Key : `uploads/${o.Key}`;
        if ((!o.Key.includes('/') || STORE_FOLDERS.includes(folder)) && isStoreKey(key))
          yield { key, size: o.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
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
