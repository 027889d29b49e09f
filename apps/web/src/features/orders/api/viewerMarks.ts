import type { Annotation, MarginLine, SaveMarginLineBody } from '@portal/contracts';
import { http } from '../../../lib/http';

export type { MarginLine };
/** The notes the clinic pinned on the order's case, for either party to read. */
export const listOrderAnnotations = (orderCode: string) =>
  http.post<{ list: Annotation[] }>('order/annotation/list', { orderCode });
export const listMarginLines = (orderCode: string) =>
  http.post<{ list: MarginLine[] }>('order/marginLine/list', { orderCode });
export const saveMarginLine = (body: SaveMarginLineBody) => http.write<MarginLine>('order/marginLine/save', body);
export const deleteMarginLine = (orderCode: string, tooth: number) =>
  http.write<null>('order/marginLine/delete', { orderCode, tooth });
