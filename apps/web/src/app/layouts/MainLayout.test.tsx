// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '@portal/contracts';
import { appConfigStore } from '../../lib/appConfig';
import '../../test/dom-shims';
import { mockServer, pending } from '../../test/http-mock';
import { cleanup, renderWithProviders } from '../../test/render';
import { flush } from '../../test/dom';
import { signInAs } from '../../test/session';

vi.mock('../../lib/http', () => import('../../test/http-mock').then((m) => m.httpModule));
const { calls } = mockServer((path) => (path === 'msg/unreadCount' ? Promise.resolve({ total: 4, counts: [], latest: null }) : pending()));

afterEach(cleanup);

async function render(orgType: number) {
  appConfigStore.set({ appName: 'Dental Portal' } as AppConfig);
  signInAs(orgType);
  const { default: MainLayout } = await import('./MainLayout');
  const { host } = await renderWithProviders([{ element: <MainLayout />, children: [{ path: '/', element: <div /> }] }], '/');
  // Wait (up to 10 s on a busy machine) for the first unread poll to be answered when it is made.
  for (let start = Date.now(); Date.now() - start < 10_000; ) {
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
