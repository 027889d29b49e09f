import { http } from '../../../lib/http';
import type { OrderActionInput, OrderActionResults } from './types';

/** One action on many orders; each order answers for itself in `results`. */
export const orderAction = (body: OrderActionInput) => http.write<OrderActionResults>('order/action', body);
