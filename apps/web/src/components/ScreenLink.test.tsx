// @vitest-environment jsdom
import '../test/dom-shims';
import { afterEach, describe, expect, it } from 'vitest';
import { MenuType, OWN_SPACE_MENU, type MenuItem } from '@portal/contracts';
import { setProfile } from '../lib/session';
import { testUser } from '../test/session';
import { cleanup, renderWithProviders } from '../test/render';
import { Access } from './Access';
import { ScreenLink, grantsScreen } from './ScreenLink';

afterEach(cleanup);

const screen = (code: string, path: string, children: MenuItem[] = []): MenuItem => ({
  ...OWN_SPACE_MENU,
  code,
  path,
  component: code,
  showFlag: true,
  type: MenuType.Screen,
  apiPermissions: [],
  children,
});
const ORDERS = screen('orderList', '/order-management', [
  { ...screen('orderDetail', '/order-management/detail/:id'), showFlag: false },
]);

describe('grantsScreen', () => {
  it('matches a path against the screens of the menu, detail screens with their parameter, query and hash aside', () => {
    expect(grantsScreen([ORDERS], '/order-management/detail/O-1?tab=files#top')).toBe(true);
    expect(grantsScreen([ORDERS], '/order-management')).toBe(true);
    expect(grantsScreen([ORDERS], '/case-management/detail/C-1')).toBe(false);
    // A prefix of a granted screen is not the screen.
    expect(grantsScreen([ORDERS], '/order-management/detail')).toBe(false);
    expect(grantsScreen(null, '/order-management')).toBe(false);
  });
});

describe('ScreenLink and Access', () => {
  it('link a screen the menu grants, give the text of one it does not, and mark or remove guarded elements', async () => {
    setProfile(testUser(2), [ORDERS, OWN_SPACE_MENU], ['order:view']);
    const { host } = await renderWithProviders(
      [
        {
          path: '/here',
          element: (
            <>
              <ScreenLink to="/order-management/detail/O-1" testId="to-order">
                Order O-1
              </ScreenLink>
              <ScreenLink to="/case-management/detail/C-1" testId="to-case">
                Case C-1
              </ScreenLink>
              <Access permission="order:view">
                <button type="button" data-testid="view">
                  View
                </button>
              </Access>
              <Access permission={['order:export', 'order:edit']}>
                <button type="button" data-testid="export">
                  Export
                </button>
              </Access>
              <Access permission="order:view">
                text <b>and more</b>
              </Access>
            </>
          ),
        },
      ],
      '/here',
    );
    const order = host.querySelector('[data-testid="to-order"]')!;
    expect(order.tagName).toBe('A');
    expect(order.getAttribute('href')).toBe('/order-management/detail/O-1');
    const kase = host.querySelector('[data-testid="to-case"]')!;
    expect(kase.tagName).toBe('SPAN');
    expect(kase.textContent).toBe('Case C-1');
    expect(host.querySelector('a[href^="/case-management"]')).toBeNull();
    // Removed, not hidden; what stays carries its permission for the browser tests.
    expect(host.querySelector('[data-testid="export"]')).toBeNull();
    expect(host.querySelector('[data-testid="view"]')!.getAttribute('data-permission')).toBe('order:view');
    const wrapped = [...host.querySelectorAll('span[data-permission="order:view"]')];
    expect(wrapped.map((e) => e.textContent)).toEqual(['text and more']);
  });
});
