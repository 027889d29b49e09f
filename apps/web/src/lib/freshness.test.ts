// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { QueryObserver, type QueryKey } from '@tanstack/react-query';
import { DETAIL_POLL_MS, LIVE, watchFocus } from './freshness';
import { queryClient } from './queryClient';
import { listOrdersQuery } from '../features/orders/api/listOrders';
import { orderDetailQuery } from '../features/orders/api/orderDetail';
import { caseDetailQuery } from '../features/cases/api/caseDetail';
import { listCasesQuery } from '../features/cases/api/listCases';
import { indexDashboardQuery } from '../features/dashboard/api/indexDashboard';
import { acceptOrderLineChartQuery, lineChartQuery } from '../features/dashboard/api/lineCharts';

// As the app's provider does: the client follows focus and network.
queryClient.mount();
const stops: (() => void)[] = [];
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  queryClient.clear();
});

/** Observes a query as a mounted screen would, counting the requests its function makes. */
function observe(queryKey: QueryKey, options: object = {}) {
  let requests = 0;
  const observer = new QueryObserver(queryClient, {
    queryKey,
    queryFn: () => Promise.resolve(++requests),
    ...options,
  });
  stops.push(observer.subscribe(() => {}));
  return { requests: () => requests };
}
const settle = () => new Promise((r) => setTimeout(r, 10));

describe('fresh statuses', () => {
  it('every screen that shows a status asks again on mount and on focus; order and case pages also poll without the live socket', () => {
    const q = { pageNum: 1, pageSize: 20 };
    for (const options of [
      listOrdersQuery(q),
      orderDetailQuery('O1'),
      listCasesQuery(q),
      caseDetailQuery('C1'),
      indexDashboardQuery(),
      lineChartQuery('30d'),
      acceptOrderLineChartQuery('30d'),
    ]) {
      expect(options, JSON.stringify(options.queryKey)).toMatchObject(LIVE);
    }
    expect(LIVE).toEqual({ staleTime: 0, refetchOnWindowFocus: true });
    for (const options of [orderDetailQuery('O1'), caseDetailQuery('C1')]) {
      expect(options).toMatchObject({ refetchIntervalInBackground: false });
      // Without a live socket (lib/live.test.ts: while it cannot connect) they poll; with it up they do not.
      expect((options.refetchInterval as () => number | false)()).toBe(DETAIL_POLL_MS);
    }
    // A modest interval: within 10–15 s, and not in the background.
    expect(DETAIL_POLL_MS).toBeGreaterThanOrEqual(10_000);
    expect(DETAIL_POLL_MS).toBeLessThanOrEqual(15_000);
  });

  it('a window getting focus back or a tab shown again refetches what is live, and only that', async () => {
    const live = observe(['orders', 'detail', 'O1'], LIVE);
    // Other data keeps the app's default: 30 s fresh, not refetched on focus.
    const other = observe(['partners', 'list']);
    await settle();
    expect([live.requests(), other.requests()]).toEqual([1, 1]);

    window.dispatchEvent(new Event('focus'));
    await settle();
    expect([live.requests(), other.requests()]).toEqual([2, 1]);

    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    await settle();
    expect([live.requests(), other.requests()]).toEqual([3, 1]);
  });

  it('watchFocus hears both events until stopped', () => {
    let heard = 0;
    const stop = watchFocus(() => (heard += 1));
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    stop();
    window.dispatchEvent(new Event('focus'));
    expect(heard).toBe(2);
  });
});
