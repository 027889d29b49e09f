import { z } from 'zod';
import { DownloadGrant, EmptyEnvelope, FileCodeBody, StorageUsage, envelope } from '@portal/contracts';
import type { FastifyReply } from 'fastify';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { FilesService } from './files.service.js';
import { TUS_PATH, type UploadsService } from './uploads.service.js';
import type { UploadGrants } from './upload-grants.js';
import { readerOf } from '../audit/access-log.js';

const LinkQuery = z.object({
  exp: z.coerce.number().int(),
  sig: z.string().min(10).max(100),
  download: z.enum(['0', '1']).optional(),
});
const LinkParams = z.object({ fileCode: z.string().min(1).max(64) });

const INLINE = new Set(['jpg', 'jpeg', 'png', 'gif', 'mp4', 'mp3', 'webm', 'pdf']);
const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  webm: 'audio/webm',
  pdf: 'application/pdf',
};

function parseRange(header: string | undefined, size: number) {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header) : null;
  if (!m || (!m[1] && !m[2])) return null;
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return start <= end && start < size ? { start, end } : 'invalid';
}

/** Sends a stored file (or its viewer version) with Range support; shared by the file links and share links. */
export async function streamFile(
  files: Pick<FilesService, 'read'>,
  reply: FastifyReply,
  opened: Awaited<ReturnType<FilesService['openByLink']>>,
  opts: { rangeHeader?: string; download: boolean; viewer: boolean },
) {
  const { file, key, size } = opened;
  const range = parseRange(opts.rangeHeader, size);
  if (range === 'invalid') return reply.status(416).header('content-range', `bytes */${size}`).send();
  // SVG can carry scripts: it is only ever a download. Others open inline unless a download is asked for.
  const inline = !opts.viewer && !opts.download && INLINE.has(file.format);
  reply
    .header(
      'content-type',
      opts.viewer ? 'application/octet-stream' : (MIME[file.format] ?? 'application/octet-stream'),
    )
    .header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(opts.viewer ? `${file.code}.mesh` : file.name)}`,
    )
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=300')
    .header('content-security-policy', "default-src 'none'; sandbox");
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(await files.read(key, range));
  }
  reply.header('content-length', size);
  return reply.send(await files.read(key));
}

export function filesModule(files: FilesService, uploads: UploadsService, grants: UploadGrants): Module {
  return {
    publicRoutes(app) {
      // tus owns these requests end to end; the body is streamed to the store, never parsed.
      const tus = (request: { raw: import('node:http').IncomingMessage }, reply: FastifyReply) => {
        reply.hijack();
        void uploads.handle(request.raw, reply.raw);
      };
      const route = TUS_PATH.replace('/api/v2', '');
      // Any content type (or none) reaches tus, so a wrong one is refused the tus way, with its headers.
      void app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
        scope.all(route, { schema: { hide: true } }, tus);
        scope.all(`${route}/*`, { schema: { hide: true } }, tus);
      });

      app.get(
        '/file/download/:fileCode',
        {
          schema: {
            tags: ['files'],
            summary: 'The original file, by a signed link from file/downloadGrant (supports Range)',
            params: LinkParams,
            querystring: LinkQuery,
          },
          config: { errors: ['INVALID_LINK', 'LINK_EXPIRED'] },
        },
        async (request, reply) => {
          const opened = await files.openByLink(
            'download',
            request.params.fileCode,
            request.query.exp,
            request.query.sig,
          );
          return streamFile(files, reply, opened, {
            rangeHeader: request.headers.range,
            download: request.query.download === '1',
            viewer: false,
          });
        },
      );

      app.get(
        '/file/viewer/:fileCode',
        {
          schema: {
            tags: ['files'],
            summary: 'The compact viewer version of a model (2007 while it is prepared)',
            params: LinkParams,
            querystring: LinkQuery,
          },
          config: { errors: ['INVALID_LINK', 'LINK_EXPIRED', 'RESOURCE_PREPARING', 'NOT_FOUND'] },
        },
        async (request, reply) => {
          const opened = await files.openByLink(
            'viewer',
            request.params.fileCode,
            request.query.exp,
            request.query.sig,
          );
          return streamFile(files, reply, opened, {
            rangeHeader: request.headers.range,
            download: false,
            viewer: true,
          });
        },
      );
    },
    privateRoutes(app) {
      app.post(
        '/file/downloadGrant',
        {
          schema: {
            tags: ['files'],
            summary: 'Short-lived links to download a file and load its viewer version',
            body: FileCodeBody,
            response: { 200: envelope(DownloadGrant) },
          },
          config: { permission: 'case:view', errors: ['NOT_FOUND', 'ORDER_SCANS_UNAVAILABLE'] },
        },
        async (request) => ok(request, await files.grant(readerOf(request), request.body.fileCode)),
      );

      app.get(
        '/oss/ossSts',
        {
          schema: {
            tags: ['files'],
            summary: 'Temporary upload credentials: a token for the tus endpoint, good for one case for 15 minutes',
            querystring: z.object({ caseCode: z.string().min(1).max(64) }),
            response: { 200: envelope(z.object({ endpoint: z.string(), token: z.string(), expiresAt: z.string() })) },
          },
          config: { permission: 'case:edit', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await files.assertCase(request.auth.organizationId, request.query.caseCode);
          const grant = grants.issue(
            {
              organizationId: request.auth.organizationId,
              userId: request.auth.userId,
              userCode: request.auth.userCode,
              sessionId: request.auth.sessionId,
              caseCode: request.query.caseCode,
            },
            15 * 60,
          );
          return ok(request, { endpoint: `${files.publicUrl}${TUS_PATH}`, ...grant });
        },
      );

      app.get(
        '/oss/blobToken',
        {
          schema: {
            tags: ['files'],
            summary: 'The blob store token: short-lived links to one file (same as file/downloadGrant)',
            querystring: FileCodeBody,
            response: { 200: envelope(DownloadGrant) },
          },
          config: { permission: 'case:view', errors: ['NOT_FOUND', 'ORDER_SCANS_UNAVAILABLE'] },
        },
        async (request) => ok(request, await files.grant(readerOf(request), request.query.fileCode)),
      );

      app.post(
        '/file/delete',
        {
          schema: {
            tags: ['files'],
            summary: 'Delete a file of a case (frees storage)',
            body: FileCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'case:edit', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await files.delete(request.auth.organizationId, request.body.fileCode);
          return ok(request, null);
        },
      );

      app.post(
        '/storage/usage',
        {
          schema: {
            tags: ['files'],
            summary: "The organization's storage: use, quota, by kind, largest cases and files",
            response: { 200: envelope(StorageUsage) },
          },
          config: { permission: 'case:view' },
        },
        async (request) => ok(request, await files.usage(request.auth.organizationId)),
      );
    },
  };
}
