import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, SHARE_PAGES } from '@portal/contracts';
import { loggerOptions, registerRequestLines } from './platform/logging.js';
import type { Config } from './config.js';
import type { Db, Queryable } from './platform/db.js';
import { registerApiDocs } from './platform/api-docs.js';
import {
  authenticateSession,
  authenticateToken,
  Permissions,
  registerAuthentication,
  roleHasPermission,
  TokenService,
} from './platform/auth.js';
import { fail } from './platform/errors.js';
import { Jobs } from './platform/jobs.js';
import { Housekeeping } from './platform/housekeeping.js';
import { BlobDeletions } from './platform/blob-deletions.js';
import { RateLimits } from './platform/rate-limits.js';
import { openStore } from './platform/open-store.js';
import {
  answerFrameworkError,
  PATH_PARAM_MAX,
  readInfoToken,
  registerErrorHandling,
  registerRequestContext,
  withSafeText,
} from './platform/http.js';
import { Mailer } from './platform/mail.js';
import { OutboxSmsSender, SmppDelivery } from './platform/sms.js';
import { SessionCache } from './platform/session-cache.js';
import { bearerMatches, newId } from './platform/crypto.js';
import type { Metrics } from './platform/metrics.js';
import { WEB_DIST_DIR } from './platform/paths.js';
import type { App, Module, Platform } from './platform/services.js';
import { agreementsModule } from './modules/agreements/agreements.routes.js';
import { authModule } from './modules/auth/auth.routes.js';
import { commonModule } from './modules/common/common.routes.js';
import { mailModule } from './modules/mail/mail.routes.js';
import { DemoMailbox } from './modules/mail/demo-mailbox.js';
import { AppCallLog } from './modules/apps/app-calls.js';
import { menusModule } from './modules/menus/menus.routes.js';
import { reviewModule } from './modules/organizations/review.routes.js';
import { organizationsAdminModule } from './modules/organizations/organizations-admin.routes.js';
import { CompanyService } from './modules/company/company.service.js';
import { companyModule } from './modules/company/company.routes.js';
import { OrganizationsAdminService } from './modules/organizations/organizations-admin.service.js';
import { recoveryModule } from './modules/recovery/recovery.routes.js';
import { registrationModule } from './modules/registration/registration.routes.js';
import { accountModule } from './modules/users/account.routes.js';
import { AccountService } from './modules/users/account.service.js';
import { contactsModule } from './modules/contacts/contacts.routes.js';
import { ContactsService } from './modules/contacts/contacts.service.js';
import { usersModule } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { verifyCurrentPassword } from './modules/auth/password-check.js';
import { usersAdminModule } from './modules/users/users-admin.routes.js';
import { UsersAdminService } from './modules/users/users-admin.service.js';
import { rolesModule } from './modules/roles/roles.routes.js';
import { RolesService } from './modules/roles/roles.service.js';
import { casesModule } from './modules/cases/cases.routes.js';
import { CasesService } from './modules/cases/cases.service.js';
import { dentistsModule } from './modules/dentists/dentists.routes.js';
import { filesModule } from './modules/files/files.routes.js';
import { FilesService } from './modules/files/files.service.js';
import { MeshPreparer } from './modules/files/mesh-preparer.js';
import { UploadGrants } from './modules/files/upload-grants.js';
import { UploadsService } from './modules/files/uploads.service.js';
import { exportsModule } from './modules/exports/exports.routes.js';
import { devicesModule } from './modules/devices/devices.routes.js';
import { partnersModule } from './modules/partners/partners.routes.js';
import { PartnersService } from './modules/partners/partners.service.js';
import { ordersModule } from './modules/orders/orders.routes.js';
import { OrdersService } from './modules/orders/orders.service.js';
import { catalogueModule } from './modules/catalogue/catalogue.routes.js';
import { CatalogueService } from './modules/catalogue/catalogue.service.js';
import { OrderNotifier } from './modules/orders/order-notifier.js';
import { OrderAttachments } from './modules/orders/order-attachments.js';
import { messagesModule } from './modules/messages/messages.routes.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { dashboardModule } from './modules/dashboard/dashboard.routes.js';
import { softwareModule } from './modules/software/software.routes.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { scorecardsModule } from './modules/scorecards/scorecards.routes.js';
import { ScorecardsService } from './modules/scorecards/scorecards.service.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { reportsModule } from './modules/reports/reports.routes.js';
import { ReportsService } from './modules/reports/reports.service.js';
import { ReportPdfRenderer } from './modules/reports/pdf-renderer.js';
import { ExportsService } from './modules/exports/exports.service.js';
import { sharesModule } from './modules/shares/shares.routes.js';
import { SharesService } from './modules/shares/shares.service.js';
import { annotationsModule } from './modules/annotations/annotations.routes.js';
import { EventStream } from './modules/events/events.service.js';
import { LiveHub } from './modules/live/live-hub.js';
import { registerLive } from './modules/live/live.routes.js';
import { AnnotationsService } from './modules/annotations/annotations.service.js';
import { chatModule } from './modules/chat/chat.routes.js';
import { ChatService } from './modules/chat/chat.service.js';
import { ChatNotices } from './modules/chat/chat-notices.js';
import { webhooksModule } from './modules/webhooks/webhooks.routes.js';
import { WebhooksService } from './modules/webhooks/webhooks.service.js';
import { appsModule } from './modules/apps/apps.routes.js';
import { AppsService } from './modules/apps/apps.service.js';
import { OpenIdProvider } from './modules/apps/openid-provider.js';
import { AccessLog } from './modules/audit/access-log.js';
import { AuditService } from './modules/audit/audit.service.js';
import { auditModule } from './modules/audit/audit.routes.js';
import { erasureModule } from './modules/erasure/erasure.routes.js';
import { ErasureService } from './modules/erasure/erasure.service.js';
import { deleteOldIdempotencyKeys, registerIdempotency } from './platform/idempotency.js';

export interface BuildOptions {
  config: Config;
  db: Db;
  /** Serve the built web app when it exists (off in API tests). */
  serveWeb?: boolean;
  /** Where the built web app is (the build's output unless given). */
  webDir?: string;
  logger?: boolean;
}

const API_BODY_LIMIT = 256 * 1024;
const validate = withSafeText(validatorCompiler);
const serialize = () => (data: unknown) => JSON.stringify(data);
/** Fastify types these factories for JSON-schema compilers; they return the same compilers as set below. */
const ZOD_COMPILERS = { buildValidator: () => validate, buildSerializer: () => serialize } as unknown as NonNullable<
  FastifyServerOptions['schemaController']
>['compilersFactory'];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Builds the server: external plugins → platform → modules, in that order. */
export async function buildApp(opts: BuildOptions): Promise<App & { platform: Platform; housekeeping: Housekeeping }> {
  const { config } = opts;
  const sessions = new SessionCache({ ttlMs: config.sessionCacheSeconds * 1000, maxEntries: 50_000 });
  const db = sessions.observeWrites(opts.db);
  const app = Fastify({
    ...(opts.logger === false ? { logger: false } : loggerOptions(config)),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => newId(),
    // Path parameters longer than any the routes take still reach their schema, which names the field.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: PATH_PARAM_MAX },
    frameworkErrors: answerFrameworkError,
    // Requests are validated by their zod schemas. Response schemas document the API and type the handlers at
    // compile time; re-validating every answer at run time would cost more than the rest of a typical request.
    // Given as factories, Fastify never loads its own JSON-schema compilers (Ajv and fast-json-stringify: a
    // quarter of the start-up).
    schemaController: { compilersFactory: ZOD_COMPILERS },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validate);
  app.setSerializerCompiler(serialize);

  registerSecurityHeaders(app);

  // Metrics (docs/operations.md, "Metrics"): loaded and hooked in only when configured, first so every route is timed.
  const liveRef: { hub?: LiveHub } = {}; // made below
  const metrics = config.metrics
    ? new (await import('./platform/metrics.js')).Metrics({
        db,
        liveCounts: () => liveRef.hub?.counts ?? { open: 0, members: 0 },
        log: app.log,
      })
    : undefined;
  if (metrics) {
    metrics.instrument(app);
    app.addHook('onClose', () => metrics.close());
  }
  app.decorate('metrics', metrics);

  // External plugins.
  await app.register(formbody, { bodyLimit: API_BODY_LIMIT });
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 10 } });
  await app.register(rateLimit, { global: false });
  await registerApiDocs(app, `${config.appName} API`);

  // Platform.
  registerRequestContext(app);
  registerRequestLines(app, config);
  registerErrorHandling(app);
  const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds);
  const mailer = new Mailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom, appName: config.appName }, app.log);
  await sessions.start(db);
  const store = await openStore(config.storage);
  const jobs = new Jobs(db, app.log, { leaseMs: config.jobLeaseSeconds * 1000 });
  const blobDeletions = new BlobDeletions(db, store);
  const demoMailbox = new DemoMailbox(config);
  const rateLimits = new RateLimits(db);
  const housekeeping = new Housekeeping(db, app.log);
  const platform: Platform = {
    config,
    db,
    mailer,
    tokens,
    sessions,
    store,
    blobDeletions,
    jobs,
    demoMailbox,
    rateLimits,
    housekeeping,
    startedAt: Date.now(),
  };
  app.decorate('platform', platform);
  app.addHook('onClose', async () => {
    await jobs.stop();
    mailer.close();
    await sessions.stop();
  });

  // Live updates: this process's end of the event stream and its sockets.
  const events = new EventStream(db, app.log);
  await events.start();
  const hub = new LiveHub({ db, tokens, sessions }, events, app.log, config.live);
  liveRef.hub = hub;
  await hub.start();
  app.addHook('onClose', async () => {
    await hub.stop();
    await events.stop();
  });
  app.decorate('live', hub);

  // Modules.
  // The patient-data access log: services that hand out patient data write it before the answer leaves.
  const accessLog = new AccessLog(db);
  const filesService = new FilesService(db, store, config, blobDeletions, accessLog);
  const devices = new DevicesService(db);
  const uploadGrants = new UploadGrants(config.jwtSecret);
  const meshes = new MeshPreparer(db, store, app.log);
  jobs.handle('prepareModel', (p) => meshes.prepare(Number(p.fileId)));
  app.addHook('onClose', () => meshes.stop());
  const uploads = new UploadsService(
    db,
    store,
    config,
    async (authorization, info) => {
      const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : readInfoToken(info);
      if (token?.startsWith('dvc_')) {
        const device = await devices.authenticate(token);
        return { organizationId: device.organizationId, userId: null, deviceId: device.deviceId };
      }
      // An upload grant stands for the session that asked for it: it is refused once that session ends.
      const grant = token?.startsWith('upl_') ? uploadGrants.verify(token) : undefined;
      const auth = grant
        ? await authenticateSession({ db, sessions }, grant.sessionId, grant.userCode)
        : (await authenticateToken({ db, tokens, sessions }, token)).auth;
      if (grant && (auth.userId !== grant.userId || auth.organizationId !== grant.organizationId))
        fail('TOKEN_INVALID');
      if (auth.forceChangePassword || !(await roleHasPermission({ db, sessions }, auth.roleId, 'case:edit')))
        fail('NO_PERMISSION');
      return { organizationId: auth.organizationId, userId: auth.userId, deviceId: null, onlyCase: grant?.caseCode };
    },
    { queue: (tx, fileId) => jobs.enqueue('prepareModel', { fileId }, tx), wakeUp: () => jobs.wakeUp() },
    blobDeletions,
    metrics && ((bytes) => metrics.uploadReceived(bytes)),
  );
  const caseFiles = {
    byCase: (q: Queryable, caseId: number) => FilesService.byCase(q, caseId),
    deleteOfCase: (tx: Queryable, caseId: number) => FilesService.deleteOfCase(tx, caseId),
  };
  const cases = new CasesService(db, blobDeletions, caseFiles, accessLog, app.log);
  // Text messages wait in the outbox; with an SMPP centre configured they are delivered through it.
  const smsSender = new OutboxSmsSender(config.smpp !== undefined);
  const smsDelivery = config.smpp ? new SmppDelivery(db, config.smpp, app.log) : undefined;
  const notifier = new OrderNotifier(db, mailer, config.publicUrl, app.log, smsSender);
  const attachments = new OrderAttachments(
    db,
    store,
    filesService.links,
    config.publicUrl,
    config.fileLinkTtlSeconds,
    config.uploads.defaultQuotaBytes,
  );
  const catalogue = new CatalogueService(db);
  const orders = new OrdersService(db, notifier, attachments, catalogue, accessLog);
  // Upkeep, run once per site whatever the number of processes (main.ts starts it); each run is recorded and a failing
  // task is reported.
  housekeeping.add('recycleBinPurge', HOUR, async () => {
    const result = await cases.purge({ before: new Date(Date.now() - config.recycleBinDays * 86_400_000) });
    if (result.failed) throw new Error(`${result.failed} expired cases could not be purged (${result.purged} were)`);
    return result;
  });
  const erasure = new ErasureService(db, store, blobDeletions, app.log);
  // A database restored from a backup older than an erasure gets it again (main.ts also runs it before listening).
  housekeeping.add('erasureReplay', HOUR, () => erasure.replay());
  housekeeping.add('abandonedUploads', HOUR, async () => ({ discarded: await uploads.discardAbandoned() }));
  housekeeping.add('blobDeletions', HOUR, async () => ({ deleted: await blobDeletions.sweep() }));
  housekeeping.add('mailRetry', MINUTE, async () => ({ retried: await mailer.retryFailed() }));
  const chatNotices = new ChatNotices(db, smsSender, config.chatNoticeQuietMinutes, config.appName);
  housekeeping.add('chatNotices', MINUTE, () => chatNotices.run());
  if (smsDelivery) housekeeping.add('smsDelivery', MINUTE, async () => ({ sent: await smsDelivery.deliverPending() }));
  housekeeping.add('orderMailsLeftBehind', MINUTE, async () => ({ batches: await notifier.mailLeftBehind() }));
  housekeeping.add('rateLimitCleanup', HOUR, async () => ({ removed: await rateLimits.cleanup() }));
  housekeeping.add('eventsCleanup', HOUR, async () => ({ removed: await events.cleanup() }));
  // Webhooks: deliveries wait on receivers for up to 15 s, so they have a queue runner of their own (the same table),
  // with room for several slow receivers at once: an attempt holds no database connection while it waits.
  const webhookJobs = new Jobs(db, app.log, {
    leaseMs: config.jobLeaseSeconds * 1000,
    concurrency: config.webhooks.concurrency,
  });
  const webhooks = new WebhooksService(db, webhookJobs, mailer, config, app.log);
  const stopWebhookDispatch = events.subscribe(
    () => void webhooks.dispatch().catch((err) => app.log.error({ err }, 'webhooks: dispatch failed')),
  );
  app.addHook('onClose', async () => {
    stopWebhookDispatch();
    await webhookJobs.stop();
  });
  app.decorate('webhooks', webhooks);
  housekeeping.add('webhookDispatch', MINUTE, async () => ({ made: await webhooks.dispatch() }));
  housekeeping.add('webhookDeliveriesCleanup', HOUR, async () => ({ removed: await webhooks.cleanup() }));
  // Apps: the OpenID provider (loaded on first use) and the register of apps it serves.
  const oidc = new OpenIdProvider(db, config, app.log, sessions);
  const appCalls = new AppCallLog(db, config.appCallLimits, app.log);
  app.addHook('onClose', () => appCalls.close());
  const apps = new AppsService(db, config, oidc, sessions, mailer, appCalls);
  housekeeping.add('oauthCleanup', HOUR, async () => ({ removed: await apps.deleteExpired() }));
  housekeeping.add('appCallLogCleanup', HOUR, async () => ({ removed: await apps.deleteOldCalls() }));
  housekeeping.add('idempotencyKeysCleanup', HOUR, async () => ({ removed: await deleteOldIdempotencyKeys(db) }));
  const company = new CompanyService(db, store, blobDeletions, jobs, config, app.log);
  housekeeping.add('closedOrganizationPurge', HOUR, () => company.queueDuePurges());
  app.decorate('housekeeping', housekeeping);
  app.addHook('onClose', () => housekeeping.stop());
  const permissions = new Permissions({ db, sessions });
  const roles = new RolesService(db, permissions);
  // The users module ends sessions and checks passwords through the auth module's statics, given here.
  const userSessions = {
    endSessionsOfUser: (...a: Parameters<typeof AuthService.endSessionsOfUser>) => AuthService.endSessionsOfUser(...a),
    verifyCurrentPassword,
  };
  const reportPdfs = new ReportPdfRenderer(app.log);
  app.addHook('onClose', () => reportPdfs.stop());
  const reports = new ReportsService(db, store, filesService, blobDeletions, reportPdfs, accessLog);
  const modules: Module[] = [
    commonModule(platform),
    authModule(platform),
    registrationModule(platform),
    recoveryModule(platform),
    usersModule(new UsersService(db, mailer, userSessions, roles)),
    accountModule(new AccountService(db, mailer, config.publicUrl, (grantId) => apps.revokeGrant(grantId))),
    contactsModule(new ContactsService(db, mailer, config.publicUrl), demoMailbox),
    usersAdminModule(new UsersAdminService(db, mailer, config, roles, userSessions), demoMailbox),
    rolesModule(roles),
    agreementsModule(platform),
    menusModule(platform),
    reviewModule(platform),
    organizationsAdminModule(new OrganizationsAdminService(db, config)),
    companyModule(company),
    mailModule(platform),
    casesModule(platform, cases),
    dentistsModule(platform),
    filesModule(filesService, uploads, uploadGrants),
    exportsModule(new ExportsService(db, store, jobs, config, accessLog)),
    devicesModule(devices, cases),
    partnersModule(platform, new PartnersService(db, mailer, config, orders)),
    ordersModule(orders),
    catalogueModule(catalogue),
    messagesModule(new MessagesService(db, orders, notifier)),
    dashboardModule(new DashboardService(db)),
    scorecardsModule(new ScorecardsService(db)),
    sharesModule(
      platform,
      new SharesService(db, cases, orders, reports, filesService, permissions, mailer, config, accessLog),
    ),
    softwareModule(platform),
    reportsModule(reports),
    annotationsModule(new AnnotationsService(db, cases, orders)),
    chatModule(new ChatService(db, store, (orgId, userId) => attachments.batch(orgId, userId)), hub),
    webhooksModule(webhooks),
    appsModule(apps, demoMailbox),
    auditModule(new AuditService(db)),
    erasureModule(erasure, cases),
  ];
  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      for (const m of modules) m.publicRoutes?.(api);
      await api.register(async (privateScope) => {
        registerAuthentication(privateScope, { db, tokens, sessions, appTokens: apps });
        // After authentication and the permission check: a refused call's answer is what a repeat gets too.
        registerIdempotency(privateScope, db);
        for (const m of modules) m.privateRoutes?.(privateScope);
      });
    },
    { prefix: API_BASE },
  );

  await oidc.register(app);
  await registerLive(app, hub, config.publicUrl);
  registerMetricsRoute(app, config, metrics);

  const webDir = opts.webDir ?? WEB_DIST_DIR;
  if (opts.serveWeb !== false && existsSync(join(webDir, 'index.html'))) await serveWebApp(app, webDir);
  return app;
}

/**
 * Pages get helmet's full set with a real content security policy. API answers are JSON, never
 * rendered, so they get a small fixed set: no loading, no framing, no sniffing, same origin only.
 * (HSTS comes with the pages, which a browser always loads first.)
 */
const documentHeaders = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // The 3D viewer decodes meshes with WebAssembly.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // Ant Design injects its component styles at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  },
  crossOriginEmbedderPolicy: false,
});
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

function registerSecurityHeaders(app: App) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (request.url.startsWith(`${API_BASE}/`)) {
      reply.headers(API_HEADERS);
      done();
    } else {
      // The provider's pages and the sign-in and consent page for apps are never framed, even by the portal.
      if (/^\/(oidc|third)(\/|\?|$)/.test(request.url)) reply.header('x-frame-options', 'DENY');
      documentHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    }
  });
}

/**
 * /metrics on the main port, outside the API: answered only with METRICS_TOKEN as a bearer token, and only when the
 * metrics have no port of their own; otherwise it is not there (404), even where the web app would answer a page.
 */
function registerMetricsRoute(app: App, config: Config, metrics: Metrics | undefined) {
  const token = config.metrics?.port === undefined ? config.metrics?.token : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metrics || !token) return reply.callNotFound();
    if (!bearerMatches(request.headers.authorization, token))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ code: 401, msg: 'Unauthorized', data: null });
    const { contentType, body } = await metrics.exposition();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/** The share pages (spec §2) are their own document: a visitor's first load carries none of the signed-in app. */
const SHARE_PAGE_PATHS = new Set(Object.values(SHARE_PAGES));

/** The built single-page app; unknown non-API paths get index.html so client routes work on reload. */
async function serveWebApp(app: App, root: string) {
  // Only reply.sendFile: the handler below serves every file (a route per built file would cost start-up time).
  await app.register(fastifyStatic, { root, serve: false, index: false, cacheControl: false });
  // The web app's routes are pages, not part of the API's document.
  app.get('/', { schema: { hide: true } }, (_req, reply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html'),
  );
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/')) return reply.callNotFound();
    if (/\.[a-z0-9]+$/i.test(path) && existsSync(join(root, path))) {
      // Hashed build assets never change.
      const immutable = path.startsWith('/assets/');
      return reply
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
        .sendFile(path.slice(1));
    }
    if (/\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
    const document = SHARE_PAGE_PATHS.has(path.replace(/\/+$/, '')) ? 'share.html' : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(document);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    housekeeping: Housekeeping;
    live: LiveHub;
    /** Set when metrics are configured (METRICS_PORT or METRICS_TOKEN). */
    metrics: Metrics | undefined;
    webhooks: WebhooksService;
  }
}
