import { http } from '../../../lib/http';

/** Marks notifications read: the listed ids, all of a type, or all of an order; everything when empty. */
export interface ReadMsgBody {
  ids?: number[];
  msgType?: 2 | 5;
  orderCode?: string;
}
export const readMsg = (body: ReadMsgBody = {}) => http.write<null>('msg/read', body);
