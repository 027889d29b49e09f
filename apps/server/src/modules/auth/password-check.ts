import { LOGIN_LOCK_AFTER_FAILURES, LOGIN_LOCK_MINUTES } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { verifyPassword } from '../../platform/crypto.js';
import { loginFailuresRepository } from './sessions.repository.js';

/**
 * Checks the password of a signed-in user (identity check, password change). Wrong answers count toward the same
 * lockout as sign-in, so a stolen session cannot be used to guess the password; a right one clears the count.
 */
export async function verifyCurrentPassword(
  db: Queryable,
  user: { id: number | string; password_hash: string },
  password: string,
  field?: string,
): Promise<void> {
  const userId = Number(user.id);
  const state = await loginFailuresRepository.get(db, userId);
  if (state.locked) fail('TOO_MANY_LOGIN_FAILURES', { minutes: state.locked_minutes });
  if (!(await verifyPassword(user.password_hash, password))) {
    const failures = await loginFailuresRepository.record(db, userId, LOGIN_LOCK_AFTER_FAILURES, LOGIN_LOCK_MINUTES);
    if (failures >= LOGIN_LOCK_AFTER_FAILURES) fail('TOO_MANY_LOGIN_FAILURES', { minutes: LOGIN_LOCK_MINUTES });
    if (field) throw new AppError('INVALID_PASSWORD', { field }, { field, failures });
    throw new AppError('INVALID_PASSWORD', {}, { failures });
  }
  await loginFailuresRepository.clear(db, userId);
}
