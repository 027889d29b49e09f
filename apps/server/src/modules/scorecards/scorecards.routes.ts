import { Scorecard, ScorecardBody, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { ScorecardsService } from './scorecards.service.js';

export function scorecardsModule(scorecards: ScorecardsService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/scorecard/lab',
        {
          schema: {
            tags: ['orders'],
            summary:
              "A laboratory's scorecard (on-time rate, remakes by reason, median turnaround over 30/90/365 days, weekly trend): its own, or for a clinic the laboratory of one of its partnerships",
            body: ScorecardBody,
            response: { 200: envelope(Scorecard) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await scorecards.get(request.auth, request.body.partnerCode)),
      );
    },
  };
}
