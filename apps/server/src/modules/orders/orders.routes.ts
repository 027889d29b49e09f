import { z } from 'zod';
import {
  AttachmentLink,
  CreateOrderBody,
  EmptyEnvelope,
  OrderActionBody,
  OrderActionResult,
  OrderAttachment,
  OrderAttachmentBody,
  OrderCodeBody,
  OrderDetail,
  OrderExportBody,
  OrderListQuery,
  OrderLabsResult,
  OrderListResult,
  OrderPartiesResult,
  RemakeOrderBody,
  RequiredFieldsQuery,
  RequiredFieldsResult,
  SaveRequiredFieldsBody,
  ToothStageBody,
  ORDER_ACTION_PERMISSION,
  OrderPermission,
  dateInTimeZone,
  envelope,
} from '@portal/contracts';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import { multipartParts, type MultipartLimits } from '../../platform/multipart.js';
import { t } from '../../platform/i18n.js';
import type { Module } from '../../platform/services.js';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_REQUEST } from './order-attachments.js';
import { ORDER_EXPORT_MAX_ROWS, ordersCsv, ordersXlsx } from './order-export.js';
import type { OrdersService } from './orders.service.js';
import { readerOf } from '../audit/access-log.js';

const ATTACHMENT_PARTS: MultipartLimits = {
  fields: ['orderCode'],
  fileField: 'file',
  maxFiles: ATTACHMENTS_PER_REQUEST,
  maxFileBytes: ATTACHMENT_MAX_BYTES,
};

const LinkQuery = z.object({ exp: z.coerce.number().int(), sig: z.string().min(10).max(100) });
const LinkParams = z.object({ attachmentCode: z.string().min(1).max(64) });
const INLINE = new Set(['jpg', 'jpeg', 'png', 'gif', 'mp4', 'mp3', 'pdf']);
const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  pdf: 'application/pdf',
};

export function ordersModule(orders: OrdersService): Module {
  return {
    publicRoutes(app) {
      app.get(
        '/order/attachment/:attachmentCode',
        {
          schema: {
            tags: ['orders'],
            summary: 'An order attachment, by a signed link from order/attachmentLink',
            params: LinkParams,
            querystring: LinkQuery,
          },
          config: { errors: ['INVALID_LINK', 'LINK_EXPIRED'] },
        },
        async (request, reply) => {
          const file = await orders.attachments.openByLink(
            request.params.attachmentCode,
            request.query.exp,
            request.query.sig,
          );
          return reply
            .header('content-type', MIME[file.format] ?? 'application/octet-stream')
            .header(
              'content-disposition',
              `${INLINE.has(file.format) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
            )
            .header('content-length', file.size)
            .header('cache-control', 'private, max-age=300')
            .header('content-security-policy', "default-src 'none'; sandbox")
            .send(file.stream);
        },
      );
    },
    privateRoutes(app) {
      app.post(
        '/order/create',
        {
          schema: {
            tags: ['orders'],
            summary: 'Send one or many cases to a partner laboratory: one order per case, all or none',
            body: CreateOrderBody,
            response: { 200: envelope(z.object({ list: z.array(OrderDetail) })) },
          },
          config: {
            permission: OrderPermission.Create,
            errors: [
              'NOT_FOUND',
              'PARAM_INVALID',
              'PARTNER_NOT_ACCEPTED',
              'ORDER_FIELDS_REQUIRED',
              'DEVICE_LIMIT_DESIGNATED',
              'DEVICE_LIMIT_CERTIFIED',
            ],
          },
        },
        async (request) => ok(request, await orders.create(request.auth, request.body)),
      );

      app.post(
        '/order/remake',
        {
          schema: {
            tags: ['orders'],
            summary:
              'Ask for a remake of a shipped or completed order (reason, note): a new pending order at the same laboratory, linked to the original',
            body: RemakeOrderBody,
            response: { 200: envelope(OrderDetail) },
          },
          config: {
            permission: OrderPermission.Create,
            errors: ['NOT_FOUND', 'ORDER_REMAKE_NOT_ALLOWED', 'ORDER_REMAKE_EXISTS', 'PARTNER_NOT_ACCEPTED'],
          },
        },
        async (request) => ok(request, await orders.remake(request.auth, request.body)),
      );

      app.post(
        '/order/action',
        {
          schema: {
            tags: ['orders'],
            summary:
              'accept, startProcessing, ready, ship (tracking number), reject (reason), cancel, complete: one or many orders, each answering for itself',
            body: OrderActionBody,
            response: { 200: envelope(OrderActionResult) },
          },
          // One button (permission) per action: a role may ship without accepting, or the other way round.
          config: {
            permission: (request) => ORDER_ACTION_PERMISSION[(request.body as OrderActionBody).action],
          },
        },
        async (request) => ok(request, await orders.act(request.auth, request.body)),
      );

      app.post(
        '/order/list',
        {
          schema: {
            tags: ['orders'],
            summary: "The side's orders: paging, status, type, partner, date range",
            body: OrderListQuery,
            response: { 200: envelope(OrderListResult) },
          },
          config: { permission: 'order:view' },
        },
        async (request) =>
          ok(
            request,
            await orders.list(request.auth, { ...request.body, timezone: request.timezone }, readerOf(request)),
          ),
      );

      app.post(
        '/order/parties',
        {
          schema: {
            tags: ['orders'],
            summary: "The other side of the caller's orders, one per partnership (the list's partner filter)",
            response: { 200: envelope(OrderPartiesResult) },
          },
          config: { permission: 'order:view' },
        },
        async (request) => ok(request, await orders.parties(request.auth)),
      );

      app.post(
        '/order/labs',
        {
          schema: {
            tags: ['orders'],
            summary: 'The laboratories the clinic can send orders to now (its accepted partnerships), by name',
            response: { 200: envelope(OrderLabsResult) },
          },
          config: { permission: OrderPermission.Create },
        },
        async (request) => ok(request, await orders.labs(request.auth)),
      );

      app.post(
        '/order/detail',
        {
          schema: {
            tags: ['orders'],
            summary: "An order with its tooth items, the case's files, attachments and the timeline both sides see",
            body: OrderCodeBody,
            response: { 200: envelope(OrderDetail) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await orders.detail(request.auth, request.body.orderCode, readerOf(request))),
      );

      app.post(
        '/order/export',
        {
          schema: {
            tags: ['orders'],
            summary: `The filtered list as xlsx or csv (at most ${ORDER_EXPORT_MAX_ROWS} rows, newest first)`,
            body: OrderExportBody,
            produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
          },
          config: { permission: OrderPermission.Export },
        },
        async (request, reply) => {
          // The reader's language, and their timezone: the filter's days, the dates in the file and its name.
          const reader = { lang: request.auth.user.language, timeZone: request.timezone };
          const rows = await orders.exportRows(
            request.auth,
            { ...request.body, timezone: reader.timeZone },
            ORDER_EXPORT_MAX_ROWS,
          );
          const xlsx = request.body.format === 'xlsx';
          const body = xlsx ? await ordersXlsx(rows, reader) : ordersCsv(rows, reader);
          const today = dateInTimeZone(new Date(), reader.timeZone);
          const name = `${t(reader.lang, 'export:fileName')}-${today}.${request.body.format}`;
          return reply
            .header(
              'content-type',
              xlsx ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8',
            )
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
            .send(body);
        },
      );

      app.post(
        '/order/save_attachments',
        {
          schema: {
            tags: ['orders'],
            summary: `Attach files to an order (multipart: field "orderCode" first, then up to ${ATTACHMENTS_PER_REQUEST} "file" parts of at most ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB, checked by content; all or none)`,
            response: { 200: envelope(z.object({ list: z.array(OrderAttachment) })) },
          },
          config: {
            permission: 'order:view',
            multipart: ATTACHMENT_PARTS,
            errors: [
              'NOT_FOUND',
              'FILE_FORMAT_NOT_ACCEPTED',
              'FILE_TOO_LARGE',
              'FILE_CONTENT_MISMATCH',
              'TOO_MANY_FILES',
              'INSUFFICIENT_STORAGE',
            ],
          },
        },
        async (request) => {
          // The order must be named before its files, so nothing is stored for an order the caller cannot see;
          // the files are kept only when every one of them passes.
          const batch = orders.attachments.batch(request.auth.organizationId, request.auth.userId);
          try {
            let orderId: number | undefined;
            for await (const part of multipartParts(request)) {
              if (part.type === 'field')
                orderId = Number((await orders.findForCaller(request.auth, part.value)).order.id);
              else if (orderId === undefined) fail('PARAM_INVALID', { field: 'orderCode' }, { field: 'orderCode' });
              else await batch.stage(part.filename, part.file);
            }
            if (orderId === undefined) fail('PARAM_INVALID', { field: 'orderCode' }, { field: 'orderCode' });
            if (batch.count === 0) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
            return ok(request, { list: await batch.commit(orderId) });
          } catch (err) {
            await batch.discard();
            throw err;
          }
        },
      );

      app.post(
        '/order/attachmentLink',
        {
          schema: {
            tags: ['orders'],
            summary: 'A short-lived link to download an order attachment',
            body: OrderAttachmentBody,
            response: { 200: envelope(AttachmentLink) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(
            request,
            await orders.attachments.link({ orgId: request.auth.organizationId }, request.body.attachmentCode),
          ),
      );

      app.post(
        '/order/requiredFields',
        {
          schema: {
            tags: ['orders'],
            summary: "A laboratory's required prescription fields per work type (a clinic names the partnership)",
            body: RequiredFieldsQuery,
            response: { 200: envelope(RequiredFieldsResult) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await orders.requiredFields(request.auth, request.body.partnerCode)),
      );

      app.post(
        '/order/saveRequiredFields',
        {
          schema: {
            tags: ['orders'],
            summary: 'A laboratory replaces its required prescription fields',
            body: SaveRequiredFieldsBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: OrderPermission.Settings },
        },
        async (request) => {
          await orders.saveRequiredFields(request.auth, request.body.rules);
          return ok(request, null);
        },
      );

      app.post(
        '/order/toothStage',
        {
          schema: {
            tags: ['orders'],
            summary:
              'The laboratory marks where its work on some teeth of an order in production stands (design, milling, finishing, done)',
            body: ToothStageBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: ORDER_ACTION_PERMISSION.ready, errors: ['NOT_FOUND', 'ORDER_TRANSITION'] },
        },
        async (request) => {
          await orders.setToothStage(request.auth, request.body);
          return ok(request, null);
        },
      );
    },
  };
}
