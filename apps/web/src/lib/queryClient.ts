import { focusManager, QueryClient } from '@tanstack/react-query';
import { watchFocus } from './freshness';

// Called without an argument, TanStack reads the tab's visibility and refetches what wants it (`LIVE` queries).
focusManager.setEventListener((handleFocus) => watchFocus(() => handleFocus()));

export const queryClient = new QueryClient({
  defaultOptions: {
    // The http client already shows errors and refreshes tokens; retrying would repeat toasts. Screens that show a
    // status opt into fresher data with `LIVE` (lib/freshness.ts); the rest may be 30 s old.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
