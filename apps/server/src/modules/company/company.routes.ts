import {
  AreaList,
  AreaQuery,
  COMPANY_IMAGE_MAX_BYTES,
  COMPANY_IMAGE_TARGETS,
  ClosedAccount,
  CloseAccountBody,
  CompanyImageQuery,
  CompanyInfo,
  EditCompanyBody,
  EditScanRetentionBody,
  SCAN_RETENTION_DAYS,
  EmptyEnvelope,
  Permission,
  OrganizationDetailQuery,
  OrganizationImageQuery,
  RestoreOrganizationBody,
  envelope,
  type CompanyImageTarget,
} from '@portal/contracts';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import { multipartParts, type MultipartLimits } from '../../platform/multipart.js';
import type { Module } from '../../platform/services.js';
import type { CompanyService } from './company.service.js';

const IMAGE_PARTS: MultipartLimits = {
  fields: ['target'],
  fileField: 'file',
  maxFiles: 1,
  maxFileBytes: COMPANY_IMAGE_MAX_BYTES,
};
const IMAGE_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Own space → Organization: the organization's information, images and address, and closing the account. */
export function companyModule(company: CompanyService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/company/companyInfo',
        {
          schema: {
            tags: ['organizations'],
            summary: "The caller's organization: names, licence, representative, address",
            response: { 200: envelope(CompanyInfo) },
          },
          config: { permission: Permission.OwnSpaceView },
        },
        async (request) => ok(request, await company.info(request.auth.organizationId)),
      );

      app.post(
        '/company/editCompany',
        {
          schema: {
            tags: ['organizations'],
            summary: "Edit the caller's organization; the address is a path down the areas of its region",
            body: EditCompanyBody,
            response: { 200: envelope(CompanyInfo) },
          },
          config: { permission: Permission.CompanyEdit },
        },
        async (request) => ok(request, await company.edit(request.auth.organizationId, request.body)),
      );

      app.post(
        '/company/editScanRetention',
        {
          schema: {
            tags: ['organizations'],
            summary: `A clinic sets how many days after an order's completion its laboratory may still download the patient's scans (${SCAN_RETENTION_DAYS.min}–${SCAN_RETENTION_DAYS.max}, ${SCAN_RETENTION_DAYS.default} by default)`,
            body: EditScanRetentionBody,
            response: { 200: envelope(CompanyInfo) },
          },
          config: { permission: Permission.CompanyEdit },
        },
        async (request) =>
          ok(request, await company.editScanRetention(request.auth.organizationId, request.auth.orgType, request.body)),
      );

      app.post(
        '/company/uploadImage',
        {
          schema: {
            tags: ['organizations'],
            summary: `Store the logo (target "organization") or the business licence image (target "license"): multipart, field "target" first, then one "file" part, a PNG, JPEG, GIF or WebP image by its content, at most ${COMPANY_IMAGE_MAX_BYTES / 1024 / 1024} MB`,
            response: { 200: envelope(CompanyInfo) },
          },
          config: {
            permission: Permission.CompanyEdit,
            multipart: IMAGE_PARTS,
            errors: ['FILE_TOO_LARGE', 'FILE_CONTENT_MISMATCH'],
          },
        },
        async (request) => {
          let target: CompanyImageTarget | undefined;
          let saved: Awaited<ReturnType<CompanyService['saveImage']>> | undefined;
          for await (const part of multipartParts(request)) {
            if (part.type === 'field') {
              if (!(COMPANY_IMAGE_TARGETS as readonly string[]).includes(part.value))
                fail('PARAM_INVALID', { field: 'target' }, { field: 'target' });
              target = part.value as CompanyImageTarget;
            } else if (!target) {
              part.file.resume();
              fail('PARAM_INVALID', { field: 'target' }, { field: 'target' });
            } else saved = await company.saveImage(request.auth.organizationId, target, part.file);
          }
          if (!target) fail('PARAM_INVALID', { field: 'target' }, { field: 'target' });
          if (!saved) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
          return ok(request, saved);
        },
      );

      const sendImage = (reply: FastifyReply, target: CompanyImageTarget, image: { key: string; stream: Readable }) => {
        const ext = image.key.slice(image.key.lastIndexOf('.') + 1);
        return reply
          .header('content-type', IMAGE_MIME[ext] ?? 'application/octet-stream')
          .header('content-disposition', `attachment; filename="${target}.${ext}"`)
          .header('cache-control', 'private, no-store')
          .send(image.stream);
      };

      app.post(
        '/company/image',
        {
          schema: {
            tags: ['organizations'],
            summary: "The caller's organization's logo or licence image (the bytes, as an attachment)",
            body: CompanyImageQuery,
            produces: Object.values(IMAGE_MIME),
          },
          config: { permission: Permission.OwnSpaceView, errors: ['NOT_FOUND'] },
        },
        async (request, reply) =>
          sendImage(reply, request.body.target, await company.image(request.auth.organizationId, request.body.target)),
      );

      app.post(
        '/company/detail',
        {
          schema: {
            tags: ['organizations'],
            summary: "Any organization's information: names, licence, representative, address (super administrator)",
            body: OrganizationDetailQuery,
            response: { 200: envelope(CompanyInfo) },
          },
          config: { permission: Permission.OrganizationView, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await company.infoByCode(request.body.organizationCode)),
      );

      app.post(
        '/company/detailImage',
        {
          schema: {
            tags: ['organizations'],
            summary: "Any organization's logo or licence image, as an attachment (super administrator)",
            body: OrganizationImageQuery,
            produces: Object.values(IMAGE_MIME),
          },
          config: { permission: Permission.OrganizationView, errors: ['NOT_FOUND'] },
        },
        async (request, reply) =>
          sendImage(
            reply,
            request.body.target,
            await company.imageByCode(request.body.organizationCode, request.body.target),
          ),
      );

      app.post(
        '/area/listAreaByParentId',
        {
          schema: {
            tags: ['organizations'],
            summary:
              "Areas under a parent (a country's states, provinces, regions or nations; a state's cities or counties); without one, the countries of the caller's regional site",
            body: AreaQuery,
            response: { 200: envelope(AreaList) },
          },
          config: { permission: Permission.OwnSpaceView },
        },
        async (request) => ok(request, await company.areas(request.auth.organizationId, request.body.parentId)),
      );

      app.post(
        '/company/close_account',
        {
          schema: {
            tags: ['organizations'],
            summary:
              "Close the caller's organization (its administrator; the name typed again; refused while orders are open, which the answer lists): users are signed out, partnerships end, data is kept for the retention period, then purged",
            body: CloseAccountBody,
            response: { 200: envelope(ClosedAccount) },
          },
          config: {
            permission: Permission.CompanyClose,
            sensitive: true,
            errors: ['NO_PERMISSION', 'CONFIRMATION_MISMATCH', 'ORGANIZATION_HAS_OPEN_ORDERS', 'CANNOT_CHANGE_SELF'],
          },
        },
        async (request) => ok(request, await company.close(request.auth, request.body.confirmName)),
      );

      app.post(
        '/company/restore',
        {
          schema: {
            tags: ['organizations'],
            summary: 'Reopen a closed organization within its retention period (super administrator)',
            body: RestoreOrganizationBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            permission: Permission.OrganizationRestore,
            sensitive: true,
            errors: ['NOT_FOUND', 'RETENTION_OVER'],
          },
        },
        async (request) => {
          await company.restore(request.body.organizationCode);
          return ok(request, null);
        },
      );
    },
  };
}
