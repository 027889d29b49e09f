import { loadAntdTheme } from '../components/lazyThemed';
import { MENU_PAGES, PUBLIC_PAGES } from '../config/pages';

/**
 * Starts fetching the first screen's code while the start-up sequence (language, config, session, menu) runs,
 * instead of after it: the route's own load then finds it on its way. Only exact paths: a detail screen's address
 * carries its own parameters and loads as before. A failure here is the route's to report.
 */
export function warmFirstScreen(pathname: string, signedIn: boolean): void {
  const path = pathname.replace(/\/+$/, '') || '/';
  const publicPage = PUBLIC_PAGES.find((p) => p.path === path);
  if (publicPage) {
    void publicPage.load().catch(() => undefined);
    // A page drawn without antd (the login page) does not wait for antd's theme, nor pay for it.
    if (!publicPage.plain) void loadAntdTheme().catch(() => undefined);
    return;
  }
  if (!signedIn) return;
  void import('./layouts/MainLayout').catch(() => undefined);
  void loadAntdTheme().catch(() => undefined);
  const screen = Object.values(MENU_PAGES).find((p) => p.path === path);
  if (screen) void screen.load().catch(() => undefined);
}
