import { http } from '../../../lib/http';
import type { CreateOrderBody, OrderDetail } from './types';

/** Silent: the send dialog shows the refusal (required fields, device limits, partnership) itself. */
export const createOrder = (body: CreateOrderBody) =>
  http.write<{ list: OrderDetail[] }>('order/create', body, { silent: true });
