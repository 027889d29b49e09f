import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { mailKeys } from './keys';
import type { Mail } from '../components/MailList';

export const listOutbox = (q: { pageNum: number; pageSize: number }) =>
  http.post<{ total: number; list: Mail[] }>('mail/listOutbox', q);
export const listOutboxQuery = (q: { pageNum: number; pageSize: number }) =>
  queryOptions({ queryKey: mailKeys.outbox(q), queryFn: () => listOutbox(q) });
