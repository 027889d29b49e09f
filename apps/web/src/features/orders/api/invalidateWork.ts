import type { QueryClient } from '@tanstack/react-query';
import { caseKeys } from '../../cases/api/keys';
import { dashboardKeys } from '../../dashboard/api/keys';
import { orderKeys } from './keys';

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
