import { ReviewStatus } from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { fail } from '../../platform/errors.js';
import { organizationsRepository } from './organizations.repository.js';

/** The super administrator's review of laboratory registrations. */
export class ReviewService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly config: Config,
  ) {}

  async list(reviewStatus: number, pageNum: number, pageSize: number) {
    const { total, rows } = await organizationsRepository.listForReview(
      this.db,
      reviewStatus,
      pageSize,
      (pageNum - 1) * pageSize,
    );
    return {
      total,
      list: rows.map((r) => ({
        organizationCode: r.code,
        name: r.name,
        region: r.region,
        licenseCode: r.license_code,
        representativeName: r.representative_name,
        country: r.country,
        city: r.city,
        adminAccount: r.account,
        adminEmail: r.email,
        emailConfirmed: r.user_status !== 0,
        reviewStatus: r.review_status,
        reviewReason: r.review_reason,
        createdAt: new Date(r.created_at).toISOString(),
      })),
    };
  }

  /** Approves or rejects once; the applicant is emailed either way. A rejection needs a reason. */
  async decide(reviewerId: number, organizationCode: string, approve: boolean, reason?: string) {
    if (!approve && !reason?.trim()) fail('PARAM_INVALID', { field: 'reason' }, { field: 'reason' });
    const decided = await organizationsRepository.decideReview(
      this.db,
      organizationCode,
      approve ? ReviewStatus.Approved : ReviewStatus.Rejected,
      reason?.trim() || null,
      reviewerId,
    );
    if (!decided) {
      const existing = await organizationsRepository.findByCode(this.db, organizationCode);
      if (!existing || existing.type !== 3) fail('NOT_FOUND');
      fail('ALREADY_REVIEWED');
    }
    for (const admin of await organizationsRepository.admins(this.db, Number(decided.id))) {
      await this.mailer.send({
        to: admin.email,
        language: admin.language,
        recipientName: admin.display_name,
        template: approve ? 'labApproved' : 'labRejected',
        params: { organization: decided.name, reason: reason ?? '' },
        extraKeys: approve ? [] : ['labRejected.reason'],
        link: approve ? `${this.config.publicUrl}/login` : undefined,
      });
    }
  }
}
