import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { OrgType, ReviewStatus, UserStatus, AGREEMENT_TYPES } from '@portal/contracts';
import { loadConfig, type Config } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { pgliteDb, pgliteExtensions, postgresDb, type Db } from '../src/platform/db.js';
import { hashPassword, newCode } from '../src/platform/crypto.js';
import { organizationsRepository } from '../src/modules/organizations/organizations.repository.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { agreementsRepository } from '../src/modules/agreements/agreements.repository.js';
import { postgresAdminUrl, testDbKind, withDatabase } from './db-url.js';

export const PASSWORD = 'Dental#2026';

/** A fresh database for one test file, cloned from the migrated template (or `empty`: not even migrated). */
export async function freshDb(opts: { empty?: boolean } = {}): Promise<Db> {
  if (testDbKind() === 'postgres') {
    const name = `portal_t_${randomBytes(6).toString('hex')}`;
    const admin = postgresDb(postgresAdminUrl(), 1);
    await admin.query(`CREATE DATABASE ${name}${opts.empty ? '' : ` TEMPLATE ${inject('postgresTemplate')}`}`);
    await admin.close();
    const db = postgresDb(withDatabase(postgresAdminUrl(), name), 5);
    const close = db.close;
    db.close = async () => {
      await close();
      const a = postgresDb(postgresAdminUrl(), 1);
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.close();
    };
    return db;
  }
  if (opts.empty) return pgliteDb(await PGlite.create({ extensions: await pgliteExtensions() }));
  const dump = new Blob([readFileSync(inject('pgliteTemplate'))]);
  return pgliteDb(await PGlite.create({ loadDataDir: dump, extensions: await pgliteExtensions() }));
}

export interface Harness {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Db;
  config: Config;
  /** POST (or GET) to /api/v2/<path>; JSON body unless `form` is given. */
  call: (
    path: string,
    opts?: CallOptions,
  ) => Promise<{ status: number; code: number; msg: string; data: any; headers: Record<string, unknown> }>;
  close: () => Promise<void>;
  /** Starts listening on a free loopback port (for protocol clients such as tus); answers the base URL. */
  listen: () => Promise<string>;
}
export interface CallOptions {
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  token?: string;
  method?: 'GET' | 'POST';
  lang?: string;
  headers?: Record<string, string>;
}

/** A test's configuration, with a data folder of its own (the caller removes it). */
export function testConfig(env: Record<string, string> = {}): { config: Config; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://portal.test',
      // Errors only, one JSON line each: a 500 in a suite's run then says why in the CI log (a passing run is quiet).
      LOG_LEVEL: 'error',
      LOG_FORMAT: 'json',
      SEED_DEMO: 'false',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      ...env,
    },
    { persistSecret: false },
  );
  return { config, dataDir };
}

export async function createHarness(
  env: Record<string, string> = {},
  /** `webDir`: serve a built web app from this folder, as the production server does. */
  options: { webDir?: string } = {},
): Promise<Harness> {
  const { config, dataDir } = testConfig(env);
  const db = await freshDb();
  const app = await buildApp({
    config,
    db,
    serveWeb: Boolean(options.webDir),
    webDir: options.webDir,
  });
  await app.ready();
  const call: Harness['call'] = async (path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.info = JSON.stringify({ appCode: 'test', accessToken: opts.token, endPointClass: 'web' });
    if (opts.lang) headers.lang = opts.lang;
    let payload: string | undefined;
    if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(opts.form).toString();
    } else if (opts.body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(opts.body);
    }
    const res = await app.inject({ method: opts.method ?? 'POST', url: `/api/v2/${path}`, headers, payload });
    const isJson = res.headers['content-type']?.toString().includes('json');
    const json = isJson ? res.json() : { code: 0, msg: '', data: res.body };
    if (isJson) assertDocumented(app, opts.method ?? 'POST', path, res.statusCode, json.code);
    return { status: res.statusCode, code: json.code, msg: json.msg, data: json.data, headers: res.headers };
  };
  let baseUrl: string | undefined;
  const listen = async () => (baseUrl ??= await app.listen({ port: 0, host: '127.0.0.1' }));
  return {
    app,
    db,
    config,
    call,
    listen,
    close: async () => {
      // A close that hangs says which part is still waiting before the hook's timeout ends the run.
      await slowStepSays(
        'closing the app (its hooks, then its open connections)',
        () => app.close(),
        () => ({ listening: app.server.listening }),
      );
      await slowStepSays('closing the database', () => db.close());
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a step; if it is still running after 20 s, prints what it is (and `state()`), then keeps waiting for it. */
async function slowStepSays<T>(what: string, step: () => Promise<T>, state: () => unknown = () => ({})) {
  const timer = setTimeout(() => console.error(`still ${what} after 20 s`, state()), 20_000);
  try {
    return await step();
  } finally {
    clearTimeout(timer);
  }
}

interface DocumentedAnswers {
  route: RegExp;
  method: string;
  statuses: string[];
  codes: number[];
}
const documentedAnswers = new WeakMap<Harness['app'], DocumentedAnswers[]>();

/**
 * Every answer a test gets through `call` must be one the OpenAPI document lists for that call: its HTTP
 * status, and its catalogue code in the operation's `x-codes`. So the suite checks the documented errors.
 */
export function assertDocumented(app: Harness['app'], method: string, path: string, status: number, code: number) {
  let answers = documentedAnswers.get(app);
  if (!answers) {
    const doc = app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; 'x-codes': number[] }>>;
    };
    answers = Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries(item).map(([m, operation]) => ({
        route: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        method: m.toUpperCase(),
        statuses: Object.keys(operation.responses),
        codes: [200, ...operation['x-codes']],
      })),
    );
    documentedAnswers.set(app, answers);
  }
  const url = `/api/v2/${path.split('?')[0]}`;
  const operation = answers.find((a) => a.method === method && a.route.test(url));
  if (!operation) return;
  if (!operation.statuses.includes(String(status)) || !operation.codes.includes(code))
    throw new Error(
      `${method} ${url} answered HTTP ${status} with code ${code}, which its OpenAPI operation does not list`,
    );
}

let seq = 0;
let defaultPasswordHash: Promise<string> | undefined;
/** An organization with its administrator, in whatever state a test needs. */
export async function createUser(
  db: Db,
  opts: {
    orgType?: number;
    status?: number;
    reviewStatus?: number;
    orgStatus?: number;
    account?: string;
    email?: string;
    phone?: string;
    forceChangePassword?: boolean;
    password?: string;
    language?: string;
    region?: 'us' | 'eu' | 'uk';
    agreementsRead?: boolean;
    isOrgAdmin?: boolean;
  } = {},
) {
  seq += 1;
  const orgType = opts.orgType ?? OrgType.Clinic;
  const account = opts.account ?? `user${seq}${randomBytes(2).toString('hex')}`;
  const email = opts.email ?? `${account}@example.test`;
  const roleCode =
    { 1: 'super_admin', 2: 'clinic_admin', 3: 'lab_admin', 4: 'dealer_admin', 5: 'oem_admin' }[orgType] ??
    'clinic_admin';
  const organizationId = await organizationsRepository.insert(db, {
    code: newCode('org'),
    name: `Org ${account}`,
    type: orgType,
    region: opts.region ?? 'us',
    reviewStatus: opts.reviewStatus ?? ReviewStatus.Approved,
    language: opts.language ?? 'en',
    email,
  });
  if (opts.orgStatus)
    await db.query('UPDATE organizations SET status = $2 WHERE id = $1', [organizationId, opts.orgStatus]);
  const [role] = await db.query<{ id: number }>('SELECT id FROM roles WHERE code = $1', [roleCode]);
  const userId = await UsersService.insert(db, {
    userCode: newCode('u'),
    account,
    email,
    phone: opts.phone ?? null,
    displayName: `User ${account}`,
    organizationId,
    roleId: Number(role!.id),
    status: opts.status ?? UserStatus.Activated,
    isOrgAdmin: opts.isOrgAdmin ?? true,
    language: opts.language ?? 'en',
    // The default password's hash is made once: argon2 is slow on purpose.
    passwordHash: await (opts.password
      ? hashPassword(opts.password)
      : (defaultPasswordHash ??= hashPassword(PASSWORD))),
    forceChangePassword: opts.forceChangePassword ?? false,
  });
  if (opts.agreementsRead !== false) await agreementsRepository.markRead(db, userId, [...AGREEMENT_TYPES]);
  return { userId, organizationId, account, email, roleId: Number(role!.id) };
}

export async function login(h: Harness, account: string, password = PASSWORD, saveLogin = true) {
  const res = await h.call('login', { body: { account, password, saveLogin } });
  if (res.code !== 200) throw new Error(`login failed: ${res.code} ${res.msg}`);
  return res.data as { accessToken: string; refreshToken: string };
}

/** A snapshot of the tables a bad request must leave untouched. */
export async function snapshot(db: Db) {
  await mailBatchesSettled(db);
  const tables = [
    'organizations',
    'users',
    'sessions',
    'refresh_tokens',
    'email_tokens',
    'mail_outbox',
    'agreement_read_logs',
    'login_failures',
  ];
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = await db.query(`SELECT * FROM ${t} ORDER BY 1`);
  return JSON.stringify(out);
}

/**
 * Order mails are written into the outbox just after the answer (`OrderNotifier.mailBatch`): a snapshot taken right
 * after an order action waits for them, so it records the state the action leaves, not a moment before its mail.
 */
export async function mailBatchesSettled(db: Db) {
  for (let i = 0; i < 200; i++) {
    const [pending] = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM notifications WHERE mail_batch IS NOT NULL)
            + (SELECT count(*) FROM contact_order_notices) AS n`,
    );
    if (!Number(pending?.n)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The link a mail in the outbox carries, by purpose path (e.g. /email-verify/). */
export async function linkFromOutbox(db: Db, to: string, pathPart: string): Promise<string> {
  const rows = await db.query<{ body_text: string }>(
    `SELECT body_text FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY id DESC`,
    [to],
  );
  for (const r of rows) {
    const m = r.body_text.match(new RegExp(`https?://\\S*${pathPart}([A-Za-z0-9_-]+)`));
    if (m) return m[1]!;
  }
  throw new Error(`no ${pathPart} link mailed to ${to}`);
}
