import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { orderKeys } from './keys';
import type { OrderQuery, OrderSummary, Page } from './types';

export const listOrders = (q: OrderQuery) => http.post<Page<OrderSummary>>('order/list', q);
export const listOrdersQuery = (q: OrderQuery) =>
  queryOptions({
    queryKey: orderKeys.list(q),
    queryFn: () => listOrders(q),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
