import { Readable } from 'node:stream';
import {
  dateInTimeZone,
  normalizeToothNumbering,
  REPORT_LABEL_KEYS,
  REPORT_LIMITS,
  ReportContent,
  type ReportDetail,
  type ReportImageRef,
  type ReportSnapshot,
  type ReportSummary,
  type ReportView,
  type SnapshotView,
} from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import type { BlobDeletions } from '../../platform/blob-deletions.js';
import { fail, invalidField } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { t } from '../../platform/i18n.js';
import { readAll, type BlobStore } from '../../platform/storage.js';
import { contentMatches } from '../files/content-check.js';
import type { FilesService } from '../files/files.service.js';
import { reportsRepository, type CaseFileRef, type ReportRow } from './reports.repository.js';
import { plainContent } from './report-text.js';
import type { ReportPdfRenderer } from './pdf-renderer.js';
import type { AccessLog, Reader } from '../audit/access-log.js';

/** Case pictures a report (and its PDF) can show. */
const PICTURE_FORMATS = new Set(['jpg', 'jpeg', 'png']);

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const sameContent = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface ReportAuthor {
  userId: number;
  displayName: string;
  toothNumberingSystem: string;
  /** Where the author works: a version published today is dated with this timezone's today. */
  timeZone?: string;
}

/** The labels of the patient's report in a language (packages/contracts/locales/<lang>/report.json). */
export function reportLabels(language: string): Record<string, string> {
  return Object.fromEntries(
    REPORT_LABEL_KEYS.map((key) => [key, t(language, `report:${key}`, { n: '{{n}}', total: '{{total}}' })]),
  );
}

export class ReportsService {
  /** Static, for an erasure (in its transaction): the case's reports with their versions and snapshots. */
  static deleteOfCase(tx: Queryable, caseId: number) {
    return reportsRepository.deleteOfCase(tx, caseId);
  }

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly files: FilesService,
    private readonly blobs: BlobDeletions,
    private readonly pdfs: ReportPdfRenderer,
    private readonly accessLog: AccessLog,
  ) {}

  private content(row: ReportRow): ReportContent {
    return ReportContent.parse(row.draft);
  }

  private summary(row: ReportRow): ReportSummary {
    const draft = this.content(row);
    return {
      reportCode: row.code,
      caseCode: row.case_code,
      title: row.title,
      language: draft.language,
      status: row.version > 0 ? 'published' : 'draft',
      version: Number(row.version),
      changedSincePublished: row.version > 0 && !sameContent(row.published, row.draft),
      findingCount: draft.findings.length,
      createdAt: iso(row.created_at)!,
      updatedAt: iso(row.updated_at)!,
      publishedAt: iso(row.published_at),
    };
  }

  private async find(orgId: number, reportCode: string) {
    const row = await reportsRepository.find(this.db, orgId, reportCode);
    if (!row) fail('NOT_FOUND');
    return row;
  }

  /** Whether the organization still has the report (its case not in the recycle bin). */
  async exists(orgId: number, reportId: number): Promise<boolean> {
    const row = await reportsRepository.findById(this.db, reportId);
    return row !== undefined && Number(row.organization_id) === orgId;
  }

  async list(orgId: number, caseCode: string) {
    const caseId = await reportsRepository.findCase(this.db, orgId, caseCode);
    if (!caseId) fail('NOT_FOUND');
    return { list: (await reportsRepository.listByCase(this.db, caseId)).map((r) => this.summary(r)) };
  }

  /** A new draft for a case, in the author's language and tooth numbering. */
  async create(orgId: number, author: ReportAuthor & { language: string }, caseCode: string, title?: string) {
    const caseId = await reportsRepository.findCase(this.db, orgId, caseCode);
    if (!caseId) fail('NOT_FOUND');
    const code = newCode('r');
    const draft = plainContent(
      ReportContent.parse({
        title: title ?? '',
        language: author.language,
        numbering: normalizeToothNumbering(author.toothNumberingSystem),
      }),
    );
    await reportsRepository.insert(this.db, {
      code,
      orgId,
      caseId,
      title: draft.title,
      draft,
      userId: author.userId,
    });
    return this.changedDetail(orgId, code);
  }

  /** The report in its editor; each opening is logged as a read of the patient's data. */
  async detail(reader: Reader, reportCode: string): Promise<ReportDetail> {
    const row = await this.find(reader.organizationId, reportCode);
    await this.logRead(reader, row, 'report.view');
    return this.detailOf(row);
  }

  /** The report as a change left it, for the member who made the change. */
  private async changedDetail(orgId: number, reportCode: string) {
    return this.detailOf(await this.find(orgId, reportCode));
  }

  private async detailOf(row: ReportRow): Promise<ReportDetail> {
    const [snapshots, versions] = await Promise.all([
      reportsRepository.snapshots(this.db, Number(row.id)),
      reportsRepository.versions(this.db, Number(row.id)),
    ]);
    return {
      ...this.summary(row),
      content: this.content(row),
      snapshots: snapshots.map((s): ReportSnapshot => ({
        code: s.code,
        view: s.view as SnapshotView,
        size: Number(s.size),
        createdAt: iso(s.created_at)!,
      })),
      versions: versions.map((v) => ({
        version: Number(v.version),
        publishedAt: iso(v.published_at)!,
        publishedBy: v.published_by_name,
      })),
      patientName: row.patient_name,
      organizationName: row.organization_name,
    };
  }

  /**
   * Saves the draft (the designer saves as the dentist types). Every scan and picture it names must be the case's,
   * every snapshot the report's: another case's file answers 400 naming the field, and nothing is saved.
   */
  async save(orgId: number, reportCode: string, input: ReportContent) {
    const row = await this.find(orgId, reportCode);
    const content = plainContent(input);
    await this.checkReferences(row, content);
    await reportsRepository.saveDraft(this.db, Number(row.id), content.title, content);
    return this.summary((await reportsRepository.find(this.db, orgId, reportCode))!);
  }

  private async checkReferences(row: ReportRow, content: ReportContent) {
    const files = new Map(
      (await reportsRepository.caseFiles(this.db, Number(row.case_id))).map((f) => [f.code, f] as const),
    );
    content.scans.forEach((code, i) => {
      if (files.get(code)?.kind !== 'model') invalidField(`content.scans.${i}`, 'paramInvalid');
    });
    const snapshots = new Set((await reportsRepository.snapshots(this.db, Number(row.id))).map((s) => s.code));
    const seen = new Set<string>();
    content.images.forEach((image, i) => {
      const file = files.get(image.code);
      const known =
        image.source === 'snapshot' ? snapshots.has(image.code) : !!file && PICTURE_FORMATS.has(file.format);
      if (!known || seen.has(`${image.source}:${image.code}`)) invalidField(`content.images.${i}.code`, 'paramInvalid');
      seen.add(`${image.source}:${image.code}`);
    });
    const teeth = new Set<string>();
    content.findings.forEach((f, i) => {
      if (teeth.has(`${f.tooth}:${f.category}`)) invalidField(`content.findings.${i}.tooth`, 'paramInvalid');
      teeth.add(`${f.tooth}:${f.category}`);
    });
  }

  /**
   * Publishes the draft as the next version (the patient's link shows the latest). A draft without a summary for
   * the patient is refused, naming the field; publishing a draft unchanged since the last version makes no new one.
   */
  async publish(orgId: number, author: ReportAuthor, reportCode: string) {
    const row = await this.find(orgId, reportCode);
    const draft = this.content(row);
    if (!draft.summary) invalidField('content.summary', 'paramInvalid');
    await this.checkReferences(row, draft);
    await this.db.transaction(async (tx) => {
      const locked = await reportsRepository.lock(tx, Number(row.id));
      if (!locked) fail('NOT_FOUND');
      const latest = locked.version
        ? await reportsRepository.versionContent(tx, Number(row.id), Number(locked.version))
        : undefined;
      if (latest !== undefined && sameContent(latest, locked.draft)) return;
      await reportsRepository.addVersion(tx, {
        reportId: Number(row.id),
        version: Number(locked.version) + 1,
        content: locked.draft,
        userId: author.userId,
        userName: author.displayName,
        publishedOn: dateInTimeZone(new Date(), author.timeZone ?? 'UTC'),
      });
    });
    return this.changedDetail(orgId, reportCode);
  }

  async delete(orgId: number, reportCode: string) {
    const row = await this.find(orgId, reportCode);
    const keys = await this.db.transaction((tx) => reportsRepository.delete(tx, Number(row.id)));
    await this.blobs.delete(keys);
  }

  /** Stores a PNG taken from the 3D viewer, checked by content and counted against the organization's storage. */
  async addSnapshot(orgId: number, reportCode: string, view: SnapshotView, body: Readable & { truncated?: boolean }) {
    const row = await this.find(orgId, reportCode);
    const bytes = await readAll(body, REPORT_LIMITS.snapshotBytes + 1);
    if (body.truncated || bytes.length > REPORT_LIMITS.snapshotBytes)
      fail('FILE_TOO_LARGE', { mb: REPORT_LIMITS.snapshotBytes / 1024 / 1024 });
    if (!(await contentMatches('png', new Uint8Array(bytes), bytes.length)))
      fail('FILE_CONTENT_MISMATCH', { format: 'png' });
    if ((await reportsRepository.snapshotCount(this.db, Number(row.id))) >= REPORT_LIMITS.snapshots)
      fail('TOO_MANY_FILES');
    const code = newCode('s');
    const key = `reports/${code}.png`;
    const size = await this.store.write(key, Readable.from([bytes]));
    try {
      await this.db.transaction(async (tx) => {
        await this.files.charge(tx, orgId, size);
        await reportsRepository.insertSnapshot(tx, { code, reportId: Number(row.id), orgId, view, size, key });
      });
    } catch (err) {
      await this.store.delete(key).catch(() => undefined);
      throw err;
    }
    return { code, view, size, createdAt: new Date().toISOString() } satisfies ReportSnapshot;
  }

  /** Deletes a snapshot; the draft stops showing it (published versions keep theirs until the report goes). */
  async deleteSnapshot(orgId: number, reportCode: string, snapshotCode: string) {
    const row = await this.find(orgId, reportCode);
    const draft = this.content(row);
    const published = await reportsRepository.versions(this.db, Number(row.id));
    const inVersion = await Promise.all(
      published.map((v) => reportsRepository.versionContent(this.db, Number(row.id), Number(v.version))),
    );
    const keptByVersion = inVersion.some((c) =>
      ReportContent.parse(c).images.some((i) => i.source === 'snapshot' && i.code === snapshotCode),
    );
    const key = await this.db.transaction(async (tx) => {
      const removed = keptByVersion ? 'kept' : await reportsRepository.deleteSnapshot(tx, Number(row.id), snapshotCode);
      if (!removed) fail('NOT_FOUND');
      const images = draft.images.filter((i) => !(i.source === 'snapshot' && i.code === snapshotCode));
      await reportsRepository.saveDraft(tx, Number(row.id), draft.title, { ...draft, images });
      return removed === 'kept' ? undefined : removed;
    });
    // The trigger listed the blob in that transaction; it goes now (the upkeep would sweep it otherwise).
    if (key) await this.blobs.delete([key]);
  }

  private async viewOf(row: ReportRow, version: number | undefined): Promise<ReportView> {
    let content: ReportContent;
    let publishedAt: string | null = null;
    if (version === undefined) content = this.content(row);
    else {
      const stored = await reportsRepository.versionContent(this.db, Number(row.id), version);
      if (stored === undefined) fail('NOT_FOUND');
      content = ReportContent.parse(stored);
      publishedAt =
        iso(
          (await reportsRepository.versions(this.db, Number(row.id))).find((v) => Number(v.version) === version)
            ?.published_at ?? null,
        ) ?? null;
    }
    const labels = reportLabels(content.language);
    const files = new Map(
      (await reportsRepository.caseFiles(this.db, Number(row.case_id))).map((f) => [f.code, f] as const),
    );
    const snapshots = new Map((await reportsRepository.snapshots(this.db, Number(row.id))).map((s) => [s.code, s]));
    const images = content.images
      .filter((i) => (i.source === 'file' ? files.has(i.code) : snapshots.has(i.code)))
      .map((i) => ({
        ...i,
        caption:
          i.source === 'file'
            ? files.get(i.code)!.name
            : (labels[`views.${snapshots.get(i.code)!.view}`] ?? snapshots.get(i.code)!.view),
      }));
    return {
      reportCode: row.code,
      caseCode: row.case_code,
      version: version ?? 0,
      publishedAt,
      content: { ...content, images: images.map(({ source, code }) => ({ source, code })) },
      labels,
      patientName: row.patient_name,
      organizationName: row.organization_name,
      images,
    };
  }

  /** The report as the patient sees it: the draft, or a published version. */
  async view(reader: Reader, reportCode: string, version?: number) {
    const row = await this.find(reader.organizationId, reportCode);
    const view = await this.viewOf(row, version);
    await this.logRead(reader, row, 'report.view');
    return view;
  }

  private logRead(reader: Reader, row: ReportRow, action: 'report.view' | 'report.pdf') {
    return this.accessLog.read(reader, {
      ownerOrgId: Number(row.organization_id),
      action,
      caseId: Number(row.case_id),
      reportId: Number(row.id),
    });
  }

  /**
   * A report to share: its id when the organization has it and has published it (a draft is never shared; the
   * share shows whatever version is the latest when it is opened).
   */
  async shareableId(orgId: number, reportCode: string, { mustBePublished }: { mustBePublished: boolean }) {
    const row = await this.find(orgId, reportCode);
    if (mustBePublished && !row.version) fail('REPORT_NOT_PUBLISHED');
    return Number(row.id);
  }

  /**
   * What a public report page needs: the latest published version of a report, by its id alone (the caller, a
   * share, has already decided the visitor may see it). Null when the report is gone or was never published.
   */
  async latestPublished(reportId: number): Promise<ReportView | null> {
    const row = await reportsRepository.findById(this.db, reportId);
    if (!row || !row.version) return null;
    return this.viewOf(row, Number(row.version));
  }

  /** A picture of a report (a case picture it may show or one of its snapshots), for the signed-in designer. */
  async image(orgId: number, reportCode: string, ref: ReportImageRef) {
    const row = await this.find(orgId, reportCode);
    return this.openImage(row, ref);
  }

  /** A picture the latest published version shows (for a public report page); null otherwise. */
  async publishedImage(reportId: number, ref: ReportImageRef) {
    const view = await this.latestPublished(reportId);
    if (!view?.images.some((i) => i.source === ref.source && i.code === ref.code)) return null;
    return this.openImage((await reportsRepository.findById(this.db, reportId))!, ref);
  }

  private async openImage(row: ReportRow, ref: ReportImageRef) {
    if (ref.source === 'snapshot') {
      const s = (await reportsRepository.snapshots(this.db, Number(row.id))).find((x) => x.code === ref.code);
      if (!s) fail('NOT_FOUND');
      return { format: 'png', size: Number(s.size), stream: await this.store.read(s.storage_key) };
    }
    const file = (await reportsRepository.caseFiles(this.db, Number(row.case_id))).find(
      (f: CaseFileRef) => f.code === ref.code,
    );
    if (!file || !PICTURE_FORMATS.has(file.format)) fail('NOT_FOUND');
    return { format: file.format, size: null, stream: await this.store.read(file.storage_key) };
  }

  /**
   * The report's PDF (the draft, or a published version): A4, or Letter for the US and Canada region. A version prints
   * the day it was published; the draft, the day it was last changed in the reader's timezone.
   */
  async pdf(reader: Reader, reportCode: string, version?: number, timeZone = 'UTC') {
    const row = await this.find(reader.organizationId, reportCode);
    const made = await this.pdfOf(row, await this.viewOf(row, version), timeZone);
    await this.logRead(reader, row, 'report.pdf');
    return made;
  }

  /** The latest published version's PDF (for a public report page); null when there is none. */
  async latestPublishedPdf(reportId: number) {
    const view = await this.latestPublished(reportId);
    if (!view) return null;
    return this.pdfOf((await reportsRepository.findById(this.db, reportId))!, view);
  }

  private async pdfOf(row: ReportRow, view: ReportView, timeZone = 'UTC') {
    const images = await Promise.all(
      view.images.map(async (i) => ({
        caption: i.caption,
        bytes: new Uint8Array(await readAll((await this.openImage(row, i)).stream)),
      })),
    );
    const date = view.version
      ? (await reportsRepository.versions(this.db, Number(row.id))).find((v) => Number(v.version) === view.version)!
          .published_on
      : dateInTimeZone(new Date(row.updated_at), timeZone);
    const pdf = await this.pdfs.render({
      content: view.content,
      labels: view.labels,
      patientName: view.patientName,
      organizationName: view.organizationName,
      paper: row.organization_region === 'us' ? 'LETTER' : 'A4',
      version: view.version,
      date,
      images,
    });
    const base = (view.content.title || view.labels.title!).replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 80);
    return { pdf, fileName: `${base}${view.version ? `-v${view.version}` : ''}.pdf` };
  }
}
