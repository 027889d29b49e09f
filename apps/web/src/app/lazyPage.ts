import { LAZY_SCREEN_RELOAD_DELAY_MS } from '@portal/contracts';
import { LoadFailed } from '../components/PageState';
import type { PageModule } from '../config/pages';

/** Route `lazy` for a screen; a chunk that fails to load (new deploy, network) reloads the page after 3 s. */
export function lazyPage(load: () => Promise<PageModule>) {
  return async () => {
    try {
      const m = await load();
      return { Component: m.default };
    } catch {
      setTimeout(() => window.location.reload(), LAZY_SCREEN_RELOAD_DELAY_MS);
      return { Component: LoadFailed };
    }
  };
}
