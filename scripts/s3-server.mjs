// An S3-compatible server on loopback (s3rver) with one bucket: for `npm run cluster` and the tests.
import { mkdirSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * s3rver lacks ListParts and AbortMultipartUpload, which resumable multipart uploads use; this adds both over its own
 * part files so the portal runs against a real protocol peer.
 */
function multipartExtras(server) {
  return async (ctx, next) => {
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (
      !m ||
      !('uploadId' in ctx.query) ||
      'partNumber' in ctx.query ||
      (ctx.method !== 'GET' && ctx.method !== 'DELETE')
    )
      return next();
    const [, bucket, key] = m;
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

/**
 * Starts s3rver on 127.0.0.1 keeping its objects in `directory`; answers the portal's environment for it (`STORAGE=s3`
 * and the S3_* variables), the server itself, and `stop`.
 */
export async function startS3Server({ directory, bucket = 'portal', port = 0 }) {
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  server.middleware.unshift(multipartExtras(server));
  const { port: bound } = await server.run();
  return {
    server,
    env: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${bound}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: () => server.close(),
  };
}
