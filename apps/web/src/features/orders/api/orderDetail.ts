import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { OrderDetail } from './types';

export const orderDetail = (orderCode: string) => http.post<OrderDetail>('order/detail', { orderCode });
export const orderDetailQuery = (orderCode: string) =>
  queryOptions({ queryKey: ['orders', 'detail', orderCode], queryFn: () => orderDetail(orderCode) });
