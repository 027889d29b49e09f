import { LAZY_SCREEN_RELOAD_DELAY_MS } from '@portal/contracts';
import { LoadFailed } from '../components/PageState';
import { loadAntdTheme } from '../components/lazyThemed';
import type { PageModule } from '../config/pages';
import { i18next } from '../lib/i18n';
import { untilServerAnswers } from '../lib/lazyChunk';

/**
 * Where a screen's antd theme comes from: its own (a top-level screen), its layout's (a screen inside the signed-in
 * layout), or none (a screen drawn without antd, such as the login page).
 */
export type ThemeFrame = 'own' | 'layout' | 'none';

/**
 * Route `lazy` for a screen: its code and its translations together, so it never draws a raw key; a chunk that fails
 * to load (new deploy, network) reloads the page after 3 s, once the server answers (a reload while it is away would
 * land on the browser's error page, which never comes back by itself).
 */
export function lazyPage(load: () => Promise<PageModule>, frame: ThemeFrame = 'own') {
  return async () => {
    try {
      const [m, theme] = await Promise.all([load(), frame === 'own' ? loadAntdTheme() : null]);
      // A namespace that fails to load falls back to English inside i18next; the page still opens.
      if (m.namespaces?.length) await i18next.loadNamespaces([...m.namespaces]).catch(() => undefined);
      return { Component: theme ? theme.withAntdTheme(m.default) : m.default };
    } catch {
      setTimeout(() => void untilServerAnswers().then(() => window.location.reload()), LAZY_SCREEN_RELOAD_DELAY_MS);
      return { Component: LoadFailed };
    }
  };
}
