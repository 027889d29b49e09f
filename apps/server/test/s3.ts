import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Server } from '../../../scripts/s3-server.mjs';

/** An S3-compatible server on loopback, with one bucket, for the storage suite. */
export async function startS3() {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const s3 = await startS3Server({ directory, bucket: 'portal-test' });
  return {
    env: s3.env,
    /** Multipart uploads begun and neither completed nor aborted. */
    async pendingMultipartUploads() {
      const dir = s3.server.context.store.getResourcePath('portal-test', undefined, 'uploads');
      return (await readdir(dir).catch(() => [])).length;
    },
    async stop() {
      await s3.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
