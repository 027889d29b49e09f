import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import type { Mailer } from './mail.js';
import type { TokenService } from './auth.js';
import type { SessionCache } from './session-cache.js';
import type { BlobStore } from './storage.js';
import type { Jobs } from './jobs.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** What the modules are built from; created once in app.ts. */
export interface Platform {
  config: Config;
  db: Db;
  mailer: Mailer;
  tokens: TokenService;
  sessions: SessionCache;
  store: BlobStore;
  jobs: Jobs;
  startedAt: number;
}

/** A domain's routes: those anyone may call, and those behind authentication. */
export interface Module {
  publicRoutes?: (app: App) => void;
  privateRoutes?: (app: App) => void;
}
