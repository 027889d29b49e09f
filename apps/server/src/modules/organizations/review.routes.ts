import {
  EmptyEnvelope,
  Permission,
  PendingLabsQuery,
  PendingLabsResult,
  ReviewLabBody,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { ReviewService } from './review.service.js';

export function reviewModule(p: Platform, review = new ReviewService(p.db, p.mailer, p.config)): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/company/listReview',
        {
          schema: {
            tags: ['organizations'],
            summary: 'Laboratory registrations by review status (super administrator)',
            body: PendingLabsQuery,
            response: { 200: envelope(PendingLabsResult) },
          },
          config: { permission: Permission.OrganizationView },
        },
        async (request) =>
          ok(request, await review.list(request.body.reviewStatus, request.body.pageNum, request.body.pageSize)),
      );

      app.post(
        '/company/review',
        {
          schema: {
            tags: ['organizations'],
            summary: 'Approve or reject a laboratory registration (needs the password within 15 minutes)',
            body: ReviewLabBody,
            response: { 200: EmptyEnvelope },
          },
          config: {
            permission: Permission.OrganizationReview,
            sensitive: true,
            errors: ['NOT_FOUND', 'ALREADY_REVIEWED'],
          },
        },
        async (request) => {
          await review.decide(
            request.auth.userId,
            request.body.organizationCode,
            request.body.approve,
            request.body.reason,
          );
          return ok(request, null);
        },
      );
    },
  };
}
