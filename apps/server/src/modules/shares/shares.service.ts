import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Permission,
  SHARE_PAGES,
  SHARE_PASSWORD,
  type CreateShareBody,
  type Language,
  type ShareAccessKind,
  type ShareItem,
  type ShareResourceType,
  type ShareStatus,
  type ShareView,
  type SharedFile,
  type SharedReport,
  type ReportImageRef,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext, Permissions } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/crypto.js';
import { fail, invalidField } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import type { CasesService } from '../cases/cases.service.js';
import type { FilesService } from '../files/files.service.js';
import type { OrdersService } from '../orders/orders.service.js';
import type { ReportsService } from '../reports/reports.service.js';
import { sharesRepository, type PublicShareRow, type ShareListRow, type ShareRow } from './shares.repository.js';
import { addressHash, coarseUserAgent } from '../audit/visitor.js';
import type { AccessLog, Reader } from '../audit/access-log.js';

const DAY_MS = 86_400_000;
export type ShareFilePurpose = 'download' | 'viewer';
/** What a signed link of a share opens: a file's original or viewer version, a report's picture or its PDF. */
type LinkPurpose = ShareFilePurpose | 'image' | 'pdf';
/** The mail that carries each kind of link. */
/** The public route of each kind of signed link (below /api/v2/share/). */
const LINK_ROUTES: Record<LinkPurpose, string> = {
  download: 'file',
  viewer: 'viewer',
  image: 'report-image',
  pdf: 'report-pdf',
};
/** What seeing a share's resource takes: the same right as seeing the resource itself. */
export const SHARE_VIEW_PERMISSIONS: Record<ShareResourceType, string> = {
  case: 'case:view',
  order: 'order:view',
  report: 'report:view',
};
/** Who a share's link is mailed to: the address, the greeting's name and the language. */
export interface ShareRecipient {
  email: string;
  name?: string;
  language: Language;
}
const SHARE_MAILS: Record<ShareResourceType, string> = {
  case: 'shareCase',
  order: 'shareOrder',
  report: 'shareReport',
};
/** Who opened a share, as far as the access log keeps it. */
export interface Visitor {
  address: string;
  userAgent: string | undefined;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function statusOf(s: ShareRow, now = Date.now()): ShareStatus {
  if (s.revoked_at) return 'revoked';
  if (s.expires_at && new Date(s.expires_at).getTime() <= now) return 'expired';
  return 'active';
}
/** Whole days left, rounded up (a link expiring in 2 hours has 1 day left); null when it never expires or is over. */
function remainingDays(s: ShareRow, now = Date.now()): number | null {
  if (!s.expires_at || statusOf(s, now) !== 'active') return null;
  return Math.max(1, Math.ceil((new Date(s.expires_at).getTime() - now) / DAY_MS));
}

/** An ended (or unknown) link: 2009 for a report's, 2020 for the others (spec §8), naming the sharer when known. */
function ended(share: { resource_type: ShareResourceType; organization_name: string } | undefined): never {
  fail(
    share?.resource_type === 'report' ? 'REPORT_LINK_EXPIRED' : 'LINK_EXPIRED',
    {},
    {
      organizationName: share?.organization_name ?? null,
    },
  );
}

/**
 * Share links: a case, an order or a published report opened by whoever holds the link, behind an optional
 * password, until it expires or the sharer revokes it. Files, report pictures and PDFs go out through links signed
 * for the share and its version, checked against the live share on every request, so a revoked share's links stop
 * working at once.
 */
export class SharesService {
  /** Static, for an erasure (in its transaction): every link to the case, its reports and its orders. */
  static deleteOfCase(tx: Queryable, caseId: number) {
    return sharesRepository.deleteOfCase(tx, caseId);
  }

  constructor(
    private readonly db: Db,
    private readonly cases: CasesService,
    private readonly orders: OrdersService,
    private readonly reports: ReportsService,
    private readonly files: FilesService,
    private readonly permissions: Permissions,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly accessLog: AccessLog,
  ) {}

  private secret(purpose: string) {
    return `share-${purpose}:${this.config.jwtSecret}`;
  }

  private pageUrl(s: ShareRow) {
    return `${this.config.publicUrl}${SHARE_PAGES[s.resource_type]}?code=${s.code}`;
  }

  /**
   * The resource's id when the caller can see it, else 404 (another organization's, or gone). A new share of a
   * report needs a published version (2010): the link never shows a draft.
   */
  private async resourceId(auth: AuthContext, type: ShareResourceType, code: string, forNewShare = false) {
    if (type === 'case') return this.cases.idOf(auth.organizationId, code);
    if (type === 'order') return this.orders.idOf(auth, code);
    return this.reports.shareableId(auth.organizationId, code, { mustBePublished: forNewShare });
  }

  /** Whether the caller may end, mail and read the log of shares other members made (share:manage). */
  private manages(auth: AuthContext) {
    return this.permissions.has(auth, Permission.ShareManage);
  }

  private toItem(s: ShareListRow, resourceCode: string, auth: AuthContext, admin: boolean): ShareItem {
    return {
      shareCode: s.code,
      resourceType: s.resource_type,
      resourceCode,
      url: this.pageUrl(s),
      hasPassword: s.password_hash !== null,
      showPatientName: s.show_patient_name,
      status: statusOf(s),
      expiresAt: iso(s.expires_at),
      remainingDays: remainingDays(s),
      views: Number(s.views),
      lastViewedAt: iso(s.last_viewed_at),
      createdBy: s.creator_name ?? '',
      createdAt: iso(s.created_at)!,
      revokedAt: iso(s.revoked_at),
      canRevoke: admin || Number(s.created_by) === auth.userId,
    };
  }

  async create(auth: AuthContext, body: CreateShareBody, reader: Reader): Promise<ShareItem> {
    const password = body.password ?? '';
    if (password && password.length < SHARE_PASSWORD.min)
      invalidField('password', 'paramTooShort', { n: SHARE_PASSWORD.min });
    const resourceId = await this.resourceId(auth, body.resourceType, body.resourceCode, true);
    const row = await sharesRepository.insert(this.db, {
      code: randomBytes(16).toString('base64url'),
      resourceType: body.resourceType,
      resourceId,
      organizationId: auth.organizationId,
      createdBy: auth.userId,
      passwordHash: password ? await hashPassword(password) : null,
      expiresInDays: body.expiresInDays,
      showPatientName: body.showPatientName,
    });
    await this.accessLog.shared(reader, row.id);
    const listed = { ...row, creator_name: auth.user.display_name, views: 0, last_viewed_at: null };
    return this.toItem(listed, body.resourceCode, auth, await this.manages(auth));
  }

  async list(auth: AuthContext, type: ShareResourceType, resourceCode: string) {
    const resourceId = await this.resourceId(auth, type, resourceCode);
    const rows = await sharesRepository.listByResource(this.db, auth.organizationId, type, resourceId);
    const admin = await this.manages(auth);
    return { list: rows.map((r) => this.toItem(r, resourceCode, auth, admin)) };
  }

  /**
   * The permission a call about an existing share needs: the right to see its resource (a case's, an order's or a
   * report's), as making and listing shares do. A share of another organization answers 404.
   */
  async permissionFor(auth: AuthContext, shareCode: string): Promise<string> {
    const share = await sharesRepository.findInOrganization(this.db, auth.organizationId, shareCode);
    if (!share) fail('NOT_FOUND');
    return SHARE_VIEW_PERMISSIONS[share.resource_type];
  }

  /** A share of the caller's organization whose resource the caller can still see (the same lookup as a list), else 404. */
  private async own(auth: AuthContext, shareCode: string) {
    const share = await sharesRepository.findInOrganization(this.db, auth.organizationId, shareCode);
    if (!share) fail('NOT_FOUND');
    await this.permissions.require(auth, SHARE_VIEW_PERMISSIONS[share.resource_type]);
    if (!(await this.resourceVisible(auth, share))) fail('NOT_FOUND');
    return share;
  }

  /** Whether the shared resource is still there for the caller: a case not in the recycle bin, an order of its side. */
  private async resourceVisible(auth: AuthContext, share: ShareRow) {
    const id = Number(share.resource_id);
    if (share.resource_type === 'case') return (await this.cases.shared(auth.organizationId, id)) !== undefined;
    if (share.resource_type === 'order') return (await this.orders.shared(auth.organizationId, id)) !== undefined;
    return this.reports.exists(auth.organizationId, id);
  }

  async visits(auth: AuthContext, shareCode: string, pageNum: number, pageSize: number) {
    const share = await this.own(auth, shareCode);
    const { total, rows } = await sharesRepository.accessLog(this.db, share.id, pageSize, (pageNum - 1) * pageSize);
    return {
      total,
      list: rows.map((r) => ({
        at: iso(r.at)!,
        kind: r.action.slice('share.'.length) as ShareAccessKind,
        userAgent: r.user_agent,
        addressHash: r.address,
      })),
    };
  }

  /** Ends a share at once: its maker or an administrator of its organization; revoking an ended share changes nothing. */
  async revoke(auth: AuthContext, shareCode: string) {
    const share = await this.own(auth, shareCode);
    const admin = await this.manages(auth);
    if (!admin && Number(share.created_by) !== auth.userId) fail('NO_PERMISSION');
    if (share.revoked_at) return;
    await sharesRepository.revoke(this.db, share.id, auth.userId, admin);
  }

  /**
   * Mails the link (never the password) in the recipient's language, through the outbox. When it ends is told to the
   * minute in the sender's timezone, named: the recipient's is not known, and a day alone could be the wrong one.
   */
  async mail(auth: AuthContext, shareCode: string, to: ShareRecipient, timeZone = 'UTC') {
    const share = await this.own(auth, shareCode);
    if (statusOf(share) !== 'active') ended({ ...share, organization_name: auth.user.org_name });
    const { language } = to;
    const expires = share.expires_at
      ? new Intl.DateTimeFormat(language, {
          year: 'numeric',
          month: 'long',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          timeZone,
          timeZoneName: 'short',
        }).format(new Date(share.expires_at))
      : null;
    const template = SHARE_MAILS[share.resource_type];
    const sender = auth.user.display_name.trim();
    const organization = auth.user.org_name.trim();
    // The sender is named once: "Bright Smile of Bright Smile shared…" reads as a mistake.
    const sameName = !sender || sender.toLocaleLowerCase() === organization.toLocaleLowerCase();
    await this.mailer.send({
      to: to.email,
      language,
      template,
      bodyKey: sameName ? `${template}.bodyOrganization` : undefined,
      params: { sender, organization, date: expires ?? '' },
      extraKeys: [
        expires ? 'shareLink.expires' : 'shareLink.noExpiry',
        ...(share.password_hash ? ['shareLink.password'] : []),
      ],
      link: this.pageUrl(share),
      recipientName: to.name?.trim() ?? '',
    });
  }

  // Public calls.

  /**
   * The share behind a code while it lasts. Unknown and ended codes both answer 2020 (2009 for a report) after the
   * same single query (the ended one names the sharer's organization), so timing does not tell them apart.
   */
  private async live(code: string): Promise<PublicShareRow> {
    const share = await sharesRepository.findPublic(this.db, code);
    if (!share || share.ended) ended(share);
    return share;
  }

  private sign(share: ShareRow) {
    return createHmac('sha256', this.secret('sign')).update(`${share.id}:${share.version}`).digest('base64url');
  }
  private signMatches(share: ShareRow, sign: string | undefined) {
    if (!sign) return false;
    const expected = Buffer.from(this.sign(share));
    const given = Buffer.from(sign);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Checks a share's password; a passed one answers the share sign the browser keeps for this version. */
  async unlock(code: string, password: string) {
    const share = await this.live(code);
    // A share without a password still costs a verification, so the answer's time does not say which it is.
    const passed = await verifyPassword(share.password_hash ?? (await dummyPasswordHash()), password);
    if (!passed && share.password_hash) fail('INVALID_PASSWORD');
    return { sign: this.sign(share) };
  }

  /** Opens a share: what the sharer chose to show, or only that a password is needed. Each opening is logged. */
  async open(code: string, sign: string | undefined, visitor: Visitor): Promise<ShareView> {
    const share = await this.live(code);
    const base = {
      resourceType: share.resource_type,
      organizationName: share.organization_name,
      expiresAt: iso(share.expires_at),
      remainingDays: remainingDays(share),
      version: share.version,
    };
    if (share.password_hash && !this.signMatches(share, sign))
      return { ...base, locked: true, case: null, order: null, report: null, files: [] };
    if (share.resource_type === 'report') {
      const report = await this.sharedReport(share);
      await this.logVisit(share, 'page', visitor);
      return { ...base, locked: false, case: null, order: null, report, files: [] };
    }
    const content = await this.content(share);
    // A model whose viewer version is still being made: the page waits and asks again (2007) rather than show the
    // visitor a half-ready case or fetch the full-size original. A failed version does not hold the page back.
    if (content.files.some((f) => f.viewerStatus === 'pending')) fail('RESOURCE_PREPARING');
    await this.logVisit(share, 'page', visitor);
    const files = content.files.map((f) => this.fileLinks(share, f));
    return { ...base, locked: false, case: content.case, order: content.order, report: null, files };
  }

  /** A shared report's latest published version, its pictures and PDF behind the share's signed links. */
  private async sharedReport(share: PublicShareRow): Promise<SharedReport> {
    const view = await this.reports.latestPublished(Number(share.resource_id));
    if (!view) ended(share);
    const { link } = this.signedLinks(share);
    return {
      ...view,
      patientName: share.show_patient_name ? view.patientName : null,
      images: view.images.map((i) => ({ ...i, url: link('image', i.source, i.code) })),
      pdfUrl: link('pdf'),
    };
  }

  /** The shared resource as the sharer chose to show it; a resource gone since answers 2020 like an ended share. */
  private async content(share: PublicShareRow) {
    const name = (patientName: string | null) => (share.show_patient_name ? patientName : null);
    if (share.resource_type === 'case') {
      const found = await this.cases.shared(Number(share.organization_id), Number(share.resource_id));
      if (found) {
        const { row, files } = found;
        return {
          caseId: Number(row.id),
          case: {
            name: row.name,
            patientName: name(row.patient_name),
            scanDate: iso(row.scan_date),
            treatments: row.treatments,
          },
          order: null,
          files,
        };
      }
    } else if (share.resource_type === 'order') {
      const found = await this.orders.shared(Number(share.organization_id), Number(share.resource_id));
      if (found) {
        const o = found.summary;
        return {
          caseId: found.caseId,
          case: null,
          order: {
            orderCode: o.orderCode,
            status: o.status,
            caseName: o.caseName,
            patientName: name(o.patientName),
            workTypes: o.workTypes,
            clinicName: o.clinic.name,
            labName: o.lab.name,
            requestedDeliveryDate: o.requestedDeliveryDate,
            createdAt: o.createdAt,
          },
          files: found.files,
          scansWithheld: found.scansWithheld,
        };
      }
    }
    ended(share);
  }

  /** `subject` is what the link opens below the share: a file's code, a picture's source and code, nothing for the PDF. */
  private linkSignature(share: ShareRow, purpose: LinkPurpose, subject: string, exp: number) {
    return createHmac('sha256', this.secret('file'))
      .update(`${share.id}:${share.version}:${purpose}:${subject}:${exp}`)
      .digest('base64url');
  }

  /** Makes links signed for the share, its version and what they open, valid for the configured time from now. */
  private signedLinks(share: ShareRow) {
    const exp = Math.floor(Date.now() / 1000) + this.config.fileLinkTtlSeconds;
    const link = (purpose: LinkPurpose, ...subject: string[]) =>
      `${this.config.publicUrl}/api/v2/share/${LINK_ROUTES[purpose]}/${[share.code, ...subject].join('/')}` +
      `?exp=${exp}&sig=${this.linkSignature(share, purpose, subject.join('/'), exp)}`;
    return { exp, link };
  }

  /** Checks a link's signature and time against the live share; answers the share. */
  private async checkLink(code: string, purpose: LinkPurpose, subject: string, link: { exp: number; sig: string }) {
    const share = await this.live(code);
    const expected = Buffer.from(this.linkSignature(share, purpose, subject, link.exp));
    const given = Buffer.from(link.sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) fail('INVALID_LINK');
    if (link.exp < Date.now() / 1000) ended(share);
    return share;
  }

  private fileLinks(share: ShareRow, f: Omit<SharedFile, 'url' | 'viewerUrl' | 'expiresAt'>): SharedFile {
    const { exp, link } = this.signedLinks(share);
    return {
      fileCode: f.fileCode,
      name: f.name,
      format: f.format,
      kind: f.kind,
      jaw: f.jaw,
      size: f.size,
      viewerStatus: f.viewerStatus,
      unit: f.unit,
      url: link('download', f.fileCode),
      viewerUrl: f.viewerStatus === 'none' ? null : link('viewer', f.fileCode),
      expiresAt: new Date(exp * 1000).toISOString(),
    };
  }

  /**
   * A file through a share's link: the link's signature names the share's version, and the share must still be live
   * and still hold the file, so revoking (or the case going) ends every link at once. A download is logged.
   */
  async openFile(
    code: string,
    fileCode: string,
    purpose: ShareFilePurpose,
    link: { exp: number; sig: string },
    logAs: ShareAccessKind | null,
    visitor: Visitor,
  ) {
    const share = await this.checkLink(code, purpose, fileCode, link);
    const content = await this.content(share);
    if ('scansWithheld' in content && content.scansWithheld) fail('ORDER_SCANS_UNAVAILABLE');
    const { caseId } = content;
    const opened = await this.files.openInCase(caseId, purpose, fileCode);
    if (logAs) await this.logVisit(share, logAs, visitor, Number(opened.file.id));
    return opened;
  }

  /** A picture the shared report's latest version shows, by the share's signed link. */
  async openReportImage(code: string, ref: ReportImageRef, link: { exp: number; sig: string }) {
    const share = await this.checkLink(code, 'image', `${ref.source}/${ref.code}`, link);
    const image = await this.reports.publishedImage(Number(share.resource_id), ref);
    if (!image) fail('NOT_FOUND');
    return image;
  }

  /** The shared report's latest version as a PDF, by the share's signed link; each one is logged. */
  async openReportPdf(code: string, link: { exp: number; sig: string }, visitor: Visitor) {
    const share = await this.checkLink(code, 'pdf', '', link);
    const pdf = await this.reports.latestPublishedPdf(Number(share.resource_id));
    if (!pdf) ended(share);
    await this.logVisit(share, 'pdf', visitor);
    return pdf;
  }

  read(key: string, range?: { start: number; end: number }) {
    return this.files.read(key, range);
  }

  /** A visit goes into the patient-data access log, as the share's visitor (no account: a hashed address). */
  private logVisit(share: ShareRow, kind: ShareAccessKind, visitor: Visitor, fileId: number | null = null) {
    return this.accessLog.visit(
      share.id,
      `share.${kind}`,
      {
        addressHash: addressHash(this.config.jwtSecret, share.id, visitor.address),
        userAgent: coarseUserAgent(visitor.userAgent),
      },
      fileId,
    );
  }
}
