import { http, type Download } from '../../../lib/http';
import type { OrderExportInput } from './types';

/** The filtered list as a file; the server answers with an attachment. */
export const exportOrders = (body: OrderExportInput) => http.post<Download>('order/export', body);
