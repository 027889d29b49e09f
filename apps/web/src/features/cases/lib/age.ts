import dayjs, { type Dayjs } from 'dayjs';

/** Age in whole years from a YYYY-MM-DD birth date (§3); null when unknown, invalid or in the future. */
export function ageInYears(birthDate: string | null | undefined, today: Dayjs = dayjs()): number | null {
  if (!birthDate) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthDate);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const ty = today.year();
  const tm = today.month() + 1;
  const td = today.date();
  let age = ty - y;
  if (tm < mo || (tm === mo && td < d)) age -= 1;
  return age >= 0 ? age : null;
}
