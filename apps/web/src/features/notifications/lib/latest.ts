import type { SysMsg } from '@portal/contracts';
import type { UnreadSummary } from '../api/unreadCount';

/**
 * Whether a poll's newest notification should pop up. `seen` is the id of the newest notification this
 * tab has already seen, null before the first answer: the first answer only sets the mark (what was
 * there before the page opened does not pop up); later, only a notification newer than the mark does.
 */
export function nextPopup(seen: number | null, latest: SysMsg | null): { seen: number; popup: SysMsg | null } {
  const id = latest?.id ?? 0;
  if (seen === null) return { seen: id, popup: null };
  if (latest && id > seen) return { seen: id, popup: latest };
  return { seen, popup: null };
}

/**
 * Whether a poll tells of a notification the previous poll did not: the unread count went up, or the newest unread
 * one is newer. Never on the first answer (the screens on show have just fetched their data).
 */
export function notificationArrived(
  prev: Pick<UnreadSummary, 'total' | 'latest'> | undefined,
  next: Pick<UnreadSummary, 'total' | 'latest'>,
): boolean {
  if (!prev) return false;
  return next.total > prev.total || (next.latest?.id ?? 0) > (prev.latest?.id ?? 0);
}
