import { randomInt } from 'node:crypto';
import {
  checkPassword,
  normalizeToothNumbering,
  OrgType,
  type UserInfo,
  type ChangePassBody,
  type ForceChangePassBody,
  type UpdateUserBody,
} from '@portal/contracts';
import type { Mailer } from '../../platform/mail.js';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import { emailTokens, freeLoginSigns, type EmailTokenPurpose } from './email-tokens.repository.js';
import { assertNewPassword } from './password-policy.js';
import { toUserInfo } from './user-info.js';
import { usersRepository } from './users.repository.js';
import { SignInIdentifiers, type IdentifierValues } from './sign-in-identifiers.service.js';
import type { UserSessions } from './user-sessions.js';
import type { RolesService } from '../roles/roles.service.js';

export type { EmailTokenPurpose };

export class UsersService {
  // Static: what other modules read and change of users, on their connection or inside their transaction (`tx`).
  // The users module's tables are written here and nowhere else.

  static findById(db: Queryable, userId: number) {
    return usersRepository.findById(db, userId);
  }

  /** The user with this email address (sign-up's resend). */
  static findByEmail(db: Queryable, email: string) {
    return usersRepository.findByEmail(db, email);
  }

  /**
   * Whether an account name, email or phone number is free to sign in with (the forms ask as they are typed): the
   * same keys and rules as `insert`, so an account name that reads as a phone number is refused here too.
   */
  static async identifierTaken(
    db: Queryable,
    values: IdentifierValues,
    where: { userId?: number; organizationId?: number } = {},
  ) {
    return (await SignInIdentifiers.firstTaken(db, values, where)) !== undefined;
  }

  /** Refuses identifiers another user holds, naming the field (a form's check before its transaction). */
  static assertIdentifiersFree(db: Queryable, values: IdentifierValues, where: { organizationId?: number }) {
    return SignInIdentifiers.assertFree(db, values, where);
  }

  /** A new user, with the identifiers they sign in with claimed in the same transaction; answers its id. */
  static async insert(tx: Queryable, user: Parameters<typeof usersRepository.insert>[1]) {
    const id = await usersRepository.insert(tx, user);
    await SignInIdentifiers.claim(tx, id, { account: user.account, email: user.email, phone: user.phone });
    return id;
  }

  static setStatus(db: Queryable, userId: number, status: number) {
    return usersRepository.setStatus(db, userId, status);
  }

  /** The super administrators, to be told of a laboratory waiting for review. */
  static superAdmins(db: Queryable) {
    return usersRepository.superAdmins(db);
  }

  /**
   * The user signing in with this account name, email or phone number; SIGN_IN_AMBIGUOUS when its readings match
   * two users (a phone number typed without its country code, or an identifier disputed since before the namespace).
   */
  static async findByLogin(db: Queryable, login: string) {
    const match = await SignInIdentifiers.lookup(db, login);
    if (match && 'ambiguous' in match) fail('SIGN_IN_AMBIGUOUS', {}, { field: 'account' });
    if (!match) return undefined;
    const user = await usersRepository.findById(db, match.userId);
    return user && !user.deleted_at ? user : undefined;
  }

  /** Sets a new password (the hash), lifting a forced change when asked. */
  static setPassword(tx: Queryable, userId: number, passwordHash: string, opts: { clearForce: boolean }) {
    return usersRepository.setPassword(tx, userId, passwordHash, opts);
  }

  /** A user an administrator added set their first password: the account is active. */
  static activateInvited(tx: Queryable, userId: number) {
    return usersRepository.activateInvited(tx, userId);
  }

  /** A one-time mailed link for the user (replacing their unused ones of the purpose); answers its raw token. */
  static issueEmailToken(db: Queryable, userId: number, purpose: EmailTokenPurpose, validMinutes: number) {
    return emailTokens.issue(db, userId, purpose, validMinutes);
  }

  /** The link's user and purpose, without using it; INVALID_LINK (2021) or LINK_EXPIRED (2020) otherwise. */
  static peekEmailToken(db: Queryable, token: string, purposes: EmailTokenPurpose[]) {
    return emailTokens.peek(db, token, purposes);
  }

  /** Uses the link once (one winner among concurrent uses); its user and purpose, or the catalogue's refusal. */
  static consumeEmailToken(tx: Queryable, token: string, purposes: EmailTokenPurpose[]) {
    return emailTokens.consume(tx, token, purposes);
  }

  /** Stores a one-time sign-in sign (hashed), tied to the session that made it. */
  static issueFreeLoginSign(
    db: Queryable,
    s: { userId: number; sessionId: string; tokenHash: string },
    validMinutes: number,
  ) {
    return freeLoginSigns.issue(db, s, validMinutes);
  }

  /**
   * Uses a sign once: only while the session that made it is alive, the password unchanged since and the user and
   * organization active. Answers its user, or undefined.
   */
  static useFreeLoginSign(db: Queryable, tokenHash: string) {
    return freeLoginSigns.use(db, tokenHash);
  }

  /** Whether the sign exists, unused, past its validity (expired rather than invalid). */
  static freeLoginSignExpired(db: Queryable, tokenHash: string) {
    return freeLoginSigns.expired(db, tokenHash);
  }

  /** The user joins or leaves the user-experience improvement plan. */
  static setImprovementPlan(db: Queryable, userId: number, participating: boolean) {
    return usersRepository.update(db, userId, { improvement_plan: participating });
  }

  /** An organization's purge: every user it has. */
  static deleteOfOrganization(tx: Queryable, orgId: number) {
    return usersRepository.deleteOfOrganization(tx, orgId);
  }

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly sessions: UserSessions,
    private readonly roles: Pick<RolesService, 'assertRolesWithinCaller'>,
  ) {}

  async info(userId: number): Promise<UserInfo> {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    return toUserInfo(user);
  }

  async update(userId: number, input: UpdateUserBody) {
    // Text messages go to the phone number of account info: choosing them needs one.
    if (input.msgReceiveType === 'sms') {
      const phone = input.phone ?? (await usersRepository.findById(this.db, userId))?.phone;
      if (!phone) fail('PARAM_INVALID', { field: 'msgReceiveType' }, { field: 'msgReceiveType' });
    }
    await this.db.transaction(async (tx) => {
      if (input.phone !== undefined) await SignInIdentifiers.change(tx, userId, { phone: input.phone || null });
      await usersRepository.update(tx, userId, {
        display_name: input.displayName,
        nickname: input.nickname,
        phone: input.phone === '' ? null : input.phone,
        gender: input.gender,
        language: input.language,
        receive_email: input.receiveEmail,
        msg_receive_type: input.msgReceiveType,
      });
    });
    return this.info(userId);
  }

  async setToothNumbering(userId: number, value: string) {
    await usersRepository.update(this.db, userId, { tooth_numbering_system: normalizeToothNumbering(value) });
    return this.info(userId);
  }

  /** Changing the password ends every other session of the user. */
  async changePassword(userId: number, sessionId: string, input: ChangePassBody) {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    await this.sessions.verifyCurrentPassword(this.db, user, input.oldPassword, 'oldPassword');
    assertNewPassword(input.password, input.confirmPassword);
    if (input.password === input.oldPassword) fail('SAME_PASSWORD', {}, { field: 'password' });
    const hash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await usersRepository.setPassword(tx, userId, hash, { clearForce: true });
      await this.sessions.endSessionsOfUser(tx, userId, 'password_changed', sessionId);
    });
  }

  async forceChangePassword(userId: number, sessionId: string, input: ForceChangePassBody) {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    if (!user.force_change_password) fail('NO_PERMISSION');
    assertNewPassword(input.password, input.confirmPassword);
    if (await verifyPassword(user.password_hash, input.password)) fail('SAME_PASSWORD', {}, { field: 'password' });
    const hash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await usersRepository.setPassword(tx, userId, hash, { clearForce: true });
      await this.sessions.endSessionsOfUser(tx, userId, 'password_changed', sessionId);
    });
  }

  /**
   * An administrator gives a user a temporary password: every session of the user ends and the
   * next sign-in goes to the forced password change. A super administrator may reset anyone,
   * an organization administrator only the users of their organization.
   */
  async resetPassword(
    actor: { userId: number; organizationId: number; orgType: number; roleId: number },
    userCode: string,
  ) {
    const target = await usersRepository.findByCode(this.db, userCode);
    if (!target || (actor.orgType !== OrgType.Inner && Number(target.organization_id) !== actor.organizationId))
      fail('NOT_FOUND');
    if (Number(target.id) === actor.userId) fail('CANNOT_CHANGE_SELF');
    await this.roles.assertRolesWithinCaller(actor, [Number(target.role_id)]);
    const temporaryPassword = generateTemporaryPassword();
    const hash = await hashPassword(temporaryPassword);
    await this.db.transaction(async (tx) => {
      await usersRepository.setTemporaryPassword(tx, target.id, hash);
      await this.sessions.endSessionsOfUser(tx, Number(target.id), 'password_reset_by_admin');
    });
    await this.mailer.send({
      to: target.email,
      language: target.language,
      recipientName: target.display_name,
      template: 'passwordReset',
      params: { account: target.account },
    });
    return { temporaryPassword };
  }
}

/** 12 characters from all four classes, so it always meets the password rule. */
function generateTemporaryPassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnpqrstuvwxyz', '23456789', '#$%&*+-=?@'];
  const all = sets.join('');
  const chars = sets.map((s) => s[randomInt(s.length)]!);
  while (chars.length < 12) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  const password = chars.join('');
  return checkPassword(password).valid ? password : generateTemporaryPassword();
}
