import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { getLive, LIVE_RESET, useLiveState, type LiveEvent, type LiveState } from '../../../lib/live';
import { caseKeys } from '../../cases/api/keys';
import { dashboardKeys } from '../../dashboard/api/keys';
import { notificationKeys } from '../../notifications/api/keys';
import { orderKeys, showOrderStatus } from '../../orders/api/keys';

const subjects = (events: LiveEvent[]) => [...new Set(events.map((e) => e.subject).filter((s) => s !== null))];

/** Marks these queries stale: those on screen are fetched again in place (their data stays shown meanwhile). */
function refresh(qc: QueryClient, keys: QueryKey[]) {
  for (const queryKey of keys) void qc.invalidateQueries({ queryKey });
}

/**
 * The longest wait before the refetch that follows a change the event already showed. Every tab that hears an event
 * hears it in the same millisecond: spread over this, their refetches reach the server as a ripple, not a wave, and
 * do not compete with the repaint the event itself asked for.
 */
export const RECONCILE_SPREAD_MS = 1_000;

/**
 * Marks these queries stale at once (a screen opened meanwhile fetches them) and fetches those on screen after a
 * random part of RECONCILE_SPREAD_MS: for changes already shown from the event's own data.
 */
function reconcile(qc: QueryClient, keys: QueryKey[], random = Math.random) {
  for (const queryKey of keys) void qc.invalidateQueries({ queryKey, refetchType: 'none' });
  setTimeout(() => {
    for (const queryKey of keys) void qc.refetchQueries({ queryKey, type: 'active', stale: true });
  }, random() * RECONCILE_SPREAD_MS);
}

/** What each kind of event makes stale (apps/server records them where the change is made). */
export function liveHandlers(
  qc: QueryClient,
  random: () => number = Math.random,
): Record<string, (events: LiveEvent[]) => void> {
  return {
    // The bell asks for its count; a new notification there refreshes the work on screen as before.
    notification: () => refresh(qc, [notificationKeys.unread, notificationKeys.lists]),
    // A case's status follows its orders, and the event names the order only: every case list and page.
    // The row and the page show the new status at once (the event carries it); the refetch brings the rest.
    'order.changed': (events) => {
      for (const e of events) if (e.subject) showOrderStatus(qc, e.subject, e.data.status);
      reconcile(
        qc,
        [
          orderKeys.lists,
          ...subjects(events).map(orderKeys.detail),
          caseKeys.lists,
          caseKeys.details,
          dashboardKeys.all,
        ],
        random,
      );
    },
    'order.message': (events) =>
      refresh(
        qc,
        subjects(events).flatMap((code) => [orderKeys.thread(code), orderKeys.detail(code)]),
      ),
    'case.changed': (events) =>
      refresh(qc, [caseKeys.lists, ...subjects(events).map(caseKeys.detail), dashboardKeys.all]),
    'export.changed': (events) => refresh(qc, subjects(events).map(caseKeys.export)),
    // A model's viewer version is ready: its case's page, and the order pages that show the case's files.
    'file.prepared': (events) => refresh(qc, [...subjects(events).map(caseKeys.detail), orderKeys.details]),
    // Events were missed beyond what the server keeps: everything is fetched again.
    [LIVE_RESET]: () => void qc.invalidateQueries(),
  };
}

/**
 * The signed-in screens' live updates: opens the tab's socket while they are shown and refreshes what each event
 * changes, in place (no remount: scroll, selection and half-typed text stay). Answers the socket's state.
 */
export function useLiveUpdates(): LiveState {
  const qc = useQueryClient();
  useEffect(() => {
    const live = getLive();
    if (!live) return;
    const stops = Object.entries(liveHandlers(qc)).map(([kind, fn]) => live.subscribe(kind, fn));
    live.start();
    return () => {
      stops.forEach((stop) => stop());
      live.stop();
    };
  }, [qc]);
  return useLiveState();
}
