import { PASSWORD_MAX, PASSWORD_MIN } from './constants.js';

/** The password rule of §5, one function for the form and the server. */
export const PASSWORD_SYMBOLS = '!@#$%^&*()_+-=[]{};\':"\\|,.<>/?`~';

export interface PasswordCheck {
  /** 8 to 20 characters. */
  len: boolean;
  /** Only letters, digits and the allowed symbols. */
  exclude: boolean;
  /** At least 3 of the 4 classes: digit, uppercase, lowercase, symbol. */
  include: boolean;
  valid: boolean;
  strength: 'weak' | 'medium' | 'strong';
}

function isSymbol(ch: string) {
  return PASSWORD_SYMBOLS.includes(ch);
}

export function checkPassword(password: string): PasswordCheck {
  const chars = [...password];
  const len = chars.length >= PASSWORD_MIN && chars.length <= PASSWORD_MAX;
  const exclude = chars.every((c) => /[A-Za-z0-9]/.test(c) || isSymbol(c));
  const classes = [
    chars.some((c) => /[0-9]/.test(c)),
    chars.some((c) => /[A-Z]/.test(c)),
    chars.some((c) => /[a-z]/.test(c)),
    chars.some(isSymbol),
  ].filter(Boolean).length;
  const include = classes >= 3;
  const valid = len && exclude && include;
  let strength: PasswordCheck['strength'] = 'weak';
  if (valid) strength = classes === 4 && chars.length >= 12 ? 'strong' : 'medium';
  return { len, exclude, include, valid, strength };
}
