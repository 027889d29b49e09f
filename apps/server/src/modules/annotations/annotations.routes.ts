import {
  AddAnnotationBody,
  Annotation,
  AnnotationCodeBody,
  AnnotationList,
  ANNOTATION_LIMITS,
  CaseCodeBody,
  EmptyEnvelope,
  MarginLine,
  MarginLineList,
  MarginLineToothBody,
  MARGIN_LINE_LIMITS,
  ORDER_ACTION_PERMISSION,
  OrderCodeBody,
  OrderPermission,
  OrgType,
  SaveMarginLineBody,
  envelope,
} from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { AnnotationsService } from './annotations.service.js';

/**
 * A margin line is drawn by either party of the order: the clinic with the right to send orders, the laboratory
 * with the right it marks its work with (order/toothStage's).
 */
const marginLinePermission = (request: FastifyRequest) =>
  request.auth.orgType === OrgType.Lab ? ORDER_ACTION_PERMISSION.ready : OrderPermission.Create;

export function annotationsModule(annotations: AnnotationsService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/case/annotation/list',
        {
          schema: {
            tags: ['annotations'],
            summary: "A case's annotations pinned to its models, oldest first (numbered 1, 2, …)",
            body: CaseCodeBody,
            response: { 200: envelope(AnnotationList) },
          },
          config: { permission: 'case:view', errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await annotations.listOfCase(request.auth.organizationId, request.body.caseCode)),
      );

      app.post(
        '/case/annotation/add',
        {
          schema: {
            tags: ['annotations'],
            summary: `Pin a note to a point of a model of the case (millimetres of its viewer version; at most ${ANNOTATION_LIMITS.perCase} per case)`,
            body: AddAnnotationBody,
            response: { 200: envelope(Annotation) },
          },
          config: { permission: 'case:edit', errors: ['NOT_FOUND', 'TOO_MANY_ANNOTATIONS'] },
        },
        async (request) => ok(request, await annotations.add(request.auth, request.body)),
      );

      app.post(
        '/case/annotation/delete',
        {
          schema: {
            tags: ['annotations'],
            summary: 'Remove an annotation of a case (the others keep their order and are numbered again)',
            body: AnnotationCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'case:edit', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await annotations.delete(request.auth.organizationId, request.body.annotationCode);
          return ok(request, null);
        },
      );

      app.post(
        '/order/annotation/list',
        {
          schema: {
            tags: ['annotations'],
            summary: "The annotations of an order's case, for either party (read-only)",
            body: OrderCodeBody,
            response: { 200: envelope(AnnotationList) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await annotations.listOfOrder(request.auth, request.body.orderCode)),
      );

      app.post(
        '/order/marginLine/list',
        {
          schema: {
            tags: ['annotations'],
            summary: "An order's margin lines, one per prepared tooth, by tooth",
            body: OrderCodeBody,
            response: { 200: envelope(MarginLineList) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await annotations.marginLines(request.auth, request.body.orderCode)),
      );

      app.post(
        '/order/marginLine/save',
        {
          schema: {
            tags: ['annotations'],
            summary: `Draw or replace the margin line of a prescribed tooth on a model of the order's case (a closed loop of ${MARGIN_LINE_LIMITS.minPoints}–${MARGIN_LINE_LIMITS.maxPoints} points), by either party while the order runs`,
            body: SaveMarginLineBody,
            response: { 200: envelope(MarginLine) },
          },
          config: { permission: marginLinePermission, errors: ['NOT_FOUND', 'ORDER_TRANSITION'] },
        },
        async (request) => ok(request, await annotations.saveMarginLine(request.auth, request.body)),
      );

      app.post(
        '/order/marginLine/delete',
        {
          schema: {
            tags: ['annotations'],
            summary: "Remove a tooth's margin line, by either party while the order runs",
            body: MarginLineToothBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: marginLinePermission, errors: ['NOT_FOUND', 'ORDER_TRANSITION'] },
        },
        async (request) => {
          await annotations.deleteMarginLine(request.auth, request.body.orderCode, request.body.tooth);
          return ok(request, null);
        },
      );
    },
  };
}
