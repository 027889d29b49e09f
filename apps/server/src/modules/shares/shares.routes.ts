import { z } from 'zod';
import {
  CreateShareBody,
  EmptyEnvelope,
  OpenShareBody,
  ShareAccessLog,
  ShareAccessLogQuery,
  ShareCodeBody,
  ShareItem,
  ShareList,
  ShareMailBody,
  ShareSign,
  ShareTargetBody,
  ShareView,
  UnlockShareBody,
  envelope,
} from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { streamFile } from '../files/files.routes.js';
import { sendReportImage, sendReportPdf } from '../reports/reports.routes.js';
import { SHARE_VIEW_PERMISSIONS, type SharesService, type ShareFilePurpose } from './shares.service.js';
import { readerOf } from '../audit/access-log.js';

/**
 * Limits shared by every process (docs/product-decisions.md, "Share links"): password attempts 10 per share and
 * 20 per client address in 15 minutes; share openings 300 per address an hour; share mails 30 per user an hour.
 */
export const SHARE_LIMITS = {
  unlock: { perAddress: 20, perSubject: 10, windowSeconds: 900 },
  openPerAddress: { max: 300, windowSeconds: 3600 },
  mailPerUser: { max: 30, windowSeconds: 3600 },
  // Many users of one organization cannot together turn share mails into a relay.
  mailPerOrganization: { max: 200, windowSeconds: 3600 },
} as const;

/** Create and list need the right to see the resource named in the body: a case's, an order's or a report's. */
const viewPermission = ({ body }: FastifyRequest) => {
  const type = typeof body === 'object' && body !== null && 'resourceType' in body ? body.resourceType : undefined;
  // Own keys only: a type such as "constructor" must not find Object's prototype.
  return typeof type === 'string' && Object.hasOwn(SHARE_VIEW_PERMISSIONS, type)
    ? SHARE_VIEW_PERMISSIONS[type as keyof typeof SHARE_VIEW_PERMISSIONS]
    : SHARE_VIEW_PERMISSIONS.case;
};
const visitor = (request: FastifyRequest) => ({ address: request.ip, userAgent: request.headers['user-agent'] });

const FileParams = z.object({ code: z.string().min(1).max(64), fileCode: z.string().min(1).max(64) });
const LinkQuery = z.object({ exp: z.coerce.number().int(), sig: z.string().min(10).max(100) });
const FileQuery = LinkQuery.extend({ download: z.enum(['0', '1']).optional() });
const ReportImageParams = z.object({
  code: z.string().min(1).max(64),
  source: z.enum(['file', 'snapshot']),
  imageCode: z.string().min(1).max(64),
});
const ReportPdfParams = z.object({ code: z.string().min(1).max(64) });

export function sharesModule(p: Platform, shares: SharesService): Module {
  const fileRoute =
    (purpose: ShareFilePurpose) =>
    async (
      request: FastifyRequest<{ Params: z.infer<typeof FileParams>; Querystring: z.infer<typeof FileQuery> }>,
      reply: import('fastify').FastifyReply,
    ) => {
      const download = request.query.download === '1';
      // A download counts once, not once per range of a resumed transfer.
      const firstBytes = !request.headers.range || /^bytes=0-/.test(request.headers.range);
      const opened = await shares.openFile(
        request.params.code,
        request.params.fileCode,
        purpose,
        request.query,
        download && firstBytes ? 'file' : null,
        visitor(request),
      );
      return streamFile(shares, reply, opened, {
        rangeHeader: request.headers.range,
        download,
        viewer: purpose === 'viewer',
      });
    };

  return {
    publicRoutes(app) {
      app.post(
        '/share/open',
        {
          schema: {
            tags: ['shares'],
            summary:
              'Open a share link: what the sharer chose to show, or that a password is needed (2007 while a model is prepared)',
            body: OpenShareBody,
            response: { 200: envelope(ShareView) },
          },
          config: {
            rateLimit: { max: 60, timeWindow: '1 minute' },
            errors: ['LINK_EXPIRED', 'REPORT_LINK_EXPIRED', 'RESOURCE_PREPARING'],
          },
        },
        async (request) => {
          const { max, windowSeconds } = SHARE_LIMITS.openPerAddress;
          await p.rateLimits.hit('shareOpen:ip', request.ip, max, windowSeconds);
          return ok(request, await shares.open(request.body.code, request.body.sign, visitor(request)));
        },
      );

      app.post(
        '/share/unlock',
        {
          schema: {
            tags: ['shares'],
            summary: "Check a share's password; answers the share sign the browser keeps",
            body: UnlockShareBody,
            response: { 200: envelope(ShareSign) },
          },
          config: {
            rateLimit: { max: 20, timeWindow: '1 minute' },
            errors: ['LINK_EXPIRED', 'REPORT_LINK_EXPIRED', 'INVALID_PASSWORD'],
          },
        },
        async (request) => {
          await p.rateLimits.lookup('shareUnlock', request.ip, request.body.code, SHARE_LIMITS.unlock);
          return ok(request, await shares.unlock(request.body.code, request.body.password));
        },
      );

      app.get(
        '/share/file/:code/:fileCode',
        {
          schema: {
            tags: ['shares'],
            summary: "A shared file's original by a share's signed link (supports Range); refused once the share ends",
            params: FileParams,
            querystring: FileQuery,
          },
          config: {
            rateLimit: { max: 300, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED', 'NOT_FOUND', 'ORDER_SCANS_UNAVAILABLE'],
          },
        },
        fileRoute('download'),
      );

      app.get(
        '/share/viewer/:code/:fileCode',
        {
          schema: {
            tags: ['shares'],
            summary: "A shared model's compact viewer version by a share's signed link (2007 while it is prepared)",
            params: FileParams,
            querystring: FileQuery,
          },
          config: {
            rateLimit: { max: 300, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED', 'RESOURCE_PREPARING', 'NOT_FOUND', 'ORDER_SCANS_UNAVAILABLE'],
          },
        },
        fileRoute('viewer'),
      );

      app.get(
        '/share/report-image/:code/:source/:imageCode',
        {
          schema: {
            tags: ['shares'],
            summary: "A picture of a shared report's latest version by a share's signed link",
            params: ReportImageParams,
            querystring: LinkQuery,
            produces: ['image/png', 'image/jpeg'],
          },
          config: {
            rateLimit: { max: 300, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED', 'REPORT_LINK_EXPIRED', 'NOT_FOUND'],
          },
        },
        async (request, reply) => {
          const { code, source, imageCode } = request.params;
          const image = await shares.openReportImage(code, { source, code: imageCode }, request.query);
          return sendReportImage(reply, image, imageCode);
        },
      );

      app.get(
        '/share/report-pdf/:code',
        {
          schema: {
            tags: ['shares'],
            summary: "A shared report's latest version as a PDF by a share's signed link (logged in the access log)",
            params: ReportPdfParams,
            querystring: LinkQuery,
            produces: ['application/pdf'],
          },
          config: {
            rateLimit: { max: 30, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED', 'REPORT_LINK_EXPIRED'],
          },
        },
        async (request, reply) =>
          sendReportPdf(reply, await shares.openReportPdf(request.params.code, request.query, visitor(request))),
      );
    },

    privateRoutes(app) {
      const limit = { max: 60, timeWindow: '1 minute' };
      /** Calls about an existing share need the right to see what it shares (its type is read from the share). */
      const sharePermission = (request: FastifyRequest) =>
        shares.permissionFor(request.auth, (request.body as { shareCode: string }).shareCode);
      app.post(
        '/share/create',
        {
          schema: {
            tags: ['shares'],
            summary:
              'Share a case, an order or a published report by link: optional password, expiry, patient name shown or not',
            body: CreateShareBody,
            response: { 200: envelope(ShareItem) },
          },
          config: { permission: viewPermission, rateLimit: limit, errors: ['NOT_FOUND', 'REPORT_NOT_PUBLISHED'] },
        },
        async (request) => ok(request, await shares.create(request.auth, request.body, readerOf(request))),
      );

      app.post(
        '/share/list',
        {
          schema: {
            tags: ['shares'],
            summary: 'The shares of a case, an order or a report with status, expiry, remaining days and views',
            body: ShareTargetBody,
            response: { 200: envelope(ShareList) },
          },
          config: { permission: viewPermission, rateLimit: limit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await shares.list(request.auth, request.body.resourceType, request.body.resourceCode)),
      );

      app.post(
        '/share/accessLog',
        {
          schema: {
            tags: ['shares'],
            summary: "A share's access log: when, how, coarse user agent, hashed address",
            body: ShareAccessLogQuery,
            response: { 200: envelope(ShareAccessLog) },
          },
          config: { permission: sharePermission, rateLimit: limit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(
            request,
            await shares.visits(request.auth, request.body.shareCode, request.body.pageNum, request.body.pageSize),
          ),
      );

      app.post(
        '/share/revoke',
        {
          schema: {
            tags: ['shares'],
            summary: 'End a share at once (its maker or an administrator of the organization)',
            body: ShareCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: sharePermission, rateLimit: limit, errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await shares.revoke(request.auth, request.body.shareCode);
          return ok(request, null);
        },
      );

      app.post(
        '/share/sendMail',
        {
          schema: {
            tags: ['shares'],
            summary: "Email a share's link (never its password) in the recipient's language",
            body: ShareMailBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            permission: sharePermission,
            rateLimit: { max: 10, timeWindow: '1 minute' },
            errors: ['NOT_FOUND', 'LINK_EXPIRED', 'REPORT_LINK_EXPIRED', 'TOO_MANY_REQUESTS'],
          },
        },
        async (request) => {
          const { mailPerUser, mailPerOrganization } = SHARE_LIMITS;
          const { userId, organizationId } = request.auth;
          await p.rateLimits.hit('shareMail:user', String(userId), mailPerUser.max, mailPerUser.windowSeconds);
          await p.rateLimits.hit(
            'shareMail:org',
            String(organizationId),
            mailPerOrganization.max,
            mailPerOrganization.windowSeconds,
          );
          const { shareCode, email, name, language } = request.body;
          await shares.mail(request.auth, shareCode, { email, name, language }, request.timezone);
          return ok(request, null);
        },
      );
    },
  };
}
