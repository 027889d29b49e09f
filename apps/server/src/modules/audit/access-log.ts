import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../../platform/db.js';
import { accessLogRepository, type AccessRecord } from './access-log.repository.js';
import { coarseUserAgent } from './visitor.js';

/** Who is reading patient data, as the access log records it. */
export interface Reader {
  userId: number;
  organizationId: number;
  /** The app whose token made the call, when an app did. */
  appId: number | null;
  address: string;
  /** Browser and system family only. */
  userAgent: string;
}

/** The signed-in caller of a request (a member, or an app acting for one) as a reader of patient data. */
export function readerOf(request: FastifyRequest): Reader {
  return {
    userId: request.auth.userId,
    organizationId: request.auth.organizationId,
    appId: request.appToken?.appId ?? null,
    address: request.ip.slice(0, 64),
    userAgent: coarseUserAgent(request.headers['user-agent']),
  };
}

/** What was read, and whose patient it is. */
export type AccessSubject = Pick<
  AccessRecord,
  'ownerOrgId' | 'action' | 'caseId' | 'orderId' | 'fileId' | 'reportId' | 'shareId'
>;

/**
 * Writes the patient-data access log. Services call it when they hand out patient data, before the answer leaves:
 * a read whose entry cannot be written fails instead of going unrecorded.
 */
export class AccessLog {
  constructor(private readonly db: Db) {}

  /** The apps that took copies of the cases (read them, or listed the organization's patients). */
  static appsThatRead(db: Queryable, orgId: number, caseIds: number[]) {
    return accessLogRepository.appsThatRead(db, orgId, caseIds);
  }

  /** A member's (or an app's) read. */
  read(reader: Reader, subject: AccessSubject, db: Queryable = this.db) {
    return accessLogRepository.insert(db, this.entry(reader, subject));
  }

  /** An app took a list of the organization's patients (a member's own screens are not logged as reads). */
  async appListed(reader: Reader, action: 'case.list' | 'order.list') {
    if (reader.appId !== null) await this.read(reader, { ownerOrgId: reader.organizationId, action });
  }

  /** Several reads at once (an export of many cases). */
  readMany(reader: Reader, subjects: AccessSubject[], db: Queryable = this.db) {
    return accessLogRepository.insertMany(
      db,
      subjects.map((s) => this.entry(reader, s)),
    );
  }

  /** A member made a share of patient data (whose patient, and which case, are read from the share). */
  shared(reader: Reader, shareId: number, db: Queryable = this.db) {
    return accessLogRepository.insertForShare(db, shareId, {
      action: 'share.create',
      actorUserId: reader.userId,
      actorOrgId: reader.organizationId,
      appId: reader.appId,
      address: reader.address,
      userAgent: reader.userAgent,
    });
  }

  /** A share link's visitor: no account, so the share itself, a salted address hash and a coarse user agent. */
  visit(
    shareId: number,
    action: 'share.page' | 'share.pdf' | 'share.file',
    visitor: { addressHash: string; userAgent: string },
    fileId: number | null = null,
  ) {
    return accessLogRepository.insertForShare(this.db, shareId, {
      action,
      actorUserId: null,
      actorOrgId: null,
      appId: null,
      fileId,
      address: visitor.addressHash,
      userAgent: visitor.userAgent,
    });
  }

  private entry(reader: Reader, subject: AccessSubject): AccessRecord {
    return {
      ...subject,
      actorUserId: reader.userId,
      actorOrgId: reader.organizationId,
      appId: reader.appId,
      address: reader.address,
      userAgent: reader.userAgent,
    };
  }
}
