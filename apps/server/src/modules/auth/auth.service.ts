import {
  FREE_LOGIN_SIGN_VALIDITY_MINUTES,
  IDENTITY_VERIFICATION_GRACE_MS,
  LOGIN_CAPTCHA_AFTER_FAILURES,
  LOGIN_LOCK_AFTER_FAILURES,
  LOGIN_LOCK_MINUTES,
  OrgStatus,
  OrgType,
  ReviewStatus,
  UserStatus,
  type LoginBody,
  type TokenPair,
} from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import type { TokenService } from '../../platform/auth.js';
import { AppError, fail } from '../../platform/errors.js';
import {
  dummyPasswordHash,
  newId,
  newToken,
  openWith,
  sealWith,
  sha256,
  verifyPassword,
} from '../../platform/crypto.js';
import { UsersService } from '../users/users.service.js';
import { verifyCurrentPassword } from './password-check.js';
import { captchaRepository, loginFailuresRepository, sessionsRepository } from './sessions.repository.js';

const SAVED_SESSION_HOURS = 24 * 30;
const UNSAVED_SESSION_HOURS = 12;
/** How long a just-retired refresh token still returns its successor (concurrent refreshes from several tabs). */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

export class AuthService {
  // Static: what other modules change of sessions, sign-in failures and captchas, on their connection or inside their
  // transaction (`tx`). The auth module's tables are written here and nowhere else.

  /** Everyone in the organization is signed out at once (it was disabled or closed). */
  static endSessionsOfOrganization(tx: Queryable, organizationId: number, reason: string) {
    return sessionsRepository.revokeAllOfOrganization(tx, organizationId, reason);
  }

  /** The user's sessions end (all but `exceptSessionId`, the one that asked, when given). */
  /** Which of these sessions may still act, and as which role: those missing from the answer are gone. */
  static sessionStates(db: Queryable, sessionIds: string[]) {
    return sessionsRepository.states(db, sessionIds);
  }

  static endSessionsOfUser(tx: Queryable, userId: number, reason: string, exceptSessionId?: string) {
    return sessionsRepository.revokeAllOfUser(tx, userId, reason, exceptSessionId);
  }

  /** Lifts a sign-in lockout and forgets the failures that led to it. */
  static clearLoginFailures(tx: Queryable, userId: number) {
    return loginFailuresRepository.clear(tx, userId);
  }

  /** Stores a new captcha's answer. */
  static createCaptcha(db: Queryable, captchaId: string, answer: string) {
    return captchaRepository.create(db, captchaId, answer);
  }

  /** A live captcha's answer, to draw it; undefined when it is unknown, used or expired. */
  static captchaAnswer(db: Queryable, captchaId: string) {
    return captchaRepository.answer(db, captchaId);
  }

  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
  ) {}

  /** Opens a session and returns its token pair; the refresh token is empty unless the user stays signed in. */
  async openSession(userId: number, userCode: string, saveLogin: boolean, client: ClientInfo): Promise<TokenPair> {
    const sessionId = newId();
    const refreshToken = saveLogin ? newToken() : '';
    await this.db.transaction(async (tx) => {
      await sessionsRepository.create(tx, {
        id: sessionId,
        userId,
        saveLogin,
        ttlHours: saveLogin ? SAVED_SESSION_HOURS : UNSAVED_SESSION_HOURS,
        ...client,
      });
      if (saveLogin) await sessionsRepository.addRefreshToken(tx, sessionId, sha256(refreshToken));
    });
    return { accessToken: await this.tokens.sign({ userCode, sessionId }), refreshToken };
  }

  async login(input: LoginBody, client: ClientInfo): Promise<TokenPair> {
    const user = await UsersService.findByLogin(this.db, input.account).catch(async (err: unknown) => {
      // An ambiguous identifier is refused after the same work as a wrong password, so its timing tells nothing more.
      if (err instanceof AppError && err.errorName === 'SIGN_IN_AMBIGUOUS')
        await verifyPassword(await dummyPasswordHash(), input.password);
      throw err;
    });
    if (!user) {
      await verifyPassword(await dummyPasswordHash(), input.password);
      fail('ACCOUNT_NOT_FOUND');
    }
    const userId = Number(user.id);
    const state = await loginFailuresRepository.get(this.db, userId);
    if (state.locked) fail('TOO_MANY_LOGIN_FAILURES', { minutes: state.locked_minutes });

    const captchaRequired = state.failures >= LOGIN_CAPTCHA_AFTER_FAILURES;
    if (captchaRequired) {
      if (!input.captchaId || !input.captchaCode)
        fail('CAPTCHA_REQUIRED', {}, { failures: state.failures, captchaRequired: true });
      const answer = await captchaRepository.use(this.db, input.captchaId);
      if (!answer || answer.toLowerCase() !== input.captchaCode.trim().toLowerCase()) {
        fail('VERIFICATION_CODE_WRONG', {}, { failures: state.failures, captchaRequired: true });
      }
    }

    if (!(await verifyPassword(user.password_hash, input.password))) {
      const failures = await loginFailuresRepository.record(
        this.db,
        userId,
        LOGIN_LOCK_AFTER_FAILURES,
        LOGIN_LOCK_MINUTES,
      );
      if (failures >= LOGIN_LOCK_AFTER_FAILURES) fail('TOO_MANY_LOGIN_FAILURES', { minutes: LOGIN_LOCK_MINUTES });
      throw new AppError(
        'INVALID_PASSWORD',
        {},
        { failures, captchaRequired: failures >= LOGIN_CAPTCHA_AFTER_FAILURES },
      );
    }
    await loginFailuresRepository.clear(this.db, userId);

    // Statuses are told only to someone who knows the password.
    if (user.status === UserStatus.Inactivated) fail('EMAIL_NOT_VERIFIED', {}, { account: user.account });
    if (user.status === UserStatus.Disabled) fail('USER_DISABLED');
    if (user.org_status === OrgStatus.Disabled) fail('ORGANIZATION_DISABLED');
    if (user.org_status === OrgStatus.Closed) fail('ORGANIZATION_CLOSED');
    if (user.org_type === OrgType.Lab && user.org_review_status === ReviewStatus.Pending) fail('LAB_PENDING_REVIEW');
    if (user.org_review_status === ReviewStatus.Rejected) fail('LAB_REJECTED');

    return this.openSession(userId, user.user_code, input.saveLogin, client);
  }

  /**
   * Rotation: the presented refresh token is retired and a new pair issued. A retired token presented again means it
   * leaked or was replayed, so the whole session is revoked, except within a few seconds of its retirement: two tabs
   * that refresh with the same token at once both get the same new refresh token (sealed under the old one, so only
   * its holder can open it), and reuse detection holds after that.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const hash = sha256(refreshToken);
    const row = await this.db.transaction(async (tx) => {
      let found = await sessionsRepository.findRefreshToken(tx, hash);
      if (!found || found.revoked_at || found.expired || !found.user_active) return null;
      if (!found.retired_at) {
        const next = newToken();
        if (await sessionsRepository.retire(tx, hash, sealWith(refreshToken, next))) {
          await sessionsRepository.addRefreshToken(tx, found.session_id, sha256(next));
          return { ...found, next };
        }
        // Another request retired it first: read what it left.
        found = await sessionsRepository.findRefreshToken(tx, hash);
        if (!found) return null;
      }
      const withinGrace = (found.retired_seconds_ago ?? Infinity) <= REFRESH_REUSE_GRACE_SECONDS;
      const successor = withinGrace && found.successor_box ? openWith(refreshToken, found.successor_box) : undefined;
      if (successor && (await sessionsRepository.isCurrent(tx, sha256(successor))))
        return { ...found, next: successor };
      await sessionsRepository.revoke(tx, found.session_id, 'refresh_token_reuse');
      return null;
    });
    if (!row) fail('REFRESH_TOKEN_INVALID');
    return {
      accessToken: await this.tokens.sign({ userCode: row.user_code, sessionId: row.session_id }),
      refreshToken: row.next,
    };
  }

  async logout(sessionId: string) {
    await sessionsRepository.revoke(this.db, sessionId, 'logout');
  }

  /**
   * A one-time sign that opens a session elsewhere (another app or device) without the password. It belongs to
   * the session that made it: it dies when that session ends, when the password changes, and after one use.
   */
  async issueFreeLoginSign(userId: number, sessionId: string): Promise<string> {
    const sign = newToken();
    await UsersService.issueFreeLoginSign(
      this.db,
      { userId, sessionId, tokenHash: sha256(sign) },
      FREE_LOGIN_SIGN_VALIDITY_MINUTES,
    );
    return sign;
  }

  async freeLogin(sign: string, client: ClientInfo): Promise<TokenPair> {
    const used = await UsersService.useFreeLoginSign(this.db, sha256(sign));
    if (!used) fail((await UsersService.freeLoginSignExpired(this.db, sha256(sign))) ? 'LINK_EXPIRED' : 'INVALID_LINK');
    return this.openSession(used.userId, used.userCode, false, client);
  }

  /**
   * Sensitive actions need the current password; once given it is not asked again for 15 minutes. Wrong answers
   * count toward the sign-in lockout.
   */
  async checkIdentity(userId: number, sessionId: string, password: string): Promise<Date> {
    const user = await UsersService.findById(this.db, userId);
    if (!user) fail('TOKEN_INVALID');
    await verifyCurrentPassword(this.db, user, password);
    return sessionsRepository.markIdentityVerified(this.db, sessionId, IDENTITY_VERIFICATION_GRACE_MS);
  }
}
