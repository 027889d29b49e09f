import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { FILE_FORMATS, REGIONS, type FileFormat } from '@portal/contracts';

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  // The role that runs migrations and owns the tables, when the portal's own role (DATABASE_URL) should not.
  MIGRATION_DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  // DATABASE_URL reaches PostgreSQL through a pooler in transaction mode (PgBouncer); LISTEN then needs a direct address.
  DATABASE_POOLER: z.enum(['none', 'transaction']).default('none'),
  LISTEN_DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  REGION: z.enum(REGIONS).default('us'),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  SMPP_URL: url(['smpp:', 'ssmpp:']).optional(),
  // A sender is a number (up to 20 digits, international) or an alphanumeric name of at most 11 GSM characters.
  SMPP_SOURCE_ADDR: z
    .string()
    .regex(/^(\+?\d{1,20}|[A-Za-z0-9 .&'-]{1,11})$/, 'must be a number or up to 11 letters, digits or spaces')
    .default('Portal'),
  SMPP_LONG_SMS: z.enum(['split', 'payload']).default('split'),
  CHAT_NOTICE_QUIET_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  MAIL_FROM: z
    .string()
    .regex(/^(.+<[^@\s]+@[^@\s]+>|[^@\s]+@[^@\s]+)$/, 'must be an email address or "Name <address>"')
    .default('Dental Portal <no-reply@localhost>'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  WEBHOOK_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  OAUTH_ALLOW_LOOPBACK_REDIRECTS: z.enum(['true', 'false']).default('false'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(900),
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  DEMO_PASSWORD: z.string().min(8).default('Dental#2026'),
  SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10000).default(30),
  WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  APP_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(6000),
  APP_USER_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  LIVE_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(100000).default(50),
  LIVE_WAITING_PER_ADDRESS: z.coerce.number().int().min(1).max(100000).default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  LOG_REQUESTS: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  APP_NAME: z.string().min(1).max(60).default('Dental Portal'),
  SUPPORT_URL: url(['http:', 'https:', 'mailto:']).default('mailto:support@localhost'),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(2048),
  UPLOAD_FORMATS: z
    .string()
    .regex(/^[a-z0-9]+(,[a-z0-9]+)*$/, 'must be a comma-separated list of formats')
    .refine(
      (v) => v.split(',').every((f) => (FILE_FORMATS as readonly string[]).includes(f)),
      `formats must be among ${FILE_FORMATS.join(',')}`,
    )
    .default(FILE_FORMATS.join(',')),
  UPLOAD_MAX_FILES_PER_CASE: z.coerce.number().int().min(1).max(10_000).default(100),
  STORAGE_QUOTA_GB: z.coerce.number().min(0.001).max(1_000_000).default(50),
  RECYCLE_BIN_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  CLOSED_ORGANIZATION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  FILE_LINK_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/** Addresses only this machine reaches: metrics may be served there without a token. */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost)$/i;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * Migrations run through this connection (the tables' owner) instead of `databaseUrl`, so the portal's role holds
   * only the rights it is given (docs/operations.md, "Database roles").
   */
  migrationDatabaseUrl?: string;
  /** `transaction`: DATABASE_URL is a pooler in transaction mode; `listenDatabaseUrl` is the direct address for LISTEN. */
  databasePooler: 'none' | 'transaction';
  listenDatabaseUrl?: string;
  publicUrl: string;
  region: (typeof REGIONS)[number];
  smtpUrl?: string;
  /** The SMPP centre text messages go through; without it they stay in the outbox. */
  smpp?: { url: string; sourceAddr: string; long: 'split' | 'payload' };
  /** How long a chat message stays unread before its reader is told by station letter or SMS. */
  chatNoticeQuietMinutes: number;
  mailFrom: string;
  jwtSecret: string;
  /**
   * Webhooks: the key their signing secrets are sealed under (derived from the token-signing secret when not given),
   * and whether endpoints may be plain http on the loopback address (tests and local development only).
   */
  webhooks: { secretKey: string; allowLoopback: boolean; concurrency: number };
  /** Apps may register plain-http redirect addresses on the loopback address (tests and local development only). */
  oauthAllowLoopbackRedirects: boolean;
  /** Calls per minute an app may make on the whole site, and for one user. */
  appCallLimits: { perApp: number; perUser: number };
  accessTokenTtlSeconds: number;
  /** How long a process may hold a session in memory between change notifications (0 = never). */
  sessionCacheSeconds: number;
  demoPassword: string;
  /** Seed demo accounts into a new database. */
  seedDemo: boolean;
  loginRateLimitPerMinute: number;
  /** Live sockets: open per user, and still authenticating per client address (raised only for benchmarks). */
  live: { perUser: number; waitingPerAddress: number };
  logLevel: string;
  /** JSON lines for log collectors, or short readable lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /** One line per request. */
  logRequests: boolean;
  trustProxy: boolean;
  appName: string;
  supportUrl: string;
  storage:
    | { kind: 'local'; root: string }
    | {
        kind: 's3';
        bucket: string;
        endpoint?: string;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
      };
  uploads: { maxBytes: number; formats: FileFormat[]; maxFilesPerCase: number; defaultQuotaBytes: number };
  recycleBinDays: number;
  /** How long a closed organization is kept (the super administrator may restore it) before it is purged. */
  closedOrganizationRetentionDays: number;
  fileLinkTtlSeconds: number;
  /** How long a background job's claim lasts unless its process renews it (the job of a dead process waits this). */
  jobLeaseSeconds: number;
  /** How long a stopping server waits for requests in flight before it cuts their connections. */
  shutdownGraceSeconds: number;
  /**
   * Prometheus metrics (docs/operations.md, "Metrics"): on a port of their own, or at /metrics on the main port behind
   * a bearer token; off (undefined) when neither METRICS_PORT nor METRICS_TOKEN is set.
   */
  metrics?: { port?: number; host: string; token?: string };
}

export class ConfigError extends Error {}

/** Reads and validates the environment. A bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { persistSecret?: boolean } = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const jwtSecret =
    e.JWT_SECRET ?? (opts.persistSecret === false ? randomBytes(32).toString('hex') : readOrCreateSecret(dataDir));
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  if (e.METRICS_PORT !== undefined && !e.METRICS_TOKEN && !LOOPBACK.test(e.METRICS_HOST))
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_TOKEN: required when METRICS_HOST is not a loopback address (127.0.0.1, ::1)',
    );
  if (e.DATABASE_POOLER === 'transaction' && !(e.DATABASE_URL && e.LISTEN_DATABASE_URL))
    throw new ConfigError(
      'Invalid configuration:\n  LISTEN_DATABASE_URL: required with DATABASE_POOLER=transaction (a pooler cannot hold a LISTEN), as is DATABASE_URL',
    );
  if (e.MIGRATION_DATABASE_URL && !e.DATABASE_URL)
    throw new ConfigError(
      "Invalid configuration:\n  MIGRATION_DATABASE_URL: requires DATABASE_URL (the portal's own role)",
    );
  if (e.STORAGE === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !e[k]);
    if (missing.length)
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((k) => `  ${k}: required when STORAGE=s3`).join('\n')}`,
      );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    databasePooler: e.DATABASE_POOLER,
    listenDatabaseUrl: e.LISTEN_DATABASE_URL,
    publicUrl,
    region: e.REGION,
    smtpUrl: e.SMTP_URL,
    smpp: e.SMPP_URL
      ? { url: e.SMPP_URL, sourceAddr: e.SMPP_SOURCE_ADDR.replace(/^\+/, ''), long: e.SMPP_LONG_SMS }
      : undefined,
    chatNoticeQuietMinutes: e.CHAT_NOTICE_QUIET_MINUTES,
    mailFrom: e.MAIL_FROM,
    jwtSecret,
    webhooks: {
      secretKey: e.WEBHOOK_SECRET_KEY ?? createHmac('sha256', jwtSecret).update('portal:webhook-secrets').digest('hex'),
      allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK === 'true',
      concurrency: e.WEBHOOK_DELIVERY_CONCURRENCY,
    },
    oauthAllowLoopbackRedirects: e.OAUTH_ALLOW_LOOPBACK_REDIRECTS === 'true',
    appCallLimits: { perApp: e.APP_CALLS_PER_MINUTE, perUser: e.APP_USER_CALLS_PER_MINUTE },
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    demoPassword: e.DEMO_PASSWORD,
    seedDemo: e.SEED_DEMO === 'auto' ? e.NODE_ENV !== 'production' : e.SEED_DEMO === 'true',
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    live: { perUser: e.LIVE_SOCKETS_PER_USER, waitingPerAddress: e.LIVE_WAITING_PER_ADDRESS },
    logLevel: e.LOG_LEVEL,
    // Production logs go to a collector; a person starting the portal wants the banner, warnings and errors.
    logFormat: e.LOG_FORMAT === 'auto' ? (e.NODE_ENV === 'production' ? 'json' : 'pretty') : e.LOG_FORMAT,
    logRequests: e.LOG_REQUESTS === 'auto' ? e.NODE_ENV === 'production' : e.LOG_REQUESTS === 'true',
    trustProxy: e.TRUST_PROXY === 'true',
    appName: e.APP_NAME,
    supportUrl: e.SUPPORT_URL,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET!,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          }
        : { kind: 'local', root: join(dataDir, 'files') },
    uploads: {
      maxBytes: e.UPLOAD_MAX_MB * 1024 * 1024,
      formats: e.UPLOAD_FORMATS.split(',') as FileFormat[],
      maxFilesPerCase: e.UPLOAD_MAX_FILES_PER_CASE,
      defaultQuotaBytes: Math.round(e.STORAGE_QUOTA_GB * 1024 ** 3),
    },
    recycleBinDays: e.RECYCLE_BIN_DAYS,
    closedOrganizationRetentionDays: e.CLOSED_ORGANIZATION_RETENTION_DAYS,
    fileLinkTtlSeconds: e.FILE_LINK_TTL_SECONDS,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    metrics:
      e.METRICS_PORT !== undefined || e.METRICS_TOKEN
        ? { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN }
        : undefined,
  };
}

/** The token-signing secret is generated once and kept in the data folder when not given. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret?: string };
    if (saved.jwtSecret && saved.jwtSecret.length >= 32) return saved.jwtSecret;
  }
  mkdirSync(dataDir, { recursive: true });
  const jwtSecret = randomBytes(48).toString('base64url');
  writeFileSync(file, JSON.stringify({ jwtSecret }, null, 2), { mode: 0o600 });
  return jwtSecret;
}
