import type { MenuItem } from './api/platform.js';
import { MenuType } from './enums.js';

export const OWN_SPACE_MENU: MenuItem = {
  code: 'ownSpace',
  name: 'menu.ownSpace',
  path: '/own-space',
  icon: 'UserOutlined',
  showFlag: true,
  showAlways: true,
  component: 'ownSpace',
  type: MenuType.Screen,
  apiPermissions: ['ownspace:view'],
  children: [],
};

/** Screens only: items with neither children nor component are dropped (§2). Buttons never become routes. */
export function pruneMenu(items: readonly MenuItem[]): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.type !== MenuType.Screen) continue;
    const children = pruneMenu(item.children);
    if (children.length === 0 && !item.component) continue;
    out.push({ ...item, children });
  }
  return out;
}

/** The menu always gets an own-space entry if it is missing (§2). */
export function withOwnSpace(items: readonly MenuItem[]): MenuItem[] {
  const has = (list: readonly MenuItem[]): boolean => list.some((i) => i.component === 'ownSpace' || has(i.children));
  return has(items) ? [...items] : [...items, OWN_SPACE_MENU];
}

/** Gathers the apiPermissions of every item into the button permission list (§6). */
export function collectPermissions(items: readonly MenuItem[]): string[] {
  const set = new Set<string>();
  const walk = (list: readonly MenuItem[]) => {
    for (const i of list) {
      i.apiPermissions.forEach((p) => set.add(p));
      walk(i.children);
    }
  };
  walk(items);
  return [...set].sort();
}

/** Flattens the screen items that carry a component, for route building. */
export function flattenScreens(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((i) => [...(i.component && i.path ? [i] : []), ...flattenScreens(i.children)]);
}
