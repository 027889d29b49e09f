import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE_DETAIL } from '../../../lib/freshness';
import { orderKeys } from './keys';
import type { OrderDetail } from './types';

export const orderDetail = (orderCode: string) => http.post<OrderDetail>('order/detail', { orderCode });
/** Polled while open: the other side may move the order at any time. */
export const orderDetailQuery = (orderCode: string) =>
  queryOptions({ queryKey: orderKeys.detail(orderCode), queryFn: () => orderDetail(orderCode), ...LIVE_DETAIL });
