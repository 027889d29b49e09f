import { Navigate, type RouteObject } from 'react-router';
import { type MenuItem } from '@portal/contracts';
import { MENU_PAGES, PUBLIC_PAGES, TOKEN_PAGES } from '../config/pages';
import { loadAntdTheme } from '../components/lazyThemed';
import { lazyPage } from './lazyPage';
import { noPermissionLazy, notFoundLazy } from './statusRoutes';
import { RootShell, RootError } from './RootShell';
import { AuthGate } from './AuthGate';
import { RedirectPage } from './RedirectPage';
import { grantedScreens } from './screens';

export interface RouteHandle {
  lightTheme?: boolean;
  guestOnly?: boolean;
  /** The menu item a screen belongs to, for the sidebar highlight. */
  menuPath?: string;
}

/** Every menu item, depth first. */
function allItems(list: readonly MenuItem[]): MenuItem[] {
  return list.flatMap((i) => [i, ...allItems(i.children)]);
}

/**
 * The sidebar entry a screen highlights: itself when visible; a hidden item (e.g. a detail screen at
 * `/case-management/detail/:id`) highlights the visible item whose path is the longest prefix of its own.
 */
export function highlightPath(menus: readonly MenuItem[], item: MenuItem, path: string): string {
  if (item.showFlag) return path;
  let best: string | null = null;
  for (const other of allItems(menus)) {
    if (!other.showFlag || !other.path || other === item) continue;
    const base = other.path.replace(/\/+$/, '');
    if (!base || base === path) continue;
    if (path.startsWith(`${base}/`) && (best === null || base.length > best.length)) best = base;
  }
  return best ?? path;
}

function layoutChildren(menus: readonly MenuItem[] | null): RouteObject[] {
  // Signed in but the menu is still loading: hold every path until routes exist.
  if (!menus)
    return [
      { id: 'pending:home', index: true, element: null },
      { id: 'pending', path: '*', element: null },
    ];
  const screens = grantedScreens(menus);
  const grantedPaths = new Set(screens.map((s) => s.path));
  return [
    { id: 'home', index: true, element: <Navigate to="/redirect" replace /> },
    { id: 'redirect', path: '/redirect', element: <RedirectPage /> },
    // Opened from a case rather than the menu, but inside the layout: its header switches language and theme.
    {
      id: 'report-design',
      path: TOKEN_PAGES.reportDesign.path,
      lazy: lazyPage(TOKEN_PAGES.reportDesign.load, 'layout'),
    },
    ...screens.map(({ item, page, path }) => ({
      id: `screen:${item.code}`,
      path,
      lazy: lazyPage(page.load, 'layout'),
      handle: { menuPath: highlightPath(menus, item, path), lightTheme: page.lightTheme } satisfies RouteHandle,
    })),
    // A known screen the user's menu does not grant shows the no-permission page, not 404.
    ...Object.entries(MENU_PAGES)
      .filter(([, page]) => !grantedPaths.has(page.path))
      .map(([key, page]) => ({ id: `denied:${key}`, path: page.path, lazy: noPermissionLazy })),
    { id: 'unknown', path: '*', element: <Navigate to="/404" replace /> },
  ];
}

/**
 * The whole route table for a session state. Signed out: only public screens, and the known token
 * screens under the gate (which sends to login). Signed in: the screens the menu allows.
 */
export function buildRoutes(menus: readonly MenuItem[] | null, signedIn: boolean): RouteObject[] {
  const tokenScreens: RouteObject[] = signedIn
    ? [
        {
          id: 'layout',
          lazy: () =>
            Promise.all([import('./layouts/MainLayout'), loadAntdTheme()]).then(([m, theme]) => ({
              Component: theme.withAntdTheme(m.default),
            })),
          children: layoutChildren(menus),
        },
      ]
    : // Signed out, only paths that would be screens go to the gate; anything else is a 404.
      [
        { id: 'gate:home', index: true, element: null },
        { id: 'gate:redirect', path: '/redirect', element: null },
        ...Object.entries(MENU_PAGES).map(([key, page]) => ({ id: `gate:${key}`, path: page.path, element: null })),
      ];
  return [
    {
      id: 'root',
      path: '/',
      element: <RootShell />,
      errorElement: <RootError />,
      // The first screen is loaded lazily: nothing is drawn until it arrives (the start-up screen is still up), and
      // React Router is told so instead of warning on every load.
      hydrateFallbackElement: <></>,
      children: [
        ...PUBLIC_PAGES.map((p) => ({
          id: p.path,
          path: p.path,
          lazy: lazyPage(p.load, p.plain ? 'none' : 'own'),
          handle: { lightTheme: p.lightTheme, guestOnly: p.guestOnly } satisfies RouteHandle,
        })),
        { id: 'not-found', path: '/404', lazy: notFoundLazy },
        {
          id: 'auth',
          element: <AuthGate />,
          children: [
            {
              id: 'force-change-password',
              path: TOKEN_PAGES.forceChangePassword.path,
              lazy: lazyPage(TOKEN_PAGES.forceChangePassword.load),
            },
            {
              id: 'partner-invitation',
              path: TOKEN_PAGES.partnerInvitation.path,
              lazy: lazyPage(TOKEN_PAGES.partnerInvitation.load),
            },
            // Signed out, the report designer sends to sign-in; signed in, it is a screen of the layout.
            ...(signedIn ? [] : [{ id: 'gate:report-design', path: TOKEN_PAGES.reportDesign.path, element: null }]),
            ...tokenScreens,
          ],
        },
        ...(signedIn ? [] : [{ id: 'unknown', path: '*', element: <Navigate to="/404" replace /> }]),
      ],
    },
  ];
}
