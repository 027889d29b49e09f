import type { SysMsg } from '@portal/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { notificationKeys } from './keys';

export type { SysMsg };
/**
 * Message types (contracts' MSG_TYPES), repeated here: a value import from the contracts' schema modules
 * would bring zod into the bundle.
 */
export const MSG_TYPES = { orderMessage: 2, workOrder: 5 } as const;
/** The drawer's tabs: every notification, order messages (2), work orders (5). */
export type SysMsgTab = 'all' | 2 | 5;
export const SYS_MSG_TABS: readonly SysMsgTab[] = ['all', 2, 5];
export interface SysMsgQuery {
  pageNum: number;
  pageSize: number;
  msgType?: 2 | 5;
  unreadOnly?: boolean;
}
export interface SysMsgList {
  total: number;
  list: SysMsg[];
  counts: { msgType: number; count: number }[];
}
export const listSysMsg = (q: SysMsgQuery) => http.post<SysMsgList>('msg/listSysMsg', q);
export const listSysMsgQuery = (q: SysMsgQuery) =>
  queryOptions({
    queryKey: notificationKeys.list(q),
    queryFn: () => listSysMsg(q),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
