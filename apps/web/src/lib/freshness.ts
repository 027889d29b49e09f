import { fallbackPoll } from './live';

/**
 * What screens that show a status (orders, cases, the dashboard) ask of their queries, so the status on screen is
 * the current one (docs/product-decisions.md, "Fresh statuses").
 *
 * `LIVE`: never stale-but-trusted. A page opened again asks the server again (the copy from the earlier visit shows
 * meanwhile), and so does a tab shown again or a window focused again (see `watchFocus`).
 */
export const LIVE = { staleTime: 0, refetchOnWindowFocus: true } as const;

/**
 * While an order or a case is open and the live socket is down, it is asked again this often, and not at all while
 * its tab is hidden.
 */
export const DETAIL_POLL_MS = 10_000;

/** `LIVE`, polled while on screen when the socket cannot tell its changes: an order or a case detail. */
export const LIVE_DETAIL = {
  ...LIVE,
  refetchInterval: fallbackPoll(DETAIL_POLL_MS),
  refetchIntervalInBackground: false,
} as const;

/**
 * What counts as focus for TanStack Query: the tab becoming visible (its default) and the window getting focus back.
 * Two windows side by side never hide each other; the one the user turns to must still show what is current.
 * Answers the function that stops listening.
 */
export function watchFocus(onFocus: () => void): () => void {
  document.addEventListener('visibilitychange', onFocus, false);
  window.addEventListener('focus', onFocus, false);
  return () => {
    document.removeEventListener('visibilitychange', onFocus);
    window.removeEventListener('focus', onFocus);
  };
}
