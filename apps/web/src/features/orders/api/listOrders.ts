import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { orderKeys } from './keys';
import type { OrderParty } from '@portal/contracts';
import type { OrderQuery, OrderSummary, Page } from './types';

export const listOrders = (q: OrderQuery) => http.post<Page<OrderSummary>>('order/list', q);
export const listOrdersQuery = (q: OrderQuery) =>
  queryOptions({
    queryKey: orderKeys.list(q),
    queryFn: () => listOrders(q),
    placeholderData: keepPreviousData,
    ...LIVE,
  });

/** The other side of the organization's orders, one per partnership: the list's partner filter (needs order:view only). */
export const orderPartiesQuery = () =>
  queryOptions({
    queryKey: orderKeys.parties,
    queryFn: () => http.post<{ list: OrderParty[] }>('order/parties'),
    select: (r) => r.list,
    staleTime: 60_000,
  });
