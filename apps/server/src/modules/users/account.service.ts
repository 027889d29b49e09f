import { randomBytes } from 'node:crypto';
import { API_BASE, EMAIL_CONFIRM_VALIDITY_HOURS, type UserDetail, type EditUserBody } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { newToken } from '../../platform/crypto.js';
import { fail } from '../../platform/errors.js';
import { accountRepository } from './account.repository.js';
import { SignInIdentifiers } from './sign-in-identifiers.service.js';
import { avatarTypeOf } from './avatar-image.js';
import { emailTokens } from './email-tokens.repository.js';
import { toUserInfo } from './user-info.js';
import { usersRepository } from './users.repository.js';

/** Where avatars are served (public: the key is unguessable, and an <img> carries no token). */
export const AVATAR_PATH = `${API_BASE}/avatar/`;

/** Own space → account info: the user's own details, avatar, email address and account name. */
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    /** Ends an app's grant in the provider (its access and refresh tokens stop at once). */
    private readonly revokeGrant: (grantId: string) => Promise<void> = async () => {},
  ) {}

  async detail(userId: number): Promise<UserDetail> {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    return { ...toUserInfo(user), pendingEmail: user.pending_email };
  }

  async edit(userId: number, input: EditUserBody): Promise<UserDetail> {
    await this.db.transaction(async (tx) => {
      if (input.phone !== undefined) await SignInIdentifiers.change(tx, userId, { phone: input.phone || null });
      await usersRepository.update(tx, userId, {
        display_name: input.displayName,
        nickname: input.nickname === undefined ? undefined : input.nickname || null,
        phone: input.phone === undefined ? undefined : input.phone || null,
        gender: input.gender,
        language: input.language,
      });
    });
    return this.detail(userId);
  }

  /**
   * The account name may be changed once; afterwards it is fixed (ACCOUNT_ALREADY_RENAMED). The new name is claimed
   * in the renaming transaction, so a refused name (taken, or reading as a phone number) leaves the change unused.
   */
  async editUsername(userId: number, account: string): Promise<UserDetail> {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    if (user.account_changed) fail('ACCOUNT_ALREADY_RENAMED', {}, { field: 'account' });
    await this.db.transaction(async (tx) => {
      // Claimed before the row changes: of two renames to one name, the second waits for the first and is refused.
      await SignInIdentifiers.change(tx, userId, { account });
      // The flag is checked again in the update: two renames at once leave one.
      if (!(await accountRepository.renameOnce(tx, userId, account)))
        fail('ACCOUNT_ALREADY_RENAMED', {}, { field: 'account' });
    });
    return this.detail(userId);
  }

  /**
   * Asks for a new email address: a link goes to it, and the account keeps its address until the link is opened
   * (`confirmEmailChange`). A newer request replaces the waiting one.
   */
  async editEmail(userId: number, email: string): Promise<{ pendingEmail: string }> {
    const user = await usersRepository.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    if (email.toLowerCase() === user.email.toLowerCase()) fail('PARAM_INVALID', { field: 'email' }, { field: 'email' });
    await SignInIdentifiers.assertFree(this.db, { email }, { userId });
    const token = newToken();
    const mail = await this.db.transaction(async (tx) => {
      await accountRepository.setPendingEmail(tx, userId, email);
      await emailTokens.issueRaw(tx, userId, 'change_email', EMAIL_CONFIRM_VALIDITY_HOURS * 60, token);
      return this.mailer.store(tx, {
        to: email,
        language: user.language,
        recipientName: user.display_name,
        template: 'changeEmail',
        params: { account: user.account, oldEmail: user.email, hours: EMAIL_CONFIRM_VALIDITY_HOURS },
        link: `${this.publicUrl}/email-change-verify/${token}`,
      });
    });
    await this.mailer.deliverStored([mail]);
    return { pendingEmail: email };
  }

  /** The link from the new address: the change applies now, and the old address is told. */
  async confirmEmailChange(token: string): Promise<{ email: string }> {
    const mail = await this.db.transaction(async (tx) => {
      const { userId } = await emailTokens.consume(tx, token, ['change_email']);
      const user = await usersRepository.findById(tx, userId);
      if (!user?.pending_email) fail('INVALID_LINK');
      // Someone may have taken the address since it was asked for: the claim refuses it then (EMAIL_TAKEN).
      await SignInIdentifiers.change(tx, userId, { email: user.pending_email });
      const changed = await accountRepository.applyPendingEmail(tx, userId);
      if (!changed) fail('INVALID_LINK');
      const stored = await this.mailer.store(tx, {
        to: changed.old,
        language: user.language,
        recipientName: user.display_name,
        template: 'emailChanged',
        params: { account: user.account, newEmail: changed.email },
      });
      return { stored, email: changed.email };
    });
    await this.mailer.deliverStored([mail.stored]);
    return { email: mail.email };
  }

  /** Stores a cropped avatar after checking by its bytes that it is a PNG, JPEG or WebP image. */
  async editAvatar(userId: number, bytes: Buffer): Promise<{ avatar: string }> {
    const type = avatarTypeOf(bytes);
    if (!type) fail('FILE_CONTENT_MISMATCH', { format: 'PNG, JPEG, WebP' }, { field: 'file' });
    const key = randomBytes(16).toString('hex');
    const address = `${AVATAR_PATH}${key}`;
    await this.db.transaction(async (tx) => {
      await accountRepository.saveAvatar(tx, userId, key, type, bytes);
      await accountRepository.setAvatarAddress(tx, userId, address);
    });
    return { avatar: address };
  }

  async avatar(key: string) {
    const found = await accountRepository.avatarByKey(this.db, key);
    if (!found) fail('NOT_FOUND');
    return { contentType: found.content_type, bytes: Buffer.from(found.bytes) };
  }

  async authorizedApps(userId: number) {
    const rows = await accountRepository.authorizedApps(this.db, userId);
    return {
      list: rows.map((r) => ({
        appCode: r.app_code,
        appName: r.app_name,
        scopes: r.scopes ? r.scopes.split(',') : [],
        authorizedAt: new Date(r.authorized_at).toISOString(),
        lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
        launchClientId: r.launch_client_id,
      })),
    };
  }

  async revokeApp(userId: number, appCode: string) {
    const revoked = await accountRepository.revokeApp(this.db, userId, appCode);
    if (!revoked) fail('NOT_FOUND');
    if (revoked.grant_id) await this.revokeGrant(revoked.grant_id);
  }

  /** The apps module's view of a user's authorization of an app (the users module owns the table). */
  static liveAuthorization(q: Queryable, userId: number, appId: number) {
    return accountRepository.liveAuthorization(q, userId, appId);
  }
  static recordAuthorization(q: Queryable, a: Parameters<typeof accountRepository.recordAuthorization>[1]) {
    return accountRepository.recordAuthorization(q, a);
  }
  /** The user an app's token stands for (its subject is the user's code), with organization and role. */
  static accountExists(q: Queryable, identifier: string) {
    return usersRepository.existsByIdentifier(q, identifier);
  }
  static userByCode(q: Queryable, userCode: string) {
    return usersRepository.findWithOrgByCode(q, userCode);
  }
  static markAppUsed(q: Queryable, grantId: string) {
    return accountRepository.markUsed(q, grantId);
  }
}
