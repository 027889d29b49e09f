// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { MenuType, pruneMenu, withOwnSpace, type MenuItem } from '@portal/contracts';
import { buildRoutes, highlightPath, type RouteHandle } from './routes';
import { grantedScreens } from './screens';

const item = (p: Partial<MenuItem> & { code: string }): MenuItem => ({
  name: `menu.${p.code}`,
  path: null,
  icon: null,
  showFlag: true,
  showAlways: false,
  component: null,
  type: MenuType.Screen,
  apiPermissions: [],
  children: [],
  ...p,
});

const clinicMenu = withOwnSpace(
  pruneMenu([
    item({ code: 'dashboard', path: '/dashboard', component: 'dashboard' }),
    item({ code: 'future', path: '/future-screen', component: 'notBuiltYet' }),
    item({ code: 'btn', type: MenuType.Button, apiPermissions: ['x:y'] }),
  ]),
);
const adminMenu = withOwnSpace(
  pruneMenu([
    item({ code: 'dashboard', path: '/dashboard', component: 'dashboard' }),
    item({
      code: 'account',
      children: [
        item({ code: 'organizations', path: '/account/organizations', component: 'organizationReview' }),
        item({ code: 'outbox', path: '/account/outbox', component: 'outbox' }),
      ],
    }),
  ]),
);

function leaf(routes: ReturnType<typeof buildRoutes>, path: string) {
  const matches = matchRoutes(routes, path);
  return matches?.[matches.length - 1]?.route.id;
}

describe('route builder', () => {
  it('skips components the whitelist does not know and adds own space', () => {
    const screens = grantedScreens(clinicMenu).map((s) => s.item.component);
    expect(screens).toEqual(['dashboard', 'ownSpace']);
    const routes = buildRoutes(clinicMenu, true);
    expect(leaf(routes, '/dashboard')).toBe('screen:dashboard');
    expect(leaf(routes, '/own-space')).toBe('screen:ownSpace');
    // A menu entry for an unknown component does not become a route.
    expect(leaf(routes, '/future-screen')).toBe('unknown');
  });

  it('shows no-permission for a known screen the menu does not grant, 404 for unknown paths', () => {
    const routes = buildRoutes(clinicMenu, true);
    expect(leaf(routes, '/account/organizations')).toBe('denied:organizationReview');
    expect(leaf(routes, '/account/outbox')).toBe('denied:outbox');
    expect(leaf(routes, '/no/such/page')).toBe('unknown');
    expect(leaf(routes, '/404')).toBe('not-found');
  });

  it('registers the granted admin screens inside groups', () => {
    const routes = buildRoutes(adminMenu, true);
    expect(leaf(routes, '/account/organizations')).toBe('screen:organizations');
    expect(leaf(routes, '/account/outbox')).toBe('screen:outbox');
    expect(leaf(routes, '/')).toBe('home');
    expect(leaf(routes, '/redirect')).toBe('redirect');
  });

  it('signed out: public screens open, known screens go to the gate, unknown paths to 404', () => {
    const routes = buildRoutes(null, false);
    expect(leaf(routes, '/login')).toBe('/login');
    expect(leaf(routes, '/forget-pass/abc')).toBe('/forget-pass/:id');
    expect(leaf(routes, '/set-password/abc')).toBe('/set-password/:id');
    expect(leaf(routes, '/dashboard')).toBe('gate:dashboard');
    expect(leaf(routes, '/account/organizations')).toBe('gate:organizationReview');
    expect(leaf(routes, '/whatever')).toBe('unknown');
    expect(leaf(routes, '/')).toBe('gate:home');
    expect(leaf(routes, '/report-design')).toBe('gate:report-design');
  });

  it('opens the report designer inside the layout, under its header', () => {
    const matches = matchRoutes(buildRoutes(clinicMenu, true), '/report-design')!;
    expect(matches.map((m) => m.route.id)).toEqual(['root', 'auth', 'layout', 'report-design']);
  });

  it('signed in while the menu loads: every path waits for the menu', () => {
    const routes = buildRoutes(null, true);
    expect(leaf(routes, '/custom/path')).toBe('pending');
    expect(leaf(routes, '/')).toBe('pending:home');
    expect(leaf(routes, '/login')).toBe('/login');
  });

  it('registers menu paths with params; a hidden detail screen highlights its visible parent', () => {
    const menu = withOwnSpace(
      pruneMenu([
        item({ code: 'cases', path: '/case-management', component: 'caseList' }),
        item({ code: 'caseDetail', path: '/case-management/detail/:id', component: 'caseDetail', showFlag: false }),
        item({ code: 'recycle', path: '/recycle-bin', component: 'recycleBin' }),
      ]),
    );
    const routes = buildRoutes(menu, true);
    expect(leaf(routes, '/case-management')).toBe('screen:cases');
    expect(leaf(routes, '/case-management/detail/C123')).toBe('screen:caseDetail');
    expect(leaf(routes, '/recycle-bin')).toBe('screen:recycle');
    const matches = matchRoutes(routes, '/case-management/detail/C123')!;
    expect((matches[matches.length - 1]!.route.handle as RouteHandle).menuPath).toBe('/case-management');
    const hidden = menu[1]!;
    expect(highlightPath(menu, hidden, '/case-management/detail/:id')).toBe('/case-management');
    // A visible item keeps its own path; a hidden one without a parent path keeps its own too.
    expect(highlightPath(menu, menu[0]!, '/case-management')).toBe('/case-management');
    const orphan = item({ code: 'x', path: '/other/:id', component: 'caseDetail', showFlag: false });
    expect(highlightPath(menu, orphan, '/other/:id')).toBe('/other/:id');
  });

  it('a known detail screen the menu does not grant shows no-permission', () => {
    const routes = buildRoutes(clinicMenu, true);
    expect(leaf(routes, '/case-management/detail/abc')).toBe('denied:caseDetail');
  });
});
