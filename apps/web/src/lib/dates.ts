import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';

dayjs.extend(localizedFormat);

/** A moment as the reader writes it in their language (22.11.2026 05:30, 11/22/2026 5:30 AM…), in local time. */
export const formatDateTime = (iso: string | null | undefined): string => (iso ? dayjs(iso).format('L LT') : '');

/** A calendar date (YYYY-MM-DD from the server) as the reader writes it. */
export const formatDate = (date: string | null | undefined): string => (date ? dayjs(date).format('L') : '');

/** Today as a calendar day in the reader's own time. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
