/** Age in whole years on `today` for a birth date 'YYYY-MM-DD' (§3); null when unknown or in the future. */
export function ageInYears(birthDate: string | null | undefined, today: Date = new Date()): number | null {
  const m = birthDate ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age >= 0 ? age : null;
}

/** Years a calendar date may carry: wide enough for any birth, scan or delivery date, narrow enough for every store. */
export const CALENDAR_YEARS = { min: 1900, max: 2999 } as const;

/** Whether `value` is a real calendar day written 'YYYY-MM-DD' (no 2026-02-30, no month 13, no year 0000). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < CALENDAR_YEARS.min || y > CALENDAR_YEARS.max || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}
