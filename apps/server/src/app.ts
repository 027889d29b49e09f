import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@portal/contracts';
import type { Config } from './config.js';
import type { Db } from './platform/db.js';
import { authenticateToken, registerAuthentication, roleHasPermission, TokenService } from './platform/auth.js';
import { fail } from './platform/errors.js';
import { Jobs } from './platform/jobs.js';
import { LocalStore, type BlobStore } from './platform/storage.js';
import { readInfoToken, registerErrorHandling, registerRequestContext } from './platform/http.js';
import { Mailer } from './platform/mail.js';
import { SessionCache } from './platform/session-cache.js';
import { newId } from './platform/crypto.js';
import { WEB_DIST_DIR } from './platform/paths.js';
import type { App, Module, Platform } from './platform/services.js';
import { agreementsModule } from './modules/agreements/agreements.routes.js';
import { authModule } from './modules/auth/auth.routes.js';
import { commonModule } from './modules/common/common.routes.js';
import { mailModule } from './modules/mail/mail.routes.js';
import { menusModule } from './modules/menus/menus.routes.js';
import { reviewModule } from './modules/organizations/review.routes.js';
import { recoveryModule } from './modules/recovery/recovery.routes.js';
import { registrationModule } from './modules/registration/registration.routes.js';
import { usersModule } from './modules/users/users.routes.js';
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
import { ordersModule } from './modules/orders/orders.routes.js';
import { OrdersService } from './modules/orders/orders.service.js';
import { OrderNotifier } from './modules/orders/order-notifier.js';
import { OrderAttachments } from './modules/orders/order-attachments.js';
import { messagesModule } from './modules/messages/messages.routes.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { dashboardModule } from './modules/dashboard/dashboard.routes.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { ExportsService } from './modules/exports/exports.service.js';

export interface BuildOptions {
  config: Config;
  db: Db;
  /** Serve the built web app when it exists (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
}

const API_BODY_LIMIT = 256 * 1024;

/** Builds the server: external plugins → platform → modules, in that order. */
export async function buildApp(opts: BuildOptions): Promise<App & { platform: Platform; maintenance: () => Promise<{ purgedCases: number; abandonedUploads: number }> }> {
  const { config } = opts;
  const sessions = new SessionCache({ ttlMs: config.sessionCacheSeconds * 1000, maxEntries: 50_000 });
  const db = sessions.observeWrites(opts.db);
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel },
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => newId(),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Response schemas document the API and type the handlers at compile time; re-validating every
  // answer at run time would cost more than the rest of a typical request.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerSecurityHeaders(app);

  // External plugins.
  await app.register(formbody, { bodyLimit: API_BODY_LIMIT });
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 10 } });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.appName} API`, version: '2.0.0', description: 'Every call answers {code, msg, data}; code 200 is success. See docs/api.md.' },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Platform.
  registerRequestContext(app);
  registerErrorHandling(app);
  const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds);
  const mailer = new Mailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom, appName: config.appName }, app.log);
  await sessions.start(db);
  // The S3 SDK is loaded only when the store is S3.
  const store: BlobStore = config.storage.kind === 's3'
    ? new (await import('./platform/storage-s3.js')).S3BlobStore(config.storage)
    : new LocalStore(config.storage.root);
  const jobs = new Jobs(db, app.log);
  const platform: Platform = { config, db, mailer, tokens, sessions, store, jobs, startedAt: Date.now() };
  app.decorate('platform', platform);
  app.addHook('onClose', async () => {
    await jobs.stop();
    mailer.close();
    await sessions.stop();
  });

  // Modules.
  const filesService = new FilesService(db, store, config);
  const devices = new DevicesService(db);
  const uploadGrants = new UploadGrants(config.jwtSecret);
  const meshes = new MeshPreparer(db, store, app.log);
  jobs.handle('prepareModel', (p) => meshes.prepare(Number(p.fileId)));
  app.addHook('onClose', () => meshes.stop());
  const uploads = new UploadsService(
    db, store, config,
    async (authorization, info) => {
      const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : readInfoToken(info);
      if (token?.startsWith('upl_')) {
        const grant = uploadGrants.verify(token);
        return { organizationId: grant.organizationId, userId: grant.userId, deviceId: null, onlyCase: grant.caseCode };
      }
      if (token?.startsWith('dvc_')) {
        const device = await devices.authenticate(token);
        return { organizationId: device.organizationId, userId: null, deviceId: device.deviceId };
      }
      const { auth } = await authenticateToken({ db, tokens, sessions }, token);
      if (auth.forceChangePassword || !(await roleHasPermission({ db, sessions }, auth.roleId, 'case:edit'))) fail('NO_PERMISSION');
      return { organizationId: auth.organizationId, userId: auth.userId, deviceId: null };
    },
    (fileId) => jobs.enqueue('prepareModel', { fileId }),
  );
  const cases = new CasesService(db, store);
  // Housekeeping, run hourly by the server process: the recycle bin's retention and abandoned uploads.
  app.decorate('maintenance', async () => ({
    purgedCases: await cases.purge({ before: new Date(Date.now() - config.recycleBinDays * 86_400_000) }),
    abandonedUploads: await uploads.discardAbandoned(),
  }));
  const notifier = new OrderNotifier(db, mailer, config.publicUrl, app.log);
  const attachments = new OrderAttachments(db, store, filesService.links, config.publicUrl, config.fileLinkTtlSeconds, config.uploads.defaultQuotaBytes);
  const orders = new OrdersService(db, notifier, attachments);
  const modules: Module[] = [
    commonModule(platform), authModule(platform), registrationModule(platform), recoveryModule(platform), usersModule(platform),
    agreementsModule(platform), menusModule(platform), reviewModule(platform), mailModule(platform),
    casesModule(platform, cases), dentistsModule(platform), filesModule(filesService, uploads, uploadGrants),
    exportsModule(new ExportsService(db, store, jobs, config)), devicesModule(devices, cases), partnersModule(platform), ordersModule(orders),
    messagesModule(new MessagesService(db, orders, notifier)), dashboardModule(new DashboardService(db)),
  ];
  await app.register(async (api) => {
    api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    for (const m of modules) m.publicRoutes?.(api);
    await api.register(async (privateScope) => {
      registerAuthentication(privateScope, { db, tokens, sessions });
      for (const m of modules) m.privateRoutes?.(privateScope);
    });
  }, { prefix: API_BASE });

  if (opts.serveWeb !== false && existsSync(join(WEB_DIST_DIR, 'index.html'))) await serveWebApp(app);
  return app as App & { platform: Platform; maintenance: () => Promise<{ purgedCases: number; abandonedUploads: number }> };
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
      documentHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    }
  });
}

/** The built single-page app; unknown non-API paths get index.html so client routes work on reload. */
async function serveWebApp(app: App) {
  await app.register(fastifyStatic, { root: WEB_DIST_DIR, wildcard: false, index: false, maxAge: '1h' });
  app.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  app.get('/*', (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/')) return reply.callNotFound();
    if (/\.[a-z0-9]+$/i.test(path) && existsSync(join(WEB_DIST_DIR, path))) {
      // Hashed build assets never change.
      const immutable = path.startsWith('/assets/');
      return reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600').sendFile(path.slice(1));
    }
    if (/\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    maintenance: () => Promise<{ purgedCases: number; abandonedUploads: number }>;
  }
}
