import { useEffect, useRef } from 'react';
import { useLocation, useMatches, useNavigation } from 'react-router';
import { useSession } from '../../../lib/session';
import { screenOpened, startUsage, stopUsage } from './usageTracker';

/** The screen a route shows: its menu code (`screen:caseList` → `caseList`), or the route's own id. */
function screenOf(matches: ReturnType<typeof useMatches>): string {
  const id = matches[matches.length - 1]?.id ?? 'unknown';
  return id.startsWith('screen:') ? id.slice('screen:'.length) : id;
}

/**
 * Rendered inside the layout: keeps the navigation state's re-renders to itself, away from the layout and its
 * screen. Draws nothing.
 */
export function UsageTracker() {
  useUsageTracking();
  return null;
}

/**
 * Counts the screens a participating user opens and how long each took to load: from the navigation's start (or the
 * layout's first render) until the screen is shown. Does nothing for anyone else.
 */
export function useUsageTracking() {
  const { user } = useSession();
  const participating = user?.improvementPlan === true;
  const { pathname } = useLocation();
  const matches = useMatches();
  const navigation = useNavigation();
  const startedAt = useRef<number>(performance.now());

  useEffect(() => {
    if (!participating) return;
    startUsage();
    return stopUsage;
  }, [participating]);

  useEffect(() => {
    if (navigation.state === 'loading') startedAt.current = performance.now();
  }, [navigation.state]);

  const screen = screenOf(matches);
  const pending = screen === 'pending' || screen === 'pending:home';
  useEffect(() => {
    if (!participating || pending) return;
    screenOpened(screen, performance.now() - startedAt.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one event per screen shown
  }, [pathname, participating, pending]);
}
