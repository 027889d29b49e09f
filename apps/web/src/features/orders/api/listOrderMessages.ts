import { http } from '../../../lib/http';
import type { OrderMessage, Page } from './types';

/** One page of an order's thread, newest first. Reading marks the order's message notifications read. */
export const listOrderMessages = (orderCode: string, pageNum: number, pageSize: number) =>
  http.post<Page<OrderMessage>>('msg/listMsgByOrder', { orderCode, pageNum, pageSize });
