import {
  AGREEMENT_TYPES,
  defaultToothNumbering,
  EMAIL_CONFIRM_VALIDITY_HOURS,
  OrgType,
  ReviewStatus,
  UserStatus,
  type CompanyRegisterBody,
  type RegisterBody,
  type CheckTakenBody,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { fail } from '../../platform/errors.js';
import { hashPassword, newCode } from '../../platform/crypto.js';
import { UsersService } from '../users/users.service.js';
import { assertNewPassword } from '../users/password-policy.js';
import { OrganizationsService } from '../organizations/organizations.service.js';
import { AgreementsService } from '../agreements/agreements.service.js';
import { registrationRepository } from './registration.repository.js';

type Registration = RegisterBody & Partial<Omit<CompanyRegisterBody, keyof RegisterBody>>;

export class RegistrationService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly config: Config,
  ) {}

  /**
   * Whether an account name, email or phone number is taken (the forms ask as they are typed); an account name that
   * reads as a phone number, or a phone number that is not one, answers the field's error.
   */
  async isTaken(body: CheckTakenBody) {
    const values =
      body.account !== undefined
        ? { account: body.account }
        : body.email !== undefined
          ? { email: body.email }
          : { phone: body.phone ?? '' };
    return UsersService.identifierTaken(this.db, values);
  }

  /**
   * A clinic or laboratory and its administrator. The user stays inactivated until the email is
   * confirmed; a laboratory then waits for a super administrator's review.
   */
  async register(input: Registration) {
    if (!input.agreePrivacy || !input.agreeCookie || !input.agreeTerms) {
      const field = !input.agreePrivacy ? 'agreePrivacy' : !input.agreeCookie ? 'agreeCookie' : 'agreeTerms';
      fail('AGREEMENTS_REQUIRED', { field }, { field });
    }
    assertNewPassword(input.password, input.confirmPassword);
    const phone = input.phone ? input.phone : null;
    const passwordHash = await hashPassword(input.password);

    const { userId, userCode } = await this.db.transaction(async (tx) => {
      const organizationId = await OrganizationsService.insert(tx, {
        code: newCode('org'),
        name: input.organizationName,
        type: input.orgType,
        region: input.region,
        reviewStatus: input.orgType === OrgType.Lab ? ReviewStatus.Pending : ReviewStatus.Approved,
        language: input.language,
        email: input.email,
        phone,
        abbreviation: input.abbreviation,
        licenseCode: input.licenseCode,
        representativeName: input.representativeName,
        country: input.country,
        state: input.state,
        city: input.city,
        district: input.district,
        postalCode: input.postalCode,
        address: input.address,
      });
      const role = await registrationRepository.defaultRole(tx, input.orgType);
      if (!role) fail('INTERNAL');
      const code = newCode('u');
      // The identifiers are claimed with the user: taken ones, even by a sign-up at the same moment, are refused.
      const id = await UsersService.insert(tx, {
        userCode: code,
        account: input.account,
        email: input.email,
        phone,
        displayName: input.displayName,
        organizationId,
        roleId: Number(role.id),
        status: UserStatus.Inactivated,
        isOrgAdmin: true,
        language: input.language,
        passwordHash,
        toothNumberingSystem: defaultToothNumbering(input.region, input.country),
      });
      // Ticking the boxes on the form is reading the agreements in force.
      await AgreementsService.markRead(tx, id, [...AGREEMENT_TYPES]);
      return { userId: id, userCode: code };
    });

    await this.sendConfirmation(userId);
    return { userCode, email: input.email, orgType: input.orgType };
  }

  async sendConfirmation(userId: number) {
    const user = await UsersService.findById(this.db, userId);
    if (!user) fail('ACCOUNT_NOT_FOUND');
    const token = await UsersService.issueEmailToken(
      this.db,
      userId,
      'confirm_email',
      EMAIL_CONFIRM_VALIDITY_HOURS * 60,
    );
    await this.mailer.send({
      to: user.email,
      language: user.language,
      recipientName: user.display_name,
      template: 'confirmEmail',
      params: { organization: user.org_name, hours: EMAIL_CONFIRM_VALIDITY_HOURS },
      extraKeys: user.org_type === OrgType.Lab ? ['confirmEmail.labNote'] : [],
      link: `${this.config.publicUrl}/email-verify/${token}`,
    });
  }

  async confirmEmail(token: string) {
    const { userId } = await UsersService.consumeEmailToken(this.db, token, ['confirm_email']);
    const user = await UsersService.findById(this.db, userId);
    if (!user) fail('INVALID_LINK');
    if (user.status === UserStatus.Inactivated) await UsersService.setStatus(this.db, userId, UserStatus.Activated);
    if (user.org_type === OrgType.Lab && user.org_review_status === ReviewStatus.Pending) {
      for (const admin of await UsersService.superAdmins(this.db)) {
        await this.mailer.send({
          to: admin.email,
          language: admin.language,
          recipientName: admin.display_name,
          template: 'labSubmitted',
          params: { organization: user.org_name, region: user.org_region.toUpperCase() },
          link: `${this.config.publicUrl}/account/organizations?tab=review`,
        });
      }
    }
    return { orgType: user.org_type, reviewStatus: user.org_review_status, account: user.account };
  }

  /** Sends a new confirmation link to an account that has not confirmed its email yet. */
  async resendByEmail(email: string) {
    const user = await UsersService.findByEmail(this.db, email);
    if (!user) fail('ACCOUNT_NOT_FOUND', { field: 'email' }, { field: 'email' });
    if (user.status !== UserStatus.Inactivated) fail('ALREADY_ACTIVATED');
    await this.sendConfirmation(Number(user.id));
  }

  async resendByAccount(account: string) {
    const user = await UsersService.findByLogin(this.db, account);
    if (!user) fail('ACCOUNT_NOT_FOUND', { field: 'account' }, { field: 'account' });
    if (user.status !== UserStatus.Inactivated) fail('ALREADY_ACTIVATED');
    await this.sendConfirmation(Number(user.id));
  }
}
