import { randomInt } from 'node:crypto';
import { checkPassword, normalizeToothNumbering, OrgType, type UserInfo } from '@portal/contracts';
import type { Mailer } from '../../platform/mail.js';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import { sessionsRepository } from '../auth/sessions.repository.js';
import { verifyCurrentPassword } from '../auth/password-check.js';
import { assertNewPassword } from './password-policy.js';
import { toUserInfo } from './user-info.js';
import { usersRepository } from './users.repository.js';

export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
  ) {}

  async info(userId: number): Promise<UserInfo> {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    return toUserInfo(user);
  }

  async update(
    userId: number,
    input: {
      displayName?: string;
      nickname?: string;
      phone?: string;
      gender?: number;
      language?: string;
      receiveEmail?: boolean;
      msgReceiveType?: string;
    },
  ) {
    // Text messages go to the phone number of account info: choosing them needs one.
    if (input.msgReceiveType === 'sms') {
      const phone = input.phone ?? (await usersRepository.findById(this.db, userId))?.phone;
      if (!phone) fail('PARAM_INVALID', { field: 'msgReceiveType' }, { field: 'msgReceiveType' });
    }
    if (input.phone) {
      if (await usersRepository.phoneTakenByOther(this.db, input.phone, userId))
        fail('PHONE_TAKEN', { field: 'phone' }, { field: 'phone' });
    }
    await usersRepository.update(this.db, userId, {
      display_name: input.displayName,
      nickname: input.nickname,
      phone: input.phone === '' ? null : input.phone,
      gender: input.gender,
      language: input.language,
      receive_email: input.receiveEmail,
      msg_receive_type: input.msgReceiveType,
    });
    return this.info(userId);
  }

  async setToothNumbering(userId: number, value: string) {
    await usersRepository.update(this.db, userId, { tooth_numbering_system: normalizeToothNumbering(value) });
    return this.info(userId);
  }

  /** Changing the password ends every other session of the user. */
  async changePassword(
    userId: number,
    sessionId: string,
    input: { oldPassword: string; password: string; confirmPassword: string },
  ) {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    await verifyCurrentPassword(this.db, user, input.oldPassword, 'oldPassword');
    assertNewPassword(input.password, input.confirmPassword);
    if (input.password === input.oldPassword) fail('SAME_PASSWORD', {}, { field: 'password' });
    const hash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await usersRepository.setPassword(tx, userId, hash, { clearForce: true });
      await sessionsRepository.revokeAllOfUser(tx, userId, 'password_changed', sessionId);
    });
  }

  async forceChangePassword(userId: number, sessionId: string, input: { password: string; confirmPassword: string }) {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    if (!user.force_change_password) fail('NO_PERMISSION');
    assertNewPassword(input.password, input.confirmPassword);
    if (await verifyPassword(user.password_hash, input.password)) fail('SAME_PASSWORD', {}, { field: 'password' });
    const hash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await usersRepository.setPassword(tx, userId, hash, { clearForce: true });
      await sessionsRepository.revokeAllOfUser(tx, userId, 'password_changed', sessionId);
    });
  }

  /**
   * An administrator gives a user a temporary password: every session of the user ends and the
   * next sign-in goes to the forced password change. A super administrator may reset anyone,
   * an organization administrator only the users of their organization.
   */
  async resetPassword(actor: { userId: number; organizationId: number; orgType: number }, userCode: string) {
    const target = await usersRepository.findByCode(this.db, userCode);
    if (!target || (actor.orgType !== OrgType.Inner && Number(target.organization_id) !== actor.organizationId))
      fail('NOT_FOUND');
    if (Number(target.id) === actor.userId) fail('CANNOT_CHANGE_SELF');
    const temporaryPassword = generateTemporaryPassword();
    const hash = await hashPassword(temporaryPassword);
    await this.db.transaction(async (tx) => {
      await usersRepository.setTemporaryPassword(tx, target.id, hash);
      await sessionsRepository.revokeAllOfUser(tx, Number(target.id), 'password_reset_by_admin');
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
