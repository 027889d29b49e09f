import { checkSession } from '../features/auth/api/userInfo';
import { appConfigStore } from '../lib/appConfig';
import { LiveConnection, setLive } from '../lib/live';
import { queryClient } from '../lib/queryClient';
import { pastHalfLife, tokens } from '../lib/tokens';
import { refreshMenu } from './profile';

/** How often a visible tab looks whether its token wants renewing (the server renews past half its 15 minutes). */
const RENEW_CHECK_MS = 60_000;

/** Makes the tab's live connection; the signed-in layout opens it (features/live). */
export function wireLive() {
  const live = new LiveConnection({
    url: () => appConfigStore.get()?.wsEndpoint ?? '',
    token: tokens.access,
    // As a refused call: refresh the token when there is a refresh token, else (or if refused) sign out.
    unauthenticated: () =>
      checkSession().then(
        () => true,
        () => false,
      ),
    roleChanged: () => void refreshMenu(),
    // What polls is fetched once (the socket may have missed something), which also restarts its timers.
    pollingResumed: () => void queryClient.refetchQueries({ type: 'active', stale: true }),
  });
  setLive(live);
  tokens.watch(() => live.tokenChanged());
  // With the socket up a page polls nothing, so nothing renewed its token: a tab the user is looking at keeps its
  // session as the polls used to; a hidden one lets it lapse after 15 minutes unless another tab renews it.
  setInterval(() => {
    if (live.state.get().connected && document.visibilityState === 'visible' && pastHalfLife(tokens.access()))
      void checkSession().catch(() => undefined);
  }, RENEW_CHECK_MS);
}
