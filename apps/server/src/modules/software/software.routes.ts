import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  ImprovementPlanState,
  Permission,
  SaveUpdateLogBody,
  SPEED_TEST_MAX_BYTES,
  SpeedDownloadQuery,
  SpeedUploadResult,
  UpdateLogAdminPage,
  UpdateLogDetail,
  UpdateLogEntry,
  UpdateLogIdBody,
  UpdateLogIdsBody,
  UpdateLogListQuery,
  UpdateLogMark,
  UpdateLogPage,
  UsageAccepted,
  UsageEventsBody,
  UsageWeekly,
  UsageWeeklyQuery,
  envelope,
} from '@portal/contracts';
import { invalidField } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { SoftwareService } from './software.service.js';

/** Random bytes repeated to make a download of any size without drawing fresh randomness for each request. */
const SPEED_BLOCK = randomBytes(1024 * 1024);
/** Per client address, shared by every process: a speed test is a few requests, not a way to load the server. */
const SPEED_LIMIT = { max: 40, windowSeconds: 600 } as const;

/** Update log (spec §7 Software), improvement programme and the system check's speed test. */
export function softwareModule(p: Platform, software = new SoftwareService(p.db)): Module {
  return {
    publicRoutes(app) {
      app.post(
        '/software/get_update_log',
        {
          schema: {
            tags: ['software'],
            summary: "The update log, newest first, in the reader's language (English where an entry has none)",
            body: UpdateLogListQuery,
            response: { 200: envelope(UpdateLogPage) },
          },
        },
        async (request) => ok(request, await software.list(request.lang, request.body.pageNum, request.body.pageSize)),
      );

      app.post(
        '/software/get_update_log_detail',
        {
          schema: {
            tags: ['software'],
            summary: "One update log entry as sanitized HTML, in the reader's language or English (the /whatsnew page)",
            body: UpdateLogIdBody,
            response: { 200: envelope(UpdateLogEntry) },
          },
          config: { errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await software.entry(request.body.id, request.lang)),
      );

      app.get(
        '/common/speed_test/download',
        {
          schema: {
            tags: ['common'],
            summary: 'The system check: this many random bytes, to time the download from this server',
            querystring: SpeedDownloadQuery,
            produces: ['application/octet-stream'],
          },
          config: { rateLimit: { max: 30, timeWindow: '1 minute' }, errors: ['TOO_MANY_REQUESTS'] },
        },
        async (request, reply) => {
          await p.rateLimits.hit('speedTest', request.ip, SPEED_LIMIT.max, SPEED_LIMIT.windowSeconds);
          const { bytes } = request.query;
          const body = Buffer.allocUnsafe(bytes);
          for (let at = 0; at < bytes; at += SPEED_BLOCK.length) SPEED_BLOCK.copy(body, at, 0, bytes - at);
          return reply
            .header('content-type', 'application/octet-stream')
            .header('cache-control', 'no-store')
            .header('content-length', bytes)
            .send(body);
        },
      );

      // The upload's body is raw bytes, up to the speed test's largest size, in a scope of its own.
      void app.register(async (scope) => {
        scope.addContentTypeParser(
          'application/octet-stream',
          { parseAs: 'buffer', bodyLimit: SPEED_TEST_MAX_BYTES },
          (_request, body, done) => done(null, body),
        );
        scope.post(
          '/common/speed_test/upload',
          {
            bodyLimit: SPEED_TEST_MAX_BYTES,
            schema: {
              tags: ['common'],
              summary: 'The system check: receives up to 8 MiB of application/octet-stream, to time the upload',
              consumes: ['application/octet-stream'],
              response: { 200: envelope(SpeedUploadResult) },
            },
            config: {
              rateLimit: { max: 30, timeWindow: '1 minute' },
              errors: ['TOO_MANY_REQUESTS', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
            },
          },
          async (request, reply) => {
            await p.rateLimits.hit('speedTest', request.ip, SPEED_LIMIT.max, SPEED_LIMIT.windowSeconds);
            const body = request.body;
            if (!Buffer.isBuffer(body) || body.length === 0) invalidField('body', 'paramRequired');
            return ok(request, { bytes: body.length, serverMs: Math.round(reply.elapsedTime) });
          },
        );
      });
    },

    privateRoutes(app) {
      app.post(
        '/software/update_log_mark',
        {
          schema: {
            tags: ['software'],
            summary: "The newest update log entry and whether the signed-in user has opened it (the 'what's new' mark)",
            response: { 200: envelope(UpdateLogMark) },
          },
          config: { everyMember: "the update log's reading marks are the reader's own" },
        },
        async (request) => ok(request, await software.mark(request.auth.userId)),
      );

      app.post(
        '/software/update_log_read',
        {
          schema: {
            tags: ['software'],
            summary: 'The signed-in user has opened this entry: the mark clears when it is the newest',
            body: UpdateLogIdBody,
            response: { 200: envelope(UpdateLogMark) },
          },
          config: { everyMember: 'every member reads the update log', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await software.read(request.auth.userId, request.body.id)),
      );

      app.post(
        '/software/update_log/listByPage',
        {
          schema: {
            tags: ['software'],
            summary: 'Every update log entry with the languages it is written in (super administrator)',
            body: UpdateLogListQuery,
            response: { 200: envelope(UpdateLogAdminPage) },
          },
          config: { permission: Permission.SoftwareManage },
        },
        async (request) => ok(request, await software.adminList(request.body.pageNum, request.body.pageSize)),
      );

      app.post(
        '/software/update_log/detail',
        {
          schema: {
            tags: ['software'],
            summary: "An update log entry with every language's Markdown and HTML, for editing",
            body: UpdateLogIdBody,
            response: { 200: envelope(UpdateLogDetail) },
          },
          config: { permission: Permission.SoftwareManage, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await software.detail(request.body.id)),
      );

      app.post(
        '/software/update_log/save_or_update',
        {
          schema: {
            tags: ['software'],
            summary: 'Write an update log entry: version, date and Markdown per language (English required)',
            body: SaveUpdateLogBody,
            response: { 200: envelope(UpdateLogDetail) },
          },
          config: { permission: Permission.SoftwareManage, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await software.save(request.body)),
      );

      app.post(
        '/software/update_log/delByIds',
        {
          schema: {
            tags: ['software'],
            summary: 'Delete update log entries',
            body: UpdateLogIdsBody,
            response: { 200: envelope(z.object({ count: z.number() })) },
          },
          config: { permission: Permission.SoftwareManage },
        },
        async (request) => ok(request, { count: await software.delete(request.body.ids) }),
      );

      for (const [path, participating, summary] of [
        [
          '/user/participateImprovementPlan',
          true,
          'Join the improvement programme: the browser sends anonymous usage counts',
        ],
        ['/user/cancelParticipateImprovementPlan', false, 'Leave the improvement programme: nothing more is sent'],
      ] as const) {
        app.post(
          path,
          {
            schema: { tags: ['users'], summary, response: { 200: envelope(ImprovementPlanState) } },
            config: { everyMember: "the improvement programme is each user's own choice" },
          },
          async (request) => ok(request, await software.setImprovementPlan(request.auth.userId, participating)),
        );
      }

      app.post(
        '/usage/events',
        {
          schema: {
            tags: ['software'],
            summary: 'A batch of anonymous usage events (screen opened, action used, load time); participants only',
            body: UsageEventsBody,
            response: { 200: envelope(UsageAccepted) },
          },
          config: {
            everyMember: "the improvement programme is each user's own choice (it refuses users who have not joined)",
            rateLimit: { max: 30, timeWindow: '1 minute' },
            errors: ['IMPROVEMENT_PLAN_NOT_JOINED', 'TOO_MANY_REQUESTS'],
          },
        },
        async (request) =>
          ok(request, {
            accepted: await software.recordUsage(request.auth.user.improvement_plan, request.body.events),
          }),
      );

      app.post(
        '/usage/weekly',
        {
          schema: {
            tags: ['software'],
            summary: 'Usage counts per screen and week: screen opens, actions and average load time',
            body: UsageWeeklyQuery,
            response: { 200: envelope(UsageWeekly) },
          },
          config: { permission: Permission.SoftwareManage },
        },
        async (request) => ok(request, await software.weekly(request.body.weeks, request.body.screen)),
      );
    },
  };
}
