import { normalizeToothNumbering, type UserInfo } from '@portal/contracts';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import { sessionsRepository } from '../auth/sessions.repository.js';
import { assertNewPassword } from './password-policy.js';
import { toUserInfo } from './user-info.js';
import { usersRepository } from './users.repository.js';

export class UsersService {
  constructor(private readonly db: Db) {}

  async info(userId: number): Promise<UserInfo> {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    return toUserInfo(user);
  }

  async update(userId: number, input: { displayName?: string; nickname?: string; phone?: string; gender?: number; language?: string; receiveEmail?: boolean; msgReceiveType?: string }) {
    if (input.phone) {
      const [other] = await this.db.query(`SELECT 1 FROM users WHERE phone = $1 AND id <> $2`, [input.phone, userId]);
      if (other) fail('PHONE_TAKEN', { field: 'phone' }, { field: 'phone' });
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
  async changePassword(userId: number, sessionId: string, input: { oldPassword: string; password: string; confirmPassword: string }) {
    const user = await usersRepository.findById(this.db, userId);
    if (!user || !(await verifyPassword(user.password_hash, input.oldPassword))) fail('INVALID_PASSWORD', { field: 'oldPassword' }, { field: 'oldPassword' });
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
}
