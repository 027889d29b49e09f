import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CreateCaseBody, CreateOrderBody, ERRORS, OrgType } from '@portal/contracts';
import type { ErrorName } from '@portal/contracts';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import type { AuthContext } from '../../src/platform/auth.js';
import { BlobDeletions } from '../../src/platform/blob-deletions.js';
import type { Db } from '../../src/platform/db.js';
import { AppError } from '../../src/platform/errors.js';
import { Mailer } from '../../src/platform/mail.js';
import { LocalStore } from '../../src/platform/storage.js';
import { AccessLog, type Reader } from '../../src/modules/audit/access-log.js';
import { CasesService } from '../../src/modules/cases/cases.service.js';
import { CatalogueService } from '../../src/modules/catalogue/catalogue.service.js';
import { FilesService } from '../../src/modules/files/files.service.js';
import { UploadsService } from '../../src/modules/files/uploads.service.js';
import { OrderAttachments } from '../../src/modules/orders/order-attachments.js';
import { OrderNotifier } from '../../src/modules/orders/order-notifier.js';
import { OrdersService } from '../../src/modules/orders/orders.service.js';
import { PartnersService } from '../../src/modules/partners/partners.service.js';
import { usersRepository } from '../../src/modules/users/users.repository.js';
import { createUser, freshDb, mailBatchesSettled, testConfig } from '../harness.js';

/**
 * Services built on a real database (PGlite, or PostgreSQL with TEST_DB=postgres) and called directly: no HTTP, no
 * routes. The rules are asserted on what the services answer and refuse, and on the rows they leave.
 */
const silent = {
  level: 'silent',
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  silent() {},
  child() {
    return silent;
  },
} as unknown as FastifyBaseLogger;

export interface ServiceWorld {
  db: Db;
  config: Config;
  store: LocalStore;
  files: FilesService;
  uploads: UploadsService;
  cases: CasesService;
  orders: OrdersService;
  partners: PartnersService;
  close(): Promise<void>;
}

export async function serviceWorld(env: Record<string, string> = {}): Promise<ServiceWorld> {
  const { config, dataDir } = testConfig(env);
  const db = await freshDb();
  const store = new LocalStore(config.storage.kind === 'local' ? config.storage.root : join(dataDir, 'files'));
  const blobs = new BlobDeletions(db, store);
  const mailer = new Mailer(db, { from: 'portal@example.test', appName: 'Portal' }, silent);
  const accessLog = new AccessLog(db);
  const files = new FilesService(db, store, config, blobs, accessLog);
  const uploads = new UploadsService(
    db,
    store,
    config,
    () => Promise.reject(new Error('the service tests call the upload rules directly')),
    { queue: async () => undefined, wakeUp: () => undefined },
    blobs,
  );
  const notifier = new OrderNotifier(db, mailer, config.publicUrl, silent);
  const attachments = new OrderAttachments(
    db,
    store,
    files.links,
    config.publicUrl,
    config.fileLinkTtlSeconds,
    config.uploads.defaultQuotaBytes,
  );
  const orders = new OrdersService(db, notifier, attachments, new CatalogueService(db), accessLog);
  return {
    db,
    config,
    store,
    files,
    uploads,
    cases: new CasesService(
      db,
      blobs,
      {
        byCase: (q, caseId) => FilesService.byCase(q, caseId),
        deleteOfCase: (tx, caseId) => FilesService.deleteOfCase(tx, caseId),
      },
      accessLog,
      silent,
    ),
    orders,
    partners: new PartnersService(db, mailer, config, orders),
    close: async () => {
      // Order mails are written just after an action's commit; the database stays open until they are.
      await mailBatchesSettled(db);
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let seq = 0;

/** An organization of the type with its administrator, signed in: the context a route would hand the service. */
export async function actor(
  db: Db,
  orgType: number = OrgType.Clinic,
  opts: { reviewStatus?: number; isOrgAdmin?: boolean } = {},
): Promise<AuthContext & { orgCode: string }> {
  seq += 1;
  const { userId, organizationId, roleId } = await createUser(db, {
    orgType,
    account: `svc${seq}${randomBytes(3).toString('hex')}`,
    reviewStatus: opts.reviewStatus,
    isOrgAdmin: opts.isOrgAdmin,
  });
  const user = (await usersRepository.findById(db, userId))!;
  return {
    user,
    userId,
    userCode: user.user_code,
    organizationId,
    orgType,
    roleId,
    sessionId: randomUUID(),
    forceChangePassword: false,
    identityVerifiedUntil: null,
    orgCode: user.org_code,
  };
}

/** A new registered case of the clinic; answers its code and id. */
export async function newCase(w: ServiceWorld, clinic: AuthContext, name = 'Crown case') {
  const made = await w.cases.create(
    clinic.organizationId,
    clinic.userId,
    CreateCaseBody.parse({ name, patientName: 'Greta Lund' }),
  );
  return { code: made.caseCode, id: await w.cases.idOf(clinic.organizationId, made.caseCode) };
}

export const CROWN = { number: 16, shade: 'A2', material: 'Zirconia', method: 'screwRetained' };

/** The clinic sends cases to a partner laboratory: a crown on 16 each; answers the order codes. */
export async function send(w: ServiceWorld, clinic: AuthContext, partnerCode: string, caseCodes: string[]) {
  const made = await w.orders.create(
    clinic,
    CreateOrderBody.parse({ caseCodes, partnerCode, orderType: 'restoration', workTypes: ['Crown'], teeth: [CROWN] }),
  );
  return made.list.map((o) => o.orderCode);
}

/** A partnership the clinic applied for and the laboratory accepted; answers its code. */
export async function partnership(w: ServiceWorld, clinic: AuthContext, lab: AuthContext & { orgCode: string }) {
  const applied = await w.partners.apply(clinic, lab.orgCode);
  await w.partners.act(lab, applied.partnerCode, 'accept');
  return applied.partnerCode;
}

/** Awaits a refusal and checks it is the catalogue's `name` (its code), with the data given. */
export async function refused(promise: Promise<unknown>, name: ErrorName, data?: Record<string, unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected the refusal ${name}`).toBeInstanceOf(AppError);
  expect((err as AppError).entry.code).toBe(ERRORS[name].code);
  if (data) expect((err as AppError).data).toMatchObject(data);
  return err as AppError;
}

/** A case's status and totals as its owner reads them. */
export async function caseOf(w: ServiceWorld, orgId: number, caseCode: string) {
  const [owner] = await w.db.query<{ id: number }>('SELECT id FROM users WHERE organization_id = $1 LIMIT 1', [orgId]);
  return w.cases.detail(readerFor({ userId: Number(owner?.id ?? 0), organizationId: orgId }), caseCode);
}

/** A member reading in the portal, as the access log records it (the services' tests make no HTTP request). */
export function readerFor(auth: Pick<AuthContext, 'userId' | 'organizationId'>): Reader {
  return {
    userId: auth.userId,
    organizationId: auth.organizationId,
    appId: null,
    address: '127.0.0.1',
    userAgent: 'Other · Other',
  };
}
