import type { z } from 'zod';
import type { UnreadSummary as UnreadSummarySchema } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { fallbackPoll } from '../../../lib/live';
import { notificationKeys } from './keys';

export type UnreadSummary = z.infer<typeof UnreadSummarySchema>;

/**
 * How often the header asks for unread notifications while the live socket is down (only while the tab is visible;
 * with the socket up, a `notification` event makes it ask). A new one makes every open order and case screen fetch
 * again. The call reads a partial index of unread rows, a fraction of a millisecond of the database.
 */
export const UNREAD_POLL_MS = 1_500;

/** Silent: a failed poll must not toast at every poll; the next one simply tries again. */
export const unreadCount = () => http.post<UnreadSummary>('msg/unreadCount', {}, { silent: true });
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: notificationKeys.unread,
    queryFn: unreadCount,
    refetchInterval: fallbackPoll(UNREAD_POLL_MS),
    // TanStack pauses the interval while the tab is hidden and refetches when it becomes visible again.
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
