import { z } from 'zod';
import {
  CreateReportBody,
  EmptyEnvelope,
  REPORT_LIMITS,
  ReportCodeBody,
  ReportDetail,
  ReportImageBody,
  ReportList,
  ReportListBody,
  ReportPdfBody,
  ReportSnapshot,
  ReportSnapshotBody,
  ReportSummary,
  ReportView,
  ReportViewBody,
  SaveReportBody,
  SNAPSHOT_VIEWS,
  envelope,
  type SnapshotView,
} from '@portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import { multipartParts, type MultipartLimits } from '../../platform/multipart.js';
import type { Module } from '../../platform/services.js';
import type { ReportsService } from './reports.service.js';
import { readerOf } from '../audit/access-log.js';

const SNAPSHOT_PARTS: MultipartLimits = {
  fields: ['reportCode', 'view'],
  fileField: 'file',
  maxFiles: 1,
  maxFileBytes: REPORT_LIMITS.snapshotBytes,
};

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** Sends a report's picture: never rendered as a page of its own (sandboxed), kept a few minutes by the browser. */
export function sendReportImage(
  reply: FastifyReply,
  image: Awaited<ReturnType<ReportsService['image']>>,
  name: string,
) {
  return reply
    .header('content-type', MIME[image.format] ?? 'application/octet-stream')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${name}.${image.format}`)}`)
    .header('cache-control', 'private, max-age=300')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(image.stream);
}

/** Sends a report's PDF as a download under its file name. */
export function sendReportPdf(reply: FastifyReply, { pdf, fileName }: { pdf: Uint8Array | Buffer; fileName: string }) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(pdf);
}

const author = (request: FastifyRequest) => ({
  userId: request.auth.userId,
  displayName: request.auth.user.display_name,
  toothNumberingSystem: request.auth.user.tooth_numbering_system,
  language: request.auth.user.language,
  timeZone: request.timezone,
});

export function reportsModule(reports: ReportsService): Module {
  const view = { permission: 'report:view' };
  const edit = { permission: 'report:edit' };
  return {
    privateRoutes(app) {
      app.post(
        '/report/list',
        {
          schema: {
            tags: ['reports'],
            summary: "A case's oral health reports, newest first",
            body: ReportListBody,
            response: { 200: envelope(ReportList) },
          },
          config: { ...view, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await reports.list(request.auth.organizationId, request.body.caseCode)),
      );

      app.post(
        '/report/create',
        {
          schema: {
            tags: ['reports'],
            summary: "A new report draft for a case (in the author's language and tooth numbering)",
            body: CreateReportBody,
            response: { 200: envelope(ReportDetail) },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(
            request,
            await reports.create(
              request.auth.organizationId,
              author(request),
              request.body.caseCode,
              request.body.title,
            ),
          ),
      );

      app.post(
        '/report/detail',
        {
          schema: {
            tags: ['reports'],
            summary: 'A report with its draft, snapshots and published versions',
            body: ReportCodeBody,
            response: { 200: envelope(ReportDetail) },
          },
          config: { ...view, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await reports.detail(readerOf(request), request.body.reportCode)),
      );

      app.post(
        '/report/save',
        {
          schema: {
            tags: ['reports'],
            summary:
              "Save a report's draft (scans and pictures of its case, its own snapshots; text kept as plain text)",
            body: SaveReportBody,
            response: { 200: envelope(ReportSummary) },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await reports.save(request.auth.organizationId, request.body.reportCode, request.body.content)),
      );

      app.post(
        '/report/publish',
        {
          schema: {
            tags: ['reports'],
            summary: 'Publish the draft as the next version (needs a summary; an unchanged draft makes no new version)',
            body: ReportCodeBody,
            response: { 200: envelope(ReportDetail) },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await reports.publish(request.auth.organizationId, author(request), request.body.reportCode)),
      );

      app.post(
        '/report/delete',
        {
          schema: {
            tags: ['reports'],
            summary: 'Delete a report with its versions and snapshots (frees their storage)',
            body: ReportCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await reports.delete(request.auth.organizationId, request.body.reportCode);
          return ok(request, null);
        },
      );

      app.post(
        '/report/snapshot',
        {
          schema: {
            tags: ['reports'],
            summary: `Store a 3D snapshot (multipart: fields "reportCode" and "view" (${SNAPSHOT_VIEWS.join(', ')}) first, then one PNG "file" of at most ${REPORT_LIMITS.snapshotBytes / 1024 / 1024} MB, checked by content)`,
            response: { 200: envelope(ReportSnapshot) },
          },
          config: {
            ...edit,
            multipart: SNAPSHOT_PARTS,
            errors: ['NOT_FOUND', 'FILE_TOO_LARGE', 'FILE_CONTENT_MISMATCH', 'TOO_MANY_FILES', 'INSUFFICIENT_STORAGE'],
          },
        },
        async (request) => {
          const fields: Record<string, string> = {};
          let saved: z.infer<typeof ReportSnapshot> | undefined;
          for await (const part of multipartParts(request)) {
            if (part.type === 'field') {
              fields[part.name] = part.value;
              continue;
            }
            if (!fields.reportCode) fail('PARAM_INVALID', { field: 'reportCode' }, { field: 'reportCode' });
            if (!(SNAPSHOT_VIEWS as readonly string[]).includes(fields.view ?? ''))
              fail('PARAM_INVALID', { field: 'view' }, { field: 'view' });
            saved = await reports.addSnapshot(
              request.auth.organizationId,
              fields.reportCode,
              fields.view as SnapshotView,
              part.file,
            );
          }
          if (!saved) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
          return ok(request, saved);
        },
      );

      app.post(
        '/report/snapshot/delete',
        {
          schema: {
            tags: ['reports'],
            summary: 'Delete a snapshot of a report (one a published version shows is only taken off the draft)',
            body: ReportSnapshotBody,
            response: { 200: EmptyEnvelope },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await reports.deleteSnapshot(request.auth.organizationId, request.body.reportCode, request.body.snapshotCode);
          return ok(request, null);
        },
      );

      app.post(
        '/report/view',
        {
          schema: {
            tags: ['reports'],
            summary: "The report as the patient sees it (the draft or a version), its labels in the report's language",
            body: ReportViewBody,
            response: { 200: envelope(ReportView) },
          },
          config: { ...view, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await reports.view(readerOf(request), request.body.reportCode, request.body.version)),
      );

      app.post(
        '/report/image',
        {
          schema: {
            tags: ['reports'],
            summary: "A picture of a report: one of its case's pictures (jpg, png) or one of its snapshots",
            body: ReportImageBody,
            produces: ['image/png', 'image/jpeg'],
          },
          config: { ...view, errors: ['NOT_FOUND'] },
        },
        async (request, reply) => {
          const image = await reports.image(request.auth.organizationId, request.body.reportCode, request.body);
          return sendReportImage(reply, image, request.body.code);
        },
      );

      app.post(
        '/report/pdf',
        {
          schema: {
            tags: ['reports'],
            summary: 'The report as a PDF (the draft or a version): fonts embedded for every language, A4 or Letter',
            body: ReportPdfBody,
            produces: ['application/pdf'],
          },
          config: { ...view, errors: ['NOT_FOUND'] },
        },
        async (request, reply) => {
          const made = await reports.pdf(
            readerOf(request),
            request.body.reportCode,
            request.body.version,
            request.timezone,
          );
          return sendReportPdf(reply, made);
        },
      );
    },
  };
}
