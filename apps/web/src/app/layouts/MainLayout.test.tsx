// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MenuType, type AppConfig, type MenuItem } from '@portal/contracts';
import type { TFunction } from 'i18next';
import { appConfigStore } from '../../lib/appConfig';
import '../../test/dom-shims';
import { mockServer, pending } from '../../test/http-mock';
import { cleanup, renderWithProviders } from '../../test/render';
import { flush } from '../../test/dom';
import { signInAs } from '../../test/session';

vi.mock('../../lib/http', () => import('../../test/http-mock').then((m) => m.httpModule));
const { calls } = mockServer((path) =>
  path === 'msg/unreadCount' ? Promise.resolve({ total: 4, counts: [], latest: null }) : pending(),
);

afterEach(cleanup);

async function render(orgType: number) {
  appConfigStore.set({ appName: 'Dental Portal' } as AppConfig);
  // The bell is for roles that read orders (its notifications are of orders).
  signInAs(orgType, ['order:view']);
  const { default: MainLayout } = await import('./MainLayout');
  const { host } = await renderWithProviders(
    [{ element: <MainLayout />, children: [{ path: '/', element: <div /> }] }],
    '/',
  );
  // Wait (up to 10 s on a busy machine) for the first unread poll to be answered when it is made.
  for (let start = Date.now(); Date.now() - start < 10_000;) {
    await flush(1, 20);
    if (orgType !== 2 && orgType !== 3) break;
    if (host.querySelector('[data-testid="notification-count"]')) break;
  }
  return host;
}

describe('main layout header', () => {
  it.each([
    [2, true],
    [3, true],
    [4, false],
    [5, false],
  ])('organization type %i: notification bell %s', async (orgType, shown) => {
    const el = await render(orgType);
    const header = el.querySelector('[data-testid="layout-header"]')!;
    expect(header).not.toBeNull();
    expect(header.querySelector('[data-testid="notification-bell"]') !== null).toBe(shown);
    expect(calls.some((c) => c.path === 'msg/unreadCount')).toBe(shown);
    if (shown) expect(header.querySelector('[data-testid="notification-count"]')?.textContent).toBe('4');
  });
});

describe('sidebar entries', () => {
  const item = (p: Partial<MenuItem> & { code: string }): MenuItem => ({
    name: p.code,
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
  const t = ((key: string) => key) as unknown as TFunction;
  const keys = async (menus: MenuItem[]) => {
    const { toItems } = await import('./MainLayout');
    const walk = (items: ReturnType<typeof toItems>): unknown[] =>
      items.map((i) => (i && 'children' in i && i.children ? { [String(i.key)]: walk(i.children) } : i?.key));
    return walk(toItems(menus, t));
  };

  it('shows a screen whose children are only its hidden detail screen and buttons', async () => {
    const cases = item({
      code: 'cases',
      path: '/case-management',
      component: 'caseList',
      children: [
        item({ code: 'caseDetail', path: '/case-management/detail/:id', component: 'caseDetail', showFlag: false }),
        item({ code: 'cases.edit', type: MenuType.Button }),
      ],
    });
    expect(await keys([item({ code: 'dashboard', path: '/dashboard', component: 'dashboard' }), cases])).toEqual([
      '/dashboard',
      '/case-management',
    ]);
  });

  it('drops hidden entries and empty groups; a group of one shows its child; a group of more stays a group', async () => {
    const hidden = item({ code: 'secret', path: '/secret', component: 'x', showFlag: false });
    const single = item({ code: 'one', children: [item({ code: 'a', path: '/a', component: 'a' })] });
    const empty = item({ code: 'none', children: [hidden] });
    const group = item({
      code: 'two',
      children: [item({ code: 'b', path: '/b', component: 'b' }), item({ code: 'c', path: '/c', component: 'c' })],
    });
    expect(await keys([hidden, single, empty, group])).toEqual(['/a', { 'group:two': ['/b', '/c'] }]);
  });
});
