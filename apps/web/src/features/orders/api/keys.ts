import type { OrderQuery } from './types';

/**
 * Query keys of the orders feature, as prefixes: invalidating `lists` or `details` reaches every list or every
 * order, whatever its filters. Every orders query takes its key from here.
 */
export const orderKeys = {
  all: ['orders'] as const,
  lists: ['orders', 'list'] as const,
  list: (q: OrderQuery) => ['orders', 'list', q] as const,
  details: ['orders', 'detail'] as const,
  detail: (orderCode: string) => ['orders', 'detail', orderCode] as const,
  threads: ['orders', 'messages'] as const,
  thread: (orderCode: string) => ['orders', 'messages', orderCode] as const,
  requiredFieldsAll: ['orders', 'requiredFields'] as const,
  requiredFields: (partnerCode?: string) => ['orders', 'requiredFields', partnerCode ?? ''] as const,
};
