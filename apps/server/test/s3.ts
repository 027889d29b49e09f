import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error the package ships no type declarations
import S3rver from 's3rver';

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  body: unknown;
  type: string;
}

/**
 * s3rver lacks ListParts and AbortMultipartUpload, which resumable multipart uploads use;
 * this adds both over its own part files so the suite runs against a real protocol peer.
 */
function multipartExtras(server: {
  context: { store: { getResourcePath(b: string, k: undefined, r: string): string } };
}) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (
      !m ||
      !('uploadId' in ctx.query) ||
      'partNumber' in ctx.query ||
      (ctx.method !== 'GET' && ctx.method !== 'DELETE')
    )
      return next();
    const [, bucket, key] = m as unknown as [string, string, string];
    const dir = join(server.context.store.getResourcePath(bucket, undefined, 'uploads'), ctx.query.uploadId);
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const names = (await readdir(dir).catch(() => []))
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      names.map(async (n) => {
        const [info, md5] = await Promise.all([stat(join(dir, String(n))), readFile(join(dir, `${n}.md5`), 'utf8')]);
        return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${info.size}</Size><LastModified>${info.mtime.toISOString()}</LastModified></Part>`;
      }),
    );
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${decodeURIComponent(key)}</Key><UploadId>${ctx.query.uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}

/** An S3-compatible server on loopback, with one bucket, for the storage suite. */
export async function startS3() {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'portal-test', configs: [] }],
  });
  server.middleware.unshift(multipartExtras(server));
  const { port } = (await server.run()) as { port: number };
  return {
    env: {
      STORAGE: 's3',
      S3_BUCKET: 'portal-test',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    /** Multipart uploads begun and neither completed nor aborted. */
    async pendingMultipartUploads() {
      const dir = server.context.store.getResourcePath('portal-test', undefined, 'uploads');
      return (await readdir(dir).catch(() => [])).length;
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
