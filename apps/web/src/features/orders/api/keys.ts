import type { QueryClient } from '@tanstack/react-query';
import { ORDER_STATUSES, type OrderStatus } from '@portal/contracts';
import { caseKeys } from '../../cases/api/keys';
import { dashboardKeys } from '../../dashboard/api/keys';
import type { OrderDetail, OrderQuery, OrderSummary, Page } from './types';

/**
 * Query keys of the orders feature, as prefixes: invalidating `lists` or `details` reaches every list or every
 * order, whatever its filters. Every orders query takes its key from here.
 */
export const orderKeys = {
  all: ['orders'] as const,
  lists: ['orders', 'list'] as const,
  list: (q: OrderQuery) => ['orders', 'list', q] as const,
  /** Under `lists`: a new order may bring a new party, so it refreshes with them. */
  parties: ['orders', 'list', 'parties'] as const,
  details: ['orders', 'detail'] as const,
  detail: (orderCode: string) => ['orders', 'detail', orderCode] as const,
  threads: ['orders', 'messages'] as const,
  annotations: (orderCode: string) => ['orders', 'annotations', orderCode] as const,
  marginLines: (orderCode: string) => ['orders', 'marginLines', orderCode] as const,
  thread: (orderCode: string) => ['orders', 'messages', orderCode] as const,
  requiredFieldsAll: ['orders', 'requiredFields'] as const,
  requiredFields: (partnerCode?: string) => ['orders', 'requiredFields', partnerCode ?? ''] as const,
};

/**
 * The prefixes of every query that shows where an order or a case stands: order lists and pages (with their
 * threads), case lists and pages (a case follows its order), the dashboard.
 */
export const WORK_KEYS = [
  orderKeys.lists,
  orderKeys.details,
  orderKeys.threads,
  caseKeys.lists,
  caseKeys.details,
  dashboardKeys.all,
] as const;

/**
 * Marks them all stale after an order or case action, or when a notification arrives: what is on screen is fetched
 * again at once, the rest when next shown. Resolves once what is on screen has its new data.
 */
export function invalidateWork(qc: QueryClient): Promise<unknown> {
  return Promise.all(WORK_KEYS.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

/**
 * Shows an order's new status at once in every cached list and on its page, as a live event tells it (the event
 * carries the status, never the patient): the row repaints without waiting for the refetch that follows, which brings
 * the rest of the change. Anything but a known status is ignored.
 */
export function showOrderStatus(qc: QueryClient, orderCode: string, status: unknown) {
  if (!ORDER_STATUSES.includes(status as OrderStatus)) return;
  const next = status as OrderStatus;
  qc.setQueriesData<Page<OrderSummary>>({ queryKey: orderKeys.lists }, (page) =>
    page?.list?.some((o) => o.orderCode === orderCode && o.status !== next)
      ? { ...page, list: page.list.map((o) => (o.orderCode === orderCode ? { ...o, status: next } : o)) }
      : page,
  );
  qc.setQueryData<OrderDetail>(orderKeys.detail(orderCode), (order) =>
    order && order.status !== next ? { ...order, status: next } : order,
  );
}
