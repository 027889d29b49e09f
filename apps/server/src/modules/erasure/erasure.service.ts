import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ErasureBody, ErasureCertificate } from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import type { Db } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { readAll, type BlobStore } from '../../platform/storage.js';
import { AccessLog } from '../audit/access-log.js';
import { CasesService } from '../cases/cases.service.js';
import { ExportsService } from '../exports/exports.service.js';
import { FilesService } from '../files/files.service.js';
import { OrdersService } from '../orders/orders.service.js';
import { ReportsService } from '../reports/reports.service.js';
import { SharesService } from '../shares/shares.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { erasureRepository, type ErasureRow } from './erasure.repository.js';

/**
 * One erasure as the file store's ledger keeps it: enough to erase again after a restore (ids, codes, who, why), and
 * nothing of the patient.
 */
interface LedgerEntry {
  format: 'portal-erasure';
  version: 1;
  code: string;
  organizationId: number;
  userId: number | null;
  reason: string;
  caseIds: number[];
  caseCodes: string[];
  at: string;
}

const LEDGER_MAX_BYTES = 64 * 1024;
const ledgerKey = (code: string) => `erasures/${code}.json`;

function toCertificate(r: ErasureRow): ErasureCertificate {
  return { ...r.certificate, userCode: r.user_code, userName: r.user_name };
}

function parseLedger(text: string): LedgerEntry | null {
  try {
    const e = JSON.parse(text) as Partial<LedgerEntry>;
    const ok =
      e.format === 'portal-erasure' &&
      e.version === 1 &&
      typeof e.code === 'string' &&
      Number.isSafeInteger(e.organizationId) &&
      Array.isArray(e.caseIds) &&
      e.caseIds.every((id) => Number.isSafeInteger(id)) &&
      Array.isArray(e.caseCodes) &&
      e.caseCodes.every((c) => typeof c === 'string') &&
      typeof e.reason === 'string';
    return ok ? (e as LedgerEntry) : null;
  } catch {
    return null;
  }
}

/**
 * Erasing a patient's data on request (docs/product-decisions.md, "Erasing a patient's data"). Each table goes
 * through the module that owns it, in one transaction; stored bytes are listed for deletion in it and removed once it
 * committed (what the store refuses stays listed for the upkeep's sweep). The erasure is written to the store's
 * ledger before anything is erased, and `replay` erases again whatever a restored backup brought back.
 */
export class ErasureService {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly blobs: BlobDeletions,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async erase(orgId: number, userId: number, body: ErasureBody): Promise<ErasureCertificate> {
    const codes = [...new Set(body.caseCodes)];
    // Checked before the ledger is written, so a refused request leaves no entry to replay (checked again, locked,
    // in the transaction).
    const found = await CasesService.findForErasure(this.db, orgId, codes);
    this.refuse(found, codes);
    const entry: LedgerEntry = {
      format: 'portal-erasure',
      version: 1,
      code: `er${Date.now().toString(36)}${randomBytes(6).toString('hex')}`,
      organizationId: orgId,
      userId,
      reason: body.reason,
      caseIds: found.map((c) => Number(c.id)),
      caseCodes: found.map((c) => c.code),
      at: new Date().toISOString(),
    };
    await this.store.write(ledgerKey(entry.code), Readable.from([JSON.stringify(entry)]));
    try {
      await this.apply(entry);
    } catch (err) {
      // Refused after all (a hold set meanwhile): nothing was erased, and nothing is left to replay.
      if (err instanceof AppError) await this.store.delete(ledgerKey(entry.code)).catch(() => undefined);
      throw err;
    }
    return this.get(orgId, entry.code);
  }

  async list(orgId: number, q: { pageNum: number; pageSize: number }) {
    const { total, rows } = await erasureRepository.page(this.db, orgId, q.pageSize, (q.pageNum - 1) * q.pageSize);
    return { total, list: rows.map(toCertificate) };
  }

  async get(orgId: number, code: string) {
    const row = await erasureRepository.find(this.db, orgId, code);
    if (!row) fail('NOT_FOUND');
    return toCertificate(row);
  }

  /**
   * Erases again what the ledger says was erased but the database does not know of (it was restored from a backup
   * older than the erasure). Run at start, before the portal answers, and by the upkeep. Answers how many erasures
   * were applied again; one that cannot be (a legal hold set since, an organization gone) is logged and left.
   */
  async replay(): Promise<{ replayed: number; skipped: number }> {
    const keys = await this.store.list('erasures');
    const codes = keys.map((k) => k.slice('erasures/'.length).replace(/\.json$/, ''));
    const known = await erasureRepository.known(this.db, codes);
    let replayed = 0;
    let skipped = 0;
    for (const key of keys) {
      const code = key.slice('erasures/'.length).replace(/\.json$/, '');
      if (known.has(code)) continue;
      const entry = parseLedger((await readAll(await this.store.read(key), LEDGER_MAX_BYTES)).toString('utf8'));
      if (!entry || entry.code !== code) {
        this.log?.error({ key }, 'erasure ledger entry unreadable');
        skipped += 1;
        continue;
      }
      if (!(await erasureRepository.organizationExists(this.db, entry.organizationId))) continue;
      try {
        await this.apply(entry);
        replayed += 1;
        this.log?.warn({ erasure: code }, 'erasure applied again after a restore');
      } catch (err) {
        skipped += 1;
        this.log?.error({ err, erasure: code }, 'erasure could not be applied again');
      }
    }
    return { replayed, skipped };
  }

  /** All named cases found, none held. */
  private refuse(found: Array<{ code: string; legal_hold_reason: string | null }>, codes: string[]) {
    if (found.length < codes.length) fail('NOT_FOUND');
    const held = found.filter((c) => c.legal_hold_reason !== null).map((c) => c.code);
    if (held.length) fail('LEGAL_HOLD', undefined, { caseCodes: held });
  }

  /** The erasure itself, in one transaction, then the stored bytes. */
  private async apply(entry: LedgerEntry) {
    const orgId = entry.organizationId;
    const outcome = await this.db.transaction(async (tx) => {
      // On a replay, the cases as the restored database has them: those erased since are left alone.
      const locked = await CasesService.lockForErasure(tx, orgId, entry.caseCodes);
      if ((await erasureRepository.known(tx, [entry.code])).size) return null;
      const live = locked.filter((c) => entry.caseIds.includes(Number(c.id)));
      const held = live.filter((c) => c.legal_hold_reason !== null).map((c) => c.code);
      if (held.length) fail('LEGAL_HOLD', undefined, { caseCodes: held });
      const keys: string[] = [];
      const cases: ErasureCertificate['cases'] = [];
      for (const c of live) {
        const caseId = Number(c.id);
        const shares = await SharesService.deleteOfCase(tx, caseId);
        const reports = await ReportsService.deleteOfCase(tx, caseId);
        const orders = await OrdersService.eraseOfCase(tx, caseId);
        await FilesService.release(tx, orders.attachments);
        const files = await FilesService.deleteOfCase(tx, caseId);
        await CasesService.erase(tx, c, orgId);
        keys.push(
          ...files.keys,
          ...files.uploads.map((id) => this.blobs.uploadKey(id)),
          ...reports.snapshotKeys,
          ...orders.attachments.map((a) => a.key),
        );
        cases.push({
          caseCode: c.code,
          files: Number(c.file_count),
          bytes: Number(c.file_bytes),
          reports: reports.reports,
          shares,
          attachments: orders.attachments.length,
          orderCodes: orders.orderCodes,
        });
      }
      const ids = live.map((c) => Number(c.id));
      const exports = await ExportsService.deleteHolding(tx, orgId, ids);
      keys.push(...exports.flatMap((e) => (e.key ? [e.key] : [])));
      await this.blobs.list(tx, keys);
      const certificate: Omit<ErasureCertificate, 'userCode' | 'userName'> = {
        erasureCode: entry.code,
        erasedAt: new Date().toISOString(),
        reason: entry.reason,
        cases,
        exportCodes: exports.map((e) => e.code),
        webhookEndpoints: await WebhooksService.countReceiving(tx, orgId, 'case.erased'),
        appCodes: await AccessLog.appsThatRead(tx, orgId, ids),
        pendingBlobs: keys.length,
      };
      await erasureRepository.insert(tx, {
        code: entry.code,
        orgId,
        userId: entry.userId,
        reason: entry.reason,
        caseIds: ids,
        certificate,
      });
      return keys;
    });
    if (!outcome) return;
    const deleted = await this.blobs.delete(outcome);
    await erasureRepository.setPendingBlobs(this.db, entry.code, outcome.length - deleted);
  }
}
