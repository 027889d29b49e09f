import type {
  FastifyInstance,
  FastifyBaseLogger,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import type { Mailer } from './mail.js';
import type { TokenService } from './auth.js';
import type { SessionCache } from './session-cache.js';
import type { BlobStore } from './storage.js';
import type { Jobs } from './jobs.js';
import type { BlobDeletions } from './blob-deletions.js';
import type { RateLimits } from './rate-limits.js';
import type { Housekeeping } from './housekeeping.js';
import type { DemoMailbox } from '../modules/mail/demo-mailbox.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the modules are built from; created once in app.ts. */
export interface Platform {
  config: Config;
  db: Db;
  mailer: Mailer;
  tokens: TokenService;
  sessions: SessionCache;
  store: BlobStore;
  /** Blobs whose rows are gone, deleted after the commit (or swept). */
  blobDeletions: BlobDeletions;
  jobs: Jobs;
  /** Demo mode's mailbox passes (registration and invitations grant them). */
  demoMailbox: DemoMailbox;
  /** Limits shared by every process (account enumeration, mail bombing). */
  rateLimits: RateLimits;
  housekeeping: Housekeeping;
  startedAt: number;
}

/** A domain's routes: those anyone may call, and those behind authentication. */
export interface Module {
  publicRoutes?: (app: App) => void;
  privateRoutes?: (app: App) => void;
}
