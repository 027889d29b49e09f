import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { OrderQuery, OrderSummary, Page } from './types';

export const listOrders = (q: OrderQuery) => http.post<Page<OrderSummary>>('order/list', q);
export const listOrdersQuery = (q: OrderQuery) =>
  queryOptions({ queryKey: ['orders', 'list', q], queryFn: () => listOrders(q), placeholderData: keepPreviousData });
