import type { RemakeOrderBody } from '@portal/contracts';
import { http } from '../../../lib/http';
import type { OrderDetail } from './types';

/** Asks the laboratory to make a shipped or completed order again; answers the new order. */
export const remakeOrder = (body: RemakeOrderBody) => http.write<OrderDetail>('order/remake', body);
