import { flattenScreens, type MenuItem } from '@portal/contracts';
import { MENU_PAGES, type PageEntry } from '../config/pages';

/** Menu screens the whitelist knows; unknown components are skipped. */
export function grantedScreens(menus: readonly MenuItem[]): { item: MenuItem; page: PageEntry; path: string }[] {
  const out: { item: MenuItem; page: PageEntry; path: string }[] = [];
  const seen = new Set<string>();
  for (const item of flattenScreens(menus)) {
    const page = item.component ? MENU_PAGES[item.component] : undefined;
    if (!page) continue;
    const path = item.path ?? page.path;
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ item, page, path });
  }
  return out;
}
