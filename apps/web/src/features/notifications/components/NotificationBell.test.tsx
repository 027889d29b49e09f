// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import type { SysMsg } from '@portal/contracts';
import '../../../test/dom-shims';
import { mockServer, pending } from '../../../test/http-mock';
import { cleanup, renderWithProviders } from '../../../test/render';
import { $, $$, click as clickThen, flush as settle, waitFor } from '../../../test/dom';
import { nextPopup, notificationArrived } from '../lib/latest';
import { notificationKeys } from '../api/keys';
import { UNREAD_POLL_MS, unreadCountQuery, type UnreadSummary } from '../api/unreadCount';
import { POPUP_SECONDS } from './NotificationPopup';
import { tabCount } from './NotificationDrawer';

// The server: each path answers from the test's state; anything else stays pending.
let unread: UnreadSummary;
let sysList: { total: number; list: SysMsg[]; counts: { msgType: number; count: number }[] };
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const { calls } = mockServer((path) => {
  if (path === 'msg/unreadCount') return Promise.resolve(structuredClone(unread));
  if (path === 'msg/listSysMsg') return Promise.resolve(structuredClone(sysList));
  if (path === 'msg/read') return Promise.resolve(null);
  return pending();
});

const msg = (id: number, p: Partial<SysMsg> = {}): SysMsg => ({
  id,
  msgType: 5,
  code: `ORD-${id}`,
  subject: 'order',
  title: `Order ORD-${id} accepted`,
  content: `The laboratory accepted order ORD-${id}.`,
  read: false,
  createdAt: '2026-11-20T10:00:00Z',
  ...p,
});

let qc: QueryClient;
beforeEach(() => {
  unread = {
    total: 2,
    counts: [
      { msgType: 2, count: 1 },
      { msgType: 5, count: 1 },
    ],
    latest: msg(5),
  };
  sysList = {
    total: 2,
    list: [msg(5), msg(4, { msgType: 2, read: true, title: 'New message on ORD-4' })],
    counts: [
      { msgType: 2, count: 1 },
      { msgType: 5, count: 1 },
    ],
  };
});
afterEach(cleanup);

const flush = (times = 3) => settle(times, 10);
const click = (node: Element | null | undefined) => clickThen(node, flush);

async function render() {
  const { NotificationBell } = await import('./NotificationBell');
  const bell = (
    <>
      <NotificationBell />
      <Outlet />
    </>
  );
  const rendered = await renderWithProviders(
    [
      {
        element: bell,
        children: [
          { path: '/', element: <div data-testid="home" /> },
          { path: '/order-management/detail/:id', element: <div data-testid="order-page" /> },
        ],
      },
    ],
    '/',
  );
  qc = rendered.qc;
  await flush();
  return rendered.router;
}
const poll = async () => {
  await act(async () => void (await qc.refetchQueries({ queryKey: notificationKeys.unread })));
  await flush(6);
};

describe('notification bell', () => {
  it('polls every 1.5 s while visible and on focus, without a live socket (with one, it does not)', () => {
    const q = unreadCountQuery();
    expect(UNREAD_POLL_MS).toBe(1_500);
    expect((q.refetchInterval as () => number | false)()).toBe(1_500);
    expect(q.refetchIntervalInBackground).toBe(false);
    expect(q.refetchOnWindowFocus).toBeTruthy();
    expect(POPUP_SECONDS).toBe(3);
  });

  it('shows the unread count from msg/unreadCount and hides it at zero', async () => {
    await render();
    expect(calls.some((c) => c.path === 'msg/unreadCount')).toBe(true);
    expect($('notification-bell')).not.toBeNull();
    expect($('notification-count')?.textContent).toBe('2');
    unread = { ...unread, total: 120 };
    await poll();
    expect($('notification-count')?.textContent).toBe('99+');
    unread = { total: 0, counts: [], latest: msg(5, { read: true }) };
    await poll();
    expect($('notification-count')).toBeNull();
  });

  it('pops up a newer notification (not the one there at first load); clicking it opens the order', async () => {
    const router = await render();
    await flush(6);
    // First answer: only sets the mark.
    expect($('notification-popup')).toBeNull();
    // Same latest again: nothing.
    await poll();
    expect($('notification-popup')).toBeNull();

    unread = {
      total: 3,
      counts: [{ msgType: 5, count: 3 }],
      latest: msg(6, { title: 'Order ORD-6 shipped', content: 'Tracking 1Z999' }),
    };
    await poll();
    await waitFor(() => $('notification-popup'));
    const popup = $('notification-popup');
    expect(popup).not.toBeNull();
    expect(popup!.textContent).toContain('Order ORD-6 shipped');
    expect(popup!.textContent).toContain('Tracking 1Z999');
    expect($$('notification-popup')).toHaveLength(1);

    await click(popup);
    await waitFor(() => router.state.location.pathname !== '/');
    expect(router.state.location.pathname).toBe('/order-management/detail/ORD-6');
    expect(calls.find((c) => c.path === 'msg/read')?.body).toEqual({ ids: [6] });

    // An older notification than the one already seen does not pop up.
    unread = { ...unread, latest: msg(4) };
    await poll();
    expect($$('notification-popup').filter((el) => el.textContent?.includes('ORD-4'))).toHaveLength(0);
  });

  it('a new notification refreshes every order, case and dashboard query; a poll without one does not', async () => {
    await render();
    const work = [
      ['orders', 'detail', 'ORD-6'],
      ['orders', 'list', { pageNum: 1, pageSize: 20 }],
      ['cases', 'detail', 'C-6'],
      ['cases', 'list', { pageNum: 1, pageSize: 20 }],
      ['dashboard', 'index'],
    ];
    const other = [
      ['partners', 'list', { tab: 'mine' }],
      ['cases', 'grant', 'F1'],
    ];
    for (const key of [...work, ...other]) qc.setQueryData(key, { seeded: true });
    const invalidated = (key: unknown[]) => qc.getQueryState(key)?.isInvalidated;
    // The same answer again (and one where a notification was read): nothing happened on the other side.
    await poll();
    unread = { ...unread, total: 1 };
    await poll();
    expect(work.map(invalidated)).toEqual(work.map(() => false));

    // The laboratory shipped ORD-6.
    unread = { total: 2, counts: [{ msgType: 5, count: 2 }], latest: msg(6, { title: 'Order ORD-6 shipped' }) };
    await poll();
    expect(work.map(invalidated)).toEqual(work.map(() => true));
    expect(other.map(invalidated)).toEqual([false, false]);
  });

  it('the pop-up closes by itself after 3 seconds', async () => {
    await render();
    unread = { ...unread, latest: msg(9, { title: 'Short-lived' }) };
    await poll();
    await waitFor(() => $('notification-popup'));
    expect($('notification-popup')?.textContent).toContain('Short-lived');
    const shownAt = Date.now();
    // Re-rendering the header (the drawer opens) must not restart the pop-up's timer.
    await act(async () => void (await new Promise((r) => setTimeout(r, 800))));
    await click($('notification-bell'));
    await waitFor(() => $('notification-drawer'));
    await act(async () => void (await new Promise((r) => setTimeout(r, Math.max(0, 2500 - (Date.now() - shownAt))))));
    // Still there before its 3 seconds (on a machine so loaded that the drawer took longer, nothing to see here).
    if (Date.now() - shownAt < 2900) expect($('notification-popup')?.textContent).toContain('Short-lived');
    await act(async () => void (await new Promise((r) => setTimeout(r, 1500))));
    await flush(4);
    expect(document.querySelector('[data-testid="notification-popup"]:not(.ant-notification-fade-leave)')).toBeNull();
  }, 20_000);

  it('the drawer lists notifications with tab counts; read-all and item clicks mark them read', async () => {
    const router = await render();
    await click($('notification-bell'));
    await waitFor(() => $$('notification-item').length === 2);
    expect($('notification-drawer')).not.toBeNull();
    expect(calls.find((c) => c.path === 'msg/listSysMsg')?.body).toEqual({ pageNum: 1, pageSize: 20 });
    const items = $$('notification-item');
    expect(items).toHaveLength(2);
    expect(items[0]!.getAttribute('data-read')).toBe('false');
    expect(items[1]!.getAttribute('data-read')).toBe('true');
    expect($('notification-tab-count-all')?.textContent).toContain('2');
    expect($('notification-tab-count-2')?.textContent).toContain('1');

    // The order messages tab asks for type 2 only.
    await click($('notification-tab-2'));
    await waitFor(() =>
      calls.some((c) => c.path === 'msg/listSysMsg' && (c.body as { msgType?: number }).msgType === 2),
    );
    expect(calls.filter((c) => c.path === 'msg/listSysMsg').map((c) => c.body)).toContainEqual({
      pageNum: 1,
      pageSize: 20,
      msgType: 2,
    });

    await click($('notification-read-all'));
    await waitFor(() => calls.some((c) => c.path === 'msg/read'));
    expect(calls.filter((c) => c.path === 'msg/read').map((c) => c.body)).toEqual([{}]);

    await click($('notification-tab-all'));
    await flush(4);
    await click($$('notification-item')[0]);
    await waitFor(() => router.state.location.pathname !== '/');
    expect(calls.filter((c) => c.path === 'msg/read').map((c) => c.body)).toEqual([{}, { ids: [5] }]);
    expect(router.state.location.pathname).toBe('/order-management/detail/ORD-5');
  });
});

describe('pop-up rule', () => {
  it('marks the first answer, then pops up only newer notifications', () => {
    expect(nextPopup(null, msg(5))).toEqual({ seen: 5, popup: null });
    expect(nextPopup(null, null)).toEqual({ seen: 0, popup: null });
    expect(nextPopup(0, msg(1)).popup?.id).toBe(1);
    expect(nextPopup(5, msg(5)).popup).toBeNull();
    expect(nextPopup(5, msg(4))).toEqual({ seen: 5, popup: null });
    expect(nextPopup(5, null)).toEqual({ seen: 5, popup: null });
    expect(nextPopup(5, msg(7))).toEqual({ seen: 7, popup: msg(7) });
  });
  it('a notification arrived: the count went up or the newest unread one is newer, never on the first answer', () => {
    const at = (total: number, id: number | null) => ({ total, latest: id === null ? null : msg(id) });
    expect(notificationArrived(undefined, at(3, 7))).toBe(false);
    expect(notificationArrived(at(3, 7), at(3, 7))).toBe(false);
    expect(notificationArrived(at(3, 7), at(2, 7))).toBe(false);
    expect(notificationArrived(at(3, 7), at(4, 7))).toBe(true);
    // One read and one new between two polls: the count stays, the newest is newer.
    expect(notificationArrived(at(3, 7), at(3, 8))).toBe(true);
    expect(notificationArrived(at(0, null), at(1, 1))).toBe(true);
    expect(notificationArrived(at(1, 1), at(0, null))).toBe(false);
  });
  it('tab counts', () => {
    const counts = [
      { msgType: 2, count: 3 },
      { msgType: 5, count: 4 },
    ];
    expect(tabCount(counts, 'all')).toBe(7);
    expect(tabCount(counts, 2)).toBe(3);
    expect(tabCount([], 5)).toBe(0);
    expect(tabCount(undefined, 'all')).toBeNull();
  });
});
