import { PassThrough } from 'node:stream';
import yazl from 'yazl';
import { ExportStatus, formatSize } from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import type { Jobs } from '../../platform/jobs.js';
import type { BlobStore } from '../../platform/storage.js';
import { FileLinks } from '../files/files.service.js';
import { CasesService } from '../cases/cases.service.js';
import { EventsService } from '../events/events.service.js';
import { exportsRepository, type ExportChange } from './exports.repository.js';
import type { AccessLog, Reader } from '../audit/access-log.js';

const ALREADY_COMPRESSED = new Set(['jpg', 'jpeg', 'png', 'gif', 'mp4', 'mp3', 'webm', 'pdf']);

/** Names inside the zip: readable, unique, and free of anything a file system would trip on. */
function safeSegment(s: string) {
  return (
    s
      .replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 80)
      .trim() || '_'
  );
}

/**
 * Exports pack chosen file types of chosen cases into one zip, in a background job: one folder per
 * case with a short summary and the files, streamed from the store into the store, never held whole.
 */
export class ExportsService {
  /** Static, for an erasure (in its transaction): the bundles that hold any of the cases go whole. */
  static deleteHolding(tx: Queryable, organizationId: number, caseIds: number[]) {
    return exportsRepository.deleteHolding(tx, organizationId, caseIds);
  }

  /** Static, for the purge of a closed organization (in its transaction): its exports; answers their stored keys. */
  static deleteOfOrganization(tx: Queryable, organizationId: number) {
    return exportsRepository.deleteOfOrganization(tx, organizationId);
  }

  private readonly links: FileLinks;
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly jobs: Jobs,
    private readonly config: Config,
    private readonly accessLog: AccessLog,
  ) {
    this.links = new FileLinks(`exports:${config.jwtSecret}`);
    jobs.handle('packExport', (p) => this.pack(Number(p.exportId)));
  }

  /** Packs cases into a zip; each case packed is logged as read by the member who asked. */
  async create(reader: Reader, caseCodes: string[], types: string[]) {
    const { organizationId: orgId, userId } = reader;
    const cases = await CasesService.idsByCodes(this.db, orgId, [...new Set(caseCodes)]);
    if (cases.length !== new Set(caseCodes).size) fail('NOT_FOUND');
    const code = newCode('x');
    // The export and the job that packs it exist together or not at all.
    await this.db.transaction(async (tx) => {
      const exportId = await exportsRepository.insert(tx, {
        code,
        orgId,
        userId,
        caseIds: cases.map((c) => Number(c.id)),
        types: [...new Set(types)],
      });
      await this.jobs.enqueue('packExport', { exportId }, tx);
      await this.accessLog.readMany(
        reader,
        cases.map((c) => ({ ownerOrgId: orgId, action: 'export.create' as const, caseId: Number(c.id) })),
        tx,
      );
    });
    this.jobs.wakeUp();
    return this.status(orgId, code);
  }

  async status(orgId: number, code: string) {
    const row = await exportsRepository.find(this.db, orgId, code);
    if (!row) fail('NOT_FOUND');
    let downloadUrl: string | null = null;
    if (row.status === ExportStatus.Success) {
      const l = this.links.sign('download', row.code, this.config.fileLinkTtlSeconds);
      downloadUrl = `${this.config.publicUrl}/api/v2/export/download/${row.code}?exp=${l.exp}&sig=${l.sig}`;
    }
    return {
      exportCode: row.code,
      status: row.status,
      progress: row.progress,
      size: row.size === null ? null : Number(row.size),
      downloadUrl,
      createdAt: new Date(row.created_at).toISOString(),
    };
  }

  async openByLink(code: string, exp: number, sig: string) {
    this.links.check('download', code, exp, sig);
    const row = await exportsRepository.findPacked(this.db, code);
    if (!row?.storage_key) fail('INVALID_LINK');
    return { stream: await this.store.read(row.storage_key), size: Number(row.size), name: `export-${row.code}.zip` };
  }

  private async setState(
    id: number,
    status: number,
    progress: number,
    extra: { key?: string; size?: number; error?: string } = {},
  ) {
    await this.tell(
      await exportsRepository.setState(this.db, id, status, progress, {
        key: extra.key ?? null,
        size: extra.size ?? null,
        error: extra.error ?? null,
      }),
    );
  }

  /** The export's maker sees its progress and end live (their dialog stops asking). */
  private async tell(changes: ExportChange[]) {
    await EventsService.record(
      this.db,
      changes.map((c) => ({
        organizationId: Number(c.organization_id),
        userId: Number(c.user_id),
        kind: 'export.changed',
        subject: c.code,
        data: { status: c.status, progress: c.progress },
      })),
    );
  }

  async pack(exportId: number) {
    const row = await exportsRepository.findById(this.db, exportId);
    if (!row || row.status === ExportStatus.Success) return;
    const caseIds = row.case_ids.map(Number);
    const cases = await exportsRepository.cases(this.db, caseIds);
    const files = await exportsRepository.files(this.db, caseIds);
    const chosen = files.filter((f) => row.types.includes(f.format));
    if (!files.length) return this.setState(exportId, ExportStatus.NoFile, 100);
    if (!chosen.length) return this.setState(exportId, ExportStatus.NoRequiredFile, 100);
    await this.setState(exportId, ExportStatus.Packing, 0);

    const total = chosen.reduce((s, f) => s + Number(f.size), 0);
    let done = 0;
    let reported = 0;
    const zip = new yazl.ZipFile();
    const folders = new Set<string>();
    for (const c of cases) {
      let folder = safeSegment(`${c.patient_name} - ${c.name}`);
      if (folders.has(folder)) folder = `${folder} (${c.code})`;
      folders.add(folder);
      const mine = chosen.filter((f) => Number(f.case_id) === Number(c.id));
      const summary = [
        `Case: ${c.name}`,
        `Case ID: ${c.code}`,
        `Patient: ${c.patient_name}`,
        `Patient ID: ${c.patient_id ?? ''}`,
        `Birth date: ${c.birth_date ?? ''}`,
        `Scan date: ${c.scan_date ? new Date(c.scan_date).toISOString() : ''}`,
        `Dentist: ${c.dentist ?? ''}`,
        `Treatment: ${c.treatments.join(', ')}`,
        `Memo: ${c.memo ?? ''}`,
        '',
        'Files:',
        ...mine.map((f) => `  ${f.name} (${formatSize(Number(f.size))})`),
        '',
      ].join('\r\n');
      zip.addBuffer(Buffer.from(summary, 'utf8'), `${folder}/case.txt`);
      const names = new Set<string>();
      for (const f of mine) {
        let name = safeSegment(f.name);
        while (names.has(name)) name = `_${name}`;
        names.add(name);
        // Scans compress well but are large: a fast level. Images, media and pdf are compressed already:
        // deflating them again costs time and saves nothing, so they are stored.
        const pack = ALREADY_COMPRESSED.has(f.format) ? { compress: false } : { compressionLevel: 1 };
        zip.addReadStreamLazy(`${folder}/${name}`, { size: Number(f.size), ...pack }, (cb) => {
          this.store.read(f.storage_key).then(
            (stream) => {
              stream.on('data', (chunk: Buffer) => {
                done += chunk.length;
                const pct = Math.floor((done / total) * 99);
                if (pct >= reported + 5) {
                  reported = pct;
                  // Only while still packing: a late progress write must never undo the final status.
                  void exportsRepository
                    .setProgress(this.db, exportId, pct)
                    .then((changes) => this.tell(changes))
                    .catch(() => undefined);
                }
              });
              cb(null, stream);
            },
            // yazl reads no stream when it is given an error; its types ask for one all the same.
            (err: Error) => cb(err, undefined as unknown as NodeJS.ReadableStream),
          );
        });
      }
    }
    zip.end();
    const key = `exports/${row.code}.zip`;
    try {
      const out = new PassThrough();
      zip.outputStream.pipe(out);
      const size = await this.store.write(key, out);
      await this.setState(exportId, ExportStatus.Success, 100, { key, size });
    } catch (err) {
      await this.store.delete(key).catch(() => undefined);
      await this.setState(exportId, ExportStatus.Fail, 0, { error: String(err).slice(0, 500) });
      throw err;
    }
  }
}
