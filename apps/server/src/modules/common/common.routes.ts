import { randomBytes } from 'node:crypto';
import { AppConfig, CaptchaInit, CaptchaParams, MonitorResult, ProbeResult, envelope } from '@portal/contracts';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { AuthService } from '../auth/auth.service.js';
import { commonRepository } from './common.repository.js';

const VERSION = '0.1.0';
// The package's default export draws given text; its typings only declare the named helpers.
/** The captcha library, loaded with the first captcha (not needed to start the portal). */
const captchaLibrary = async () => {
  const svgCaptcha = (await import('svg-captcha')).default;
  return {
    create: svgCaptcha.create,
    draw: svgCaptcha as unknown as (text: string, options: Record<string, unknown>) => string,
  };
};
const stripSlash = (s: string) => s.replace(/\/+$/, '');

/** The application config of spec §3 for this site. */
export function appConfig(p: Platform): AppConfig {
  const base = stripSlash(p.config.publicUrl);
  return {
    agreement: {
      privacy: `${base}/legal/privacy.html`,
      cookie: `${base}/legal/cookie.html`,
      terms: `${base}/legal/terms.html`,
    },
    appmanager: 'portal',
    appName: p.config.appName,
    pageTagName: p.config.appName,
    apiEndpoint: stripSlash(`${base}/api/v2`),
    wsEndpoint: stripSlash(`${base.replace(/^http/, 'ws')}/ws`),
    isInternationalSite: p.config.region !== 'us',
    region: p.config.region,
    copyright: `© ${new Date().getUTCFullYear()} ${p.config.appName}`,
    themeCfgJson: { defaultTheme: 'light' },
    supportUrl: p.config.supportUrl,
    registerShowVersion: true,
    demoMode: p.config.seedDemo,
  };
}

/** Load balancers poll health often; the database probe is reused for a second so polling stays cheap. */
const PROBE_REUSE_MS = 1000;

export function commonModule(p: Platform): Module {
  let lastGoodProbe = 0;
  const probeDatabase = async () => {
    if (Date.now() - lastGoodProbe < PROBE_REUSE_MS) return;
    // A database failure answers 503 through the error catalogue.
    await commonRepository.ping(p.db).catch(() => fail('SERVICE_UNAVAILABLE'));
    lastGoodProbe = Date.now();
  };
  return {
    publicRoutes(app) {
      app.get(
        '/common/monitor',
        {
          schema: {
            tags: ['common'],
            summary: 'Health, including the database',
            response: { 200: envelope(MonitorResult) },
          },
          config: { errors: ['SERVICE_UNAVAILABLE'] },
        },
        async (request) => {
          await probeDatabase();
          const failingTasks = p.housekeeping.failingTasks();
          return ok(request, {
            status: failingTasks.length ? ('degraded' as const) : ('ok' as const),
            database: 'ok' as const,
            failingTasks,
            uptimeSeconds: Math.round((Date.now() - p.startedAt) / 1000),
            version: VERSION,
          });
        },
      );

      // For balancers and orchestrators (docs/operations.md, "Health checks"); the browser never calls them. A process
      // that is stopping answers 503 to anything new (Fastify's return503OnClosing), so it stops being ready first.
      app.get(
        '/common/ready',
        {
          schema: {
            tags: ['common'],
            summary: 'Readiness: the database answers (503 otherwise, and while the process stops)',
            response: { 200: envelope(ProbeResult) },
          },
          config: { errors: ['SERVICE_UNAVAILABLE'] },
        },
        async (request) => {
          await probeDatabase();
          return ok(request, { status: 'ok' as const });
        },
      );
      app.get(
        '/common/live',
        {
          schema: {
            tags: ['common'],
            summary: 'Liveness: the process answers (the database is not asked: restarting would not mend it)',
            response: { 200: envelope(ProbeResult) },
          },
        },
        async (request) => ok(request, { status: 'ok' as const }),
      );

      app.post(
        '/app_config/get',
        {
          schema: {
            tags: ['common'],
            summary: 'The application config of this site',
            response: { 200: envelope(AppConfig) },
          },
        },
        async (request) => ok(request, appConfig(p)),
      );

      app.get(
        '/common/captcha/init',
        {
          schema: {
            tags: ['common'],
            summary: 'Start a captcha; the image is at common/captcha/draw/{captchaId}',
            response: { 200: envelope(CaptchaInit) },
          },
          config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
        },
        async (request) => {
          const captchaId = randomBytes(16).toString('hex');
          const { text } = (await captchaLibrary()).create({ size: 4, ignoreChars: '0oO1ilI' });
          await AuthService.createCaptcha(p.db, captchaId, text);
          return ok(request, { captchaId });
        },
      );

      app.get(
        '/common/captcha/draw/:id',
        {
          schema: {
            tags: ['common'],
            summary: 'The captcha image (SVG)',
            params: CaptchaParams,
            produces: ['image/svg+xml'],
          },
          config: { errors: ['INVALID_LINK'] },
        },
        async (request, reply) => {
          const answer = await AuthService.captchaAnswer(p.db, request.params.id);
          if (!answer) fail('INVALID_LINK');
          const svg = (await captchaLibrary()).draw(answer, { noise: 3, color: true, width: 120, height: 40 });
          return reply.header('content-type', 'image/svg+xml').header('cache-control', 'no-store').send(svg);
        },
      );
    },
  };
}
