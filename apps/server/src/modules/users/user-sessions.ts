import type { Queryable } from '../../platform/db.js';

/**
 * What the users module needs of sign-in state, which the auth module keeps (sessions, failed-password counts).
 * Given to the users services where the app is built, so users never import auth (auth reads users to sign in).
 */
export interface UserSessions {
  /** Ends every session of a user (but `exceptSessionId`) in the caller's transaction. */
  endSessionsOfUser(tx: Queryable, userId: number, reason: string, exceptSessionId?: string): Promise<void>;
  /** Checks a signed-in user's password, counting wrong answers toward the sign-in lockout (names `field`). */
  verifyCurrentPassword(
    db: Queryable,
    user: { id: number | string; password_hash: string },
    password: string,
    field?: string,
  ): Promise<void>;
}
