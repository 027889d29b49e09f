import { http } from '../../../lib/http';
import type { OrderMessage } from './types';

export const sendMessage = (body: { orderCode: string; content: string; attachmentCodes: string[] }) =>
  http.write<OrderMessage>('msg/send', body);
