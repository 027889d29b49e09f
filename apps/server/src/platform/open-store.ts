import { LocalStore, type BlobStore } from './storage.js';
import type { S3Options } from './storage-s3.js';

export type StoreConfig = { kind: 'local'; root: string } | ({ kind: 's3' } & S3Options);

/** The configured file store. The S3 SDK is loaded only when the store is S3. */
export async function openStore(storage: StoreConfig): Promise<BlobStore> {
  return storage.kind === 's3'
    ? new (await import('./storage-s3.js')).S3BlobStore(storage)
    : new LocalStore(storage.root);
}
