import type { SysMsgQuery } from './listSysMsg';

/** Query keys of the notifications (the bell and the drawer). */
export const notificationKeys = {
  all: ['notifications'] as const,
  lists: ['notifications', 'list'] as const,
  list: (q: SysMsgQuery) => ['notifications', 'list', q] as const,
  unread: ['notifications', 'unread'] as const,
};
