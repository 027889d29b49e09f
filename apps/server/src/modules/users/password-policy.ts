import { checkPassword } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';

/** The §5 rule plus the confirmation; the failure names the field and the failing checks. */
export function assertNewPassword(password: string, confirmPassword: string) {
  const check = checkPassword(password);
  if (!check.valid) {
    throw new AppError(
      'PASSWORD_RULE',
      { field: 'password' },
      { field: 'password', len: check.len, exclude: check.exclude, include: check.include },
    );
  }
  if (password !== confirmPassword)
    throw new AppError('PASSWORDS_DONT_MATCH', { field: 'confirmPassword' }, { field: 'confirmPassword' });
}
