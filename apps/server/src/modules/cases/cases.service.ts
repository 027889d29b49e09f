import {
  ageInYears,
  type CaseDetail,
  type CaseFile,
  type CaseListQuery,
  type CaseSummary,
  type CreateCaseBody,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AccessLog, Reader } from '../audit/access-log.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import { fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { casesRepository, type CaseRow } from './cases.repository.js';
import { EventsService } from '../events/events.service.js';
import type { FileRow } from '../files/files.service.js';

const iso = (d: Date | string | null) => (d ? (d instanceof Date ? d : new Date(d)).toISOString() : null);

/** A case as the API shows it; `today` is the day ages are counted on (one clock read for a whole list). */
export function toSummary(r: CaseRow, today = new Date()): CaseSummary {
  return {
    caseCode: r.code,
    name: r.name,
    patientName: r.patient_name,
    patientId: r.patient_id,
    birthDate: r.birth_date,
    age: ageInYears(r.birth_date, today),
    scanDate: r.scan_date,
    dentist: r.dentist_id ? { id: Number(r.dentist_id), name: r.dentist_name ?? '' } : null,
    treatments: r.treatments,
    status: r.status,
    fileCount: Number(r.file_count),
    size: Number(r.size),
    deviceSerial: r.device_serial,
    createdAt: r.created_at,
    deletedAt: r.deleted_at,
    held: r.legal_hold_reason !== null,
  };
}

function summaries({ total, rows }: { total: number; rows: CaseRow[] }) {
  const today = new Date();
  return { total, list: rows.map((r) => toSummary(r, today)) };
}

export function toCaseFile(f: FileRow): CaseFile {
  return {
    fileCode: f.code,
    name: f.name,
    format: f.format as CaseFile['format'],
    kind: f.kind as CaseFile['kind'],
    jaw: f.jaw as CaseFile['jaw'],
    size: Number(f.size),
    uploadTag: 'finished',
    viewerStatus: f.viewer_status as CaseFile['viewerStatus'],
    unit: f.unit as CaseFile['unit'],
    createdAt: iso(f.created_at)!,
  };
}

type CaseInput = Omit<CreateCaseBody, 'treatments'> & { treatments: string[] };

/**
 * Cases that changed, told to the sockets of their organization's members who may see cases (the lists and the
 * case page refetch what they show): their code, how they changed, and their status when it changed.
 */
async function changed(
  tx: Queryable,
  cases: Array<{ code: string; organization_id: number; status?: string }>,
  change: 'created' | 'updated' | 'binned' | 'restored' | 'status' | 'files' | 'erased',
) {
  await EventsService.record(
    tx,
    cases.map((c) => ({
      organizationId: Number(c.organization_id),
      permission: 'case:view',
      kind: 'case.changed',
      subject: c.code,
      data: { change, ...(c.status && { status: c.status }) },
    })),
  );
}

/**
 * A case's files, which the files module keeps: given where the app is built, so cases do not import files (files
 * count themselves in their case through `CasesService`'s statics).
 */
export interface CaseFiles {
  byCase(db: Queryable, caseId: number): Promise<FileRow[]>;
  deleteOfCase(tx: Queryable, caseId: number): Promise<{ keys: string[]; uploads: string[] }>;
}

export class CasesService {
  // Static: what other modules change of a case inside their own transaction (`tx`), or read on their connection.
  // The cases table is written here and nowhere else.

  /** Locks one case's row, so the status derived from its orders is written by one transaction at a time. */
  static lock(tx: Queryable, caseId: number) {
    return casesRepository.lock(tx, caseId);
  }

  /** The case follows its order: it takes this status (keeping its update time when it has it already). */
  static async followOrder(tx: Queryable, caseId: number, status: string) {
    await changed(tx, await casesRepository.setStatusTo(tx, caseId, status), 'status');
  }

  /** The first upload to a registered case started: the case is to be progressed. */
  static async uploadStarted(tx: Queryable, caseId: number) {
    await changed(tx, await casesRepository.setStatus(tx, caseId, ['registered'], 'toBeProgressed'), 'status');
  }

  /** An upload finished: the case is uploaded once none is left unfinished (unless it has moved past scanning). */
  static async uploadFinished(tx: Queryable, caseId: number) {
    await changed(tx, await casesRepository.setUploaded(tx, caseId), 'status');
  }

  /** Files came (positive) or went (negative): the case's file count and bytes follow. */
  static async filesChanged(tx: Queryable, caseId: number, count: number, bytes: number) {
    await changed(tx, await casesRepository.addFiles(tx, caseId, count, bytes), 'files');
  }

  /** An erasure (in its transaction): the cases named, locked, that are not erased yet. */
  static lockForErasure(tx: Queryable, orgId: number, codes: string[]) {
    return casesRepository.forErasure(tx, orgId, codes, true);
  }

  /** The same cases, not locked: an erasure's check before its transaction. */
  static findForErasure(db: Queryable, orgId: number, codes: string[]) {
    return casesRepository.forErasure(db, orgId, codes, false);
  }

  /** Of an erasure's cases (by id), those not erased: what a restored older backup brought back. */
  static notErased(db: Queryable, orgId: number, ids: number[]) {
    return casesRepository.notErased(db, orgId, ids);
  }

  /**
   * Erases a case whose files, reports and shares went in the same transaction: a tombstone without the patient
   * when orders name it, else the row goes. Open screens and webhooks hear of it (`case.erased`).
   */
  static async erase(tx: Queryable, c: { id: number; code: string; has_orders: boolean }, orgId: number) {
    if (c.has_orders) await casesRepository.markErased(tx, Number(c.id));
    else await casesRepository.delete(tx, Number(c.id));
    await changed(tx, [{ code: c.code, organization_id: orgId }], 'erased');
  }

  /** An organization's purge: every case it has. */
  static deleteOfOrganization(tx: Queryable, orgId: number) {
    return casesRepository.deleteOfOrganization(tx, orgId);
  }

  /** The organization's live cases by code (unknown and binned codes are left out). */
  static idsByCodes(db: Queryable, orgId: number, codes: string[]) {
    return casesRepository.idsByCodes(db, orgId, codes);
  }

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobDeletions,
    private readonly files: CaseFiles,
    private readonly accessLog: AccessLog,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** `timezone` is the reader's: the date filter's days start at its midnight. An app's list is logged. */
  async list(reader: Reader, q: CaseListQuery, timezone = 'UTC') {
    const page = summaries(await casesRepository.list(this.db, reader.organizationId, q, timezone));
    await this.accessLog.appListed(reader, 'case.list');
    return page;
  }

  recycleBin(orgId: number, pageNum: number, pageSize: number) {
    return casesRepository
      .list(this.db, orgId, { pageNum, pageSize, sortField: 'createdAt', sortOrder: 'desc', deleted: true })
      .then(summaries);
  }

  /** A case with its files; each reading is logged. */
  async detail(reader: Reader, code: string): Promise<CaseDetail> {
    const { row, detail } = await this.load(reader.organizationId, code);
    await this.accessLog.read(reader, {
      ownerOrgId: reader.organizationId,
      action: 'case.view',
      caseId: Number(row.id),
    });
    return detail;
  }

  /** The case as a change left it, for the member who made the change (not a reading of someone's record). */
  private async changedDetail(orgId: number, code: string) {
    return (await this.load(orgId, code)).detail;
  }

  private async load(orgId: number, code: string) {
    const row = await casesRepository.find(this.db, orgId, code);
    if (!row) fail('NOT_FOUND');
    const files = await this.files.byCase(this.db, Number(row.id));
    const legalHold = row.legal_hold_reason ? { reason: row.legal_hold_reason, heldAt: row.legal_hold_at! } : null;
    return { row, detail: { ...toSummary(row), memo: row.memo, legalHold, files: files.map(toCaseFile) } };
  }

  /** The id of a live case of the organization, or 404 (a share names the case by it). */
  async idOf(orgId: number, code: string): Promise<number> {
    const row = await casesRepository.find(this.db, orgId, code);
    if (!row) fail('NOT_FOUND');
    return Number(row.id);
  }

  /** A live case with its files, for a share of it; undefined once it is gone or in the recycle bin. */
  async shared(orgId: number, caseId: number) {
    const row = await casesRepository.findById(this.db, orgId, caseId);
    if (!row) return undefined;
    const files = await this.files.byCase(this.db, caseId);
    return { row, files: files.map(toCaseFile) };
  }

  private async fields(orgId: number, input: CaseInput) {
    const dentistId = input.dentistId ? Number(input.dentistId) : null;
    if (dentistId) {
      if (!(await casesRepository.hasDentist(this.db, orgId, dentistId)))
        fail('PARAM_INVALID', { field: 'dentistId' }, { field: 'dentistId' });
    }
    if (input.birthDate && ageInYears(input.birthDate) === null)
      fail('PARAM_INVALID', { field: 'birthDate' }, { field: 'birthDate' });
    return {
      name: input.name,
      patientName: input.patientName,
      patientId: input.patientId || null,
      birthDate: input.birthDate || null,
      scanDate: input.scanDate || null,
      dentistId,
      treatments: [...new Set(input.treatments)],
      memo: input.memo || null,
    };
  }

  async create(
    orgId: number,
    userId: number | null,
    input: CaseInput,
    extra: { deviceId?: number; status?: string } = {},
  ) {
    const code = newCode('c');
    const status = extra.status ?? 'registered';
    const fields = await this.fields(orgId, input);
    await this.db.transaction(async (tx) => {
      await casesRepository.insert(tx, {
        code,
        orgId,
        ...fields,
        status,
        deviceId: extra.deviceId ?? null,
        createdBy: userId,
      });
      await changed(tx, [{ code, organization_id: orgId, status }], 'created');
    });
    return this.changedDetail(orgId, code);
  }

  async update(orgId: number, code: string, input: CaseInput) {
    const fields = await this.fields(orgId, input);
    await this.db.transaction(async (tx) => {
      if (!(await casesRepository.update(tx, orgId, code, fields))) fail('NOT_FOUND');
      await changed(tx, [{ code, organization_id: orgId }], 'updated');
    });
    return this.changedDetail(orgId, code);
  }

  /**
   * Moves cases to the recycle bin, all or none. A case whose order is still running stays where it is: the
   * laboratory works from its files (decided in docs/product-decisions.md).
   */
  async moveToBin(orgId: number, codes: string[]) {
    return this.db.transaction(async (tx) => {
      const cases = await casesRepository.lockActive(tx, orgId, codes);
      if (!cases.length) fail('NOT_FOUND');
      const open = await casesRepository.openOrders(
        tx,
        cases.map((c) => Number(c.id)),
      );
      if (open.length) {
        const blocked = cases.find((c) => Number(c.id) === Number(open[0]!.case_id))!;
        const orders = open.filter((o) => Number(o.case_id) === Number(blocked.id)).map((o) => o.code);
        fail(
          'CASE_HAS_OPEN_ORDER',
          { case: blocked.name, orders: orders.join(', ') },
          { caseCode: blocked.code, orders },
        );
      }
      const binned = await casesRepository.softDelete(
        tx,
        cases.map((c) => Number(c.id)),
      );
      await changed(
        tx,
        binned.map((b) => ({ code: b.code, organization_id: orgId })),
        'binned',
      );
      return binned.length;
    });
  }

  async restore(orgId: number, codes: string[]) {
    return this.db.transaction(async (tx) => {
      const restored = await casesRepository.restore(tx, orgId, codes);
      if (!restored.length) fail('NOT_FOUND');
      await changed(
        tx,
        restored.map((r) => ({ code: r.code, organization_id: orgId })),
        'restored',
      );
      return restored.length;
    });
  }

  /**
   * Deletes binned cases for good, each in its own transaction so that one case that cannot be purged never holds
   * back the others; its stored bytes (files, viewer versions, uploads it was still receiving) are listed for
   * deletion in that transaction and deleted once it committed. A case that orders name stays as a tombstone
   * without files, so the laboratory's orders stay readable. Answers how many were purged and how many failed.
   */
  async purge(where: { orgId?: number; codes?: string[]; before?: Date }): Promise<{ purged: number; failed: number }> {
    // Named cases under a legal hold are refused, not skipped in silence (a bin emptied whole keeps them).
    if (
      where.orgId !== undefined &&
      where.codes &&
      (await casesRepository.heldOf(this.db, where.orgId, where.codes)).length
    )
      fail('LEGAL_HOLD');
    const cases = await casesRepository.binned(this.db, where);
    let purged = 0;
    let failed = 0;
    for (const c of cases) {
      try {
        const keys = await this.db.transaction(async (tx) => {
          const locked = await casesRepository.lockBinned(tx, Number(c.id));
          if (!locked) return null;
          const { keys: files, uploads } = await this.files.deleteOfCase(tx, Number(c.id));
          const stored = [...files, ...uploads.map((id) => this.blobs.uploadKey(id))];
          if (locked.has_orders) await casesRepository.markPurged(tx, Number(c.id));
          else await casesRepository.delete(tx, Number(c.id));
          await this.blobs.list(tx, stored);
          return stored;
        });
        if (!keys) continue;
        purged += 1;
        await this.blobs.delete(keys);
      } catch (err) {
        failed += 1;
        this.log?.error({ err, caseId: c.id }, 'case purge failed');
      }
    }
    return { purged, failed };
  }

  /** Sets (with its reason) or releases (null) a case's legal hold: while held it is neither erased nor purged. */
  async setLegalHold(orgId: number, userId: number, code: string, reason: string | null) {
    const row = await casesRepository.setLegalHold(this.db, orgId, code, reason === null ? null : { reason, userId });
    if (!row) fail('NOT_FOUND');
    return {
      caseCode: row.code,
      legalHold: row.legal_hold_reason ? { reason: row.legal_hold_reason, heldAt: row.legal_hold_at! } : null,
    };
  }

  /** A scanner says its scan is complete: uploaded when every file arrived, else scan completed. */
  async completeScan(orgId: number, deviceId: number, code: string) {
    const row = await casesRepository.scanProgress(this.db, orgId, code, deviceId);
    if (!row) fail('NOT_FOUND');
    const to = !row.uploading && row.files > 0 ? 'uploaded' : 'scanCompleted';
    await this.db.transaction(async (tx) =>
      changed(
        tx,
        await casesRepository.setStatus(tx, Number(row.id), ['registered', 'toBeProgressed', 'scanCompleted'], to),
        'status',
      ),
    );
    return this.changedDetail(orgId, code);
  }
}
