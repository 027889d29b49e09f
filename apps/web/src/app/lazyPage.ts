import { LAZY_SCREEN_RELOAD_DELAY_MS } from '@portal/contracts';
import { LoadFailed } from '../components/PageState';
import type { PageModule } from '../config/pages';
import { i18next } from '../lib/i18n';

/**
 * Route `lazy` for a screen: its code and its translations together, so it never draws a raw key; a chunk that fails
 * to load (new deploy, network) reloads the page after 3 s.
 */
export function lazyPage(load: () => Promise<PageModule>) {
  return async () => {
    try {
      const m = await load();
      // A namespace that fails to load falls back to English inside i18next; the page still opens.
      if (m.namespaces?.length) await i18next.loadNamespaces([...m.namespaces]).catch(() => undefined);
      return { Component: m.default };
    } catch {
      setTimeout(() => window.location.reload(), LAZY_SCREEN_RELOAD_DELAY_MS);
      return { Component: LoadFailed };
    }
  };
}
