import { PASSWORD_RESET_VALIDITY_MINUTES } from '@portal/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { fail } from '../../platform/errors.js';
import { hashPassword } from '../../platform/crypto.js';
import { UsersService, type EmailTokenPurpose } from '../users/users.service.js';
import { assertNewPassword } from '../users/password-policy.js';
import { maskEmail } from '../users/user-info.js';
import { AuthService } from '../auth/auth.service.js';

const RESET_PURPOSES: EmailTokenPurpose[] = ['reset_password', 'set_password'];

/** Forgotten password: an emailed one-time link that expires, then a new password. */
export class RecoveryService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly config: Config,
  ) {}

  private async user(account: string) {
    const user = await UsersService.findByLogin(this.db, account);
    if (!user) fail('ACCOUNT_NOT_FOUND', { field: 'account' }, { field: 'account' });
    return user;
  }

  async maskedEmail(account: string) {
    return { email: maskEmail((await this.user(account)).email) };
  }

  async sendResetLink(account: string) {
    const user = await this.user(account);
    const token = await UsersService.issueEmailToken(
      this.db,
      Number(user.id),
      'reset_password',
      PASSWORD_RESET_VALIDITY_MINUTES,
    );
    await this.mailer.send({
      to: user.email,
      language: user.language,
      recipientName: user.display_name,
      template: 'resetPassword',
      params: { account: user.account, minutes: PASSWORD_RESET_VALIDITY_MINUTES },
      link: `${this.config.publicUrl}/forget-pass/${token}`,
    });
    return { email: maskEmail(user.email) };
  }

  async checkLink(token: string) {
    const { userId } = await UsersService.peekEmailToken(this.db, token, RESET_PURPOSES);
    const user = await UsersService.findById(this.db, userId);
    if (!user) fail('INVALID_LINK');
    return { account: user.account };
  }

  /**
   * Sets the new password, uses the link, ends every session and lifts a lockout. A user an administrator added
   * sets their first password this way (a set-password link), which also activates the account.
   */
  async resetPassword(token: string, password: string, confirmPassword: string) {
    await UsersService.peekEmailToken(this.db, token, RESET_PURPOSES);
    assertNewPassword(password, confirmPassword);
    const hash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const { userId, purpose } = await UsersService.consumeEmailToken(tx, token, RESET_PURPOSES);
      await UsersService.setPassword(tx, userId, hash, { clearForce: true });
      if (purpose === 'set_password') await UsersService.activateInvited(tx, userId);
      await AuthService.endSessionsOfUser(tx, userId, 'password_reset');
      await AuthService.clearLoginFailures(tx, userId);
    });
  }
}
