import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { LIVE_RESET, type LiveEvent } from '../../../lib/live';
import { caseKeys } from '../../cases/api/keys';
import { dashboardKeys } from '../../dashboard/api/keys';
import { notificationKeys } from '../../notifications/api/keys';
import { orderKeys } from '../../orders/api/keys';
import { liveHandlers, RECONCILE_SPREAD_MS } from './useLiveUpdates';

const q = { pageNum: 1, pageSize: 20 };
const KEYS: Record<string, QueryKey> = {
  orderList: orderKeys.list(q),
  orderO1: orderKeys.detail('O1'),
  orderO2: orderKeys.detail('O2'),
  threadO1: orderKeys.thread('O1'),
  caseList: caseKeys.list(q),
  caseC1: caseKeys.detail('C1'),
  caseC2: caseKeys.detail('C2'),
  exportE1: caseKeys.export('E1'),
  dashboard: dashboardKeys.index,
  unread: notificationKeys.unread,
  partners: ['partners', 'list'],
};

/** Which of the cached queries one kind of event marks stale (fetched again at once when on screen). */
function staleAfter(kind: string, events: Array<Partial<LiveEvent>>) {
  const qc = new QueryClient();
  for (const key of Object.values(KEYS)) qc.setQueryData(key, 1);
  liveHandlers(qc)[kind]!(events.map((e, i) => ({ p: i + 1, kind, subject: null, data: {}, ...e })));
  return Object.entries(KEYS)
    .filter(([, key]) => qc.getQueryState(key)?.isInvalidated)
    .map(([name]) => name);
}

describe('what each live event refreshes', () => {
  it('only what the event concerns', () => {
    expect(staleAfter('order.changed', [{ subject: 'O1' }])).toEqual([
      'orderList',
      'orderO1',
      'caseList',
      'caseC1',
      'caseC2',
      'dashboard',
    ]);
    expect(staleAfter('order.message', [{ subject: 'O1' }])).toEqual(['orderO1', 'threadO1']);
    expect(staleAfter('case.changed', [{ subject: 'C2' }])).toEqual(['caseList', 'caseC2', 'dashboard']);
    expect(staleAfter('export.changed', [{ subject: 'E1' }])).toEqual(['exportE1']);
    expect(staleAfter('file.prepared', [{ subject: 'C1' }])).toEqual(['orderO1', 'orderO2', 'caseC1']);
    expect(staleAfter('notification', [{}])).toEqual(['unread']);
    expect(staleAfter(LIVE_RESET, [])).toEqual(Object.keys(KEYS));
  });
});

describe('an order event', () => {
  const row = (orderCode: string, status: string) => ({ orderCode, status, patientName: 'Ann' });
  it("shows the order's new status in the cached lists and on its page before the refetch", () => {
    const qc = new QueryClient();
    qc.setQueryData(orderKeys.list(q), { total: 2, list: [row('O1', 'accepted'), row('O2', 'accepted')] });
    qc.setQueryData(orderKeys.list({ ...q, pageNum: 2 }), { total: 2, list: [] });
    qc.setQueryData(orderKeys.detail('O1'), row('O1', 'accepted'));
    liveHandlers(qc)['order.changed']!([
      { p: 1, kind: 'order.changed', subject: 'O1', data: { status: 'ready' } },
      { p: 2, kind: 'order.changed', subject: 'O1', data: { status: 'shipped' } },
    ]);
    expect(qc.getQueryData(orderKeys.list(q))).toEqual({
      total: 2,
      list: [row('O1', 'shipped'), row('O2', 'accepted')],
    });
    expect(qc.getQueryData(orderKeys.detail('O1'))).toEqual(row('O1', 'shipped'));
    expect(qc.getQueryState(orderKeys.list(q))?.isInvalidated).toBe(true);
  });

  it('leaves the cache alone for a status it does not know', () => {
    const qc = new QueryClient();
    const page = { total: 1, list: [row('O1', 'accepted')] };
    qc.setQueryData(orderKeys.list(q), page);
    liveHandlers(qc)['order.changed']!([{ p: 1, kind: 'order.changed', subject: 'O1', data: { status: 'lost' } }]);
    expect(qc.getQueryData(orderKeys.list(q))).toBe(page);
  });
});

describe('the refetch after an order event', () => {
  afterEach(() => vi.useRealTimers());

  it('waits its share of the spread, then fetches what is on screen once', async () => {
    vi.useFakeTimers();
    const qc = new QueryClient();
    let fetches = 0;
    const observer = new QueryObserver(qc, {
      queryKey: orderKeys.list(q),
      queryFn: () => ({ total: ++fetches, list: [] }),
    });
    const stop = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toBe(1);

    liveHandlers(qc, () => 0.5)['order.changed']!([
      { p: 1, kind: 'order.changed', subject: 'O1', data: { status: 'ready' } },
    ]);
    // Stale at once, so a screen opened meanwhile fetches it; the screen open now waits its turn.
    expect(qc.getQueryState(orderKeys.list(q))?.isInvalidated).toBe(true);
    await vi.advanceTimersByTimeAsync(RECONCILE_SPREAD_MS * 0.5 - 1);
    expect(fetches).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches).toBe(2);
    await vi.advanceTimersByTimeAsync(RECONCILE_SPREAD_MS * 2);
    expect(fetches).toBe(2);
    stop();
  });
});
