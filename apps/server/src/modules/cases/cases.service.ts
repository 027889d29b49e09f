import {
  ageInYears,
  type CaseDetail,
  type CaseFile,
  type CaseListQuery,
  type CaseSummary,
  type CreateCaseBody,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.js';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import { fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { casesRepository, type CaseRow } from './cases.repository.js';
import { filesRepository, uploadsRepository, type FileRow } from '../files/files.repository.js';

const iso = (d: Date | string | null) => (d ? (d instanceof Date ? d : new Date(d)).toISOString() : null);

export function toSummary(r: CaseRow): CaseSummary {
  return {
    caseCode: r.code,
    name: r.name,
    patientName: r.patient_name,
    patientId: r.patient_id,
    birthDate: r.birth_date,
    age: ageInYears(r.birth_date),
    scanDate: iso(r.scan_date),
    dentist: r.dentist_id ? { id: Number(r.dentist_id), name: r.dentist_name ?? '' } : null,
    treatments: r.treatments as CaseSummary['treatments'],
    status: r.status as CaseSummary['status'],
    fileCount: Number(r.file_count),
    size: Number(r.size),
    deviceSerial: r.device_serial,
    createdAt: iso(r.created_at)!,
    deletedAt: iso(r.deleted_at),
  };
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

export class CasesService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobDeletions,
    private readonly log?: FastifyBaseLogger,
  ) {}

  list(orgId: number, q: CaseListQuery) {
    return casesRepository.list(this.db, orgId, q).then(({ total, rows }) => ({ total, list: rows.map(toSummary) }));
  }

  recycleBin(orgId: number, pageNum: number, pageSize: number) {
    return casesRepository
      .list(this.db, orgId, { pageNum, pageSize, sortField: 'createdAt', sortOrder: 'desc', deleted: true })
      .then(({ total, rows }) => ({ total, list: rows.map(toSummary) }));
  }

  async detail(orgId: number, code: string): Promise<CaseDetail> {
    const row = await casesRepository.find(this.db, orgId, code);
    if (!row) fail('NOT_FOUND');
    const files = await filesRepository.byCase(this.db, Number(row.id));
    return { ...toSummary(row), memo: row.memo, files: files.map(toCaseFile) };
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
    const files = await filesRepository.byCase(this.db, caseId);
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
    await casesRepository.insert(this.db, {
      code,
      orgId,
      ...(await this.fields(orgId, input)),
      status: extra.status ?? 'registered',
      deviceId: extra.deviceId ?? null,
      createdBy: userId,
    });
    return this.detail(orgId, code);
  }

  async update(orgId: number, code: string, input: CaseInput) {
    if (!(await casesRepository.update(this.db, orgId, code, await this.fields(orgId, input)))) fail('NOT_FOUND');
    return this.detail(orgId, code);
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
      return (
        await casesRepository.softDelete(
          tx,
          cases.map((c) => Number(c.id)),
        )
      ).length;
    });
  }

  async restore(orgId: number, codes: string[]) {
    const restored = await casesRepository.restore(this.db, orgId, codes);
    if (!restored.length) fail('NOT_FOUND');
    return restored.length;
  }

  /**
   * Deletes binned cases for good, each in its own transaction so that one case that cannot be purged never holds
   * back the others; its stored bytes (files, viewer versions, uploads it was still receiving) are listed for
   * deletion in that transaction and deleted once it committed. A case that orders name stays as a tombstone
   * without files, so the laboratory's orders stay readable. Answers how many were purged and how many failed.
   */
  async purge(where: { orgId?: number; codes?: string[]; before?: Date }): Promise<{ purged: number; failed: number }> {
    const cases = await casesRepository.binned(this.db, where);
    let purged = 0;
    let failed = 0;
    for (const c of cases) {
      try {
        const keys = await this.db.transaction(async (tx) => {
          const locked = await casesRepository.lockBinned(tx, Number(c.id));
          if (!locked) return null;
          const stored = [
            ...(await filesRepository.deleteOfCase(tx, Number(c.id))),
            ...(await uploadsRepository.deleteOfCase(tx, Number(c.id))).map((id) => this.blobs.uploadKey(id)),
          ];
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

  /** A scanner says its scan is complete: uploaded when every file arrived, else scan completed. */
  async completeScan(orgId: number, deviceId: number, code: string) {
    const row = await casesRepository.scanProgress(this.db, orgId, code, deviceId);
    if (!row) fail('NOT_FOUND');
    const to = !row.uploading && row.files > 0 ? 'uploaded' : 'scanCompleted';
    await casesRepository.setStatus(this.db, Number(row.id), ['registered', 'toBeProgressed', 'scanCompleted'], to);
    return this.detail(orgId, code);
  }
}
