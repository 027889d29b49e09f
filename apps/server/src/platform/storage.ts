import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataStore } from '@tus/server';
import { FileStore } from '@tus/file-store';

// @tus/file-store makes its folder with an asynchronous mkdir whose callback throws when it fails: an uncaught
// exception that takes the process down, e.g. when the folder is removed meanwhile. It is made synchronously here,
// so a failure is an ordinary error of the constructor.
(
  FileStore.prototype as unknown as { checkOrCreateDirectory(this: { directory: string }): void }
).checkOrCreateDirectory = function () {
  mkdirSync(this.directory, { recursive: true });
};

/**
 * Where files live. Keys are made by the server only (`uploads/<id>`, `viewer/<code>.mesh`,
 * `exports/<code>.zip`, `reports/<code>.png`), never from a client's file name, so nothing can escape the store.
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
  /** The keys under a folder that is listed whole (the erasure ledger), in name order. */
  list(folder: ListedFolder): Promise<string[]>;
  /** Every key the store holds, with its size (backups): in no particular order, one page at a time. */
  listAll(): AsyncIterable<{ key: string; size: number }>;
  /** A pre-signed URL for direct download, where the store offers one (S3); null for the local store. */
  presignedGet(key: string, fileName: string, ttlSeconds: number): Promise<string | null>;
}

/** The store's folders: every key is `<folder>/<name>`, one level deep. */
export const STORE_FOLDERS = [
  'uploads',
  'viewer',
  'exports',
  'attachments',
  'organizations',
  'reports',
  'erasures',
] as const;
const KEY = new RegExp(`^(${STORE_FOLDERS.join('|')})/[A-Za-z0-9._-]{1,200}$`);
/** Whether a key is one the store may hold (a name the server made, in one of its folders). */
export const isStoreKey = (key: string) => KEY.test(key) && !key.includes('..');
/** Folders read by listing: small, and never holding what a client names. */
export type ListedFolder = 'erasures';
export function checkKey(key: string) {
  if (!isStoreKey(key)) throw new Error(`invalid storage key: ${key}`);
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
    try {
      await pipeline(body, createWriteStream(tmp));
    } catch (err) {
      // A body that failed half-way (a client cut short, a refused first chunk) leaves nothing behind.
      await rm(tmp, { force: true });
      throw err;
    }
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
  async list(folder: ListedFolder) {
    const names = await readdir(join(this.root, folder)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    return names
      .filter((n) => !n.endsWith('.part'))
      .sort()
      .map((n) => `${folder}/${n}`);
  }
  async *listAll() {
    for (const folder of STORE_FOLDERS) {
      const entries = await readdir(join(this.root, folder), { withFileTypes: true }).catch(
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return [];
          throw err;
        },
      );
      for (const entry of entries) {
        const key = `${folder}/${entry.name}`;
        // A `.part` is a write still running (or one a stopped process left): not a file yet.
        if (!entry.isFile() || entry.name.endsWith('.part') || !isStoreKey(key)) continue;
        const size = await this.size(key);
        if (size !== null) yield { key, size };
      }
    }
  }
  async presignedGet() {
    return null;
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
