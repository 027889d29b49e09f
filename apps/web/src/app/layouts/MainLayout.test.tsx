// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { AppConfig, UserInfo } from '@portal/contracts';
import { appConfigStore } from '../../lib/appConfig';
import { setProfile } from '../../lib/session';
import '../../test/dom-shims';

const calls: string[] = [];
vi.mock('../../lib/http', () => ({
  http: {
    post: (path: string) => {
      calls.push(path);
      return path === 'msg/unreadCount' ? Promise.resolve({ total: 4, counts: [], latest: null }) : new Promise(() => {});
    },
    get: () => new Promise(() => {}),
  },
  ApiError: class extends Error {},
  errorText: () => null,
}));

let root: Root | null = null;
let host: HTMLDivElement | null = null;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  calls.length = 0;
});

async function render(orgType: number) {
  appConfigStore.set({ appName: 'Dental Portal' } as AppConfig);
  setProfile({ userCode: 'u1', displayName: 'Dr. Who', organization: { code: 'me', name: 'Me', type: orgType, region: 'eu', status: 1 } } as unknown as UserInfo, [], []);
  const { default: MainLayout } = await import('./MainLayout');
  const router = createMemoryRouter([{ element: <MainLayout />, children: [{ path: '/', element: <div /> }] }], { initialEntries: ['/'] });
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  });
  // Wait (up to 10 s on a busy machine) for the first unread poll to be answered when it is made.
  for (let start = Date.now(); Date.now() - start < 10_000; ) {
    await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
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
    expect(calls.includes('msg/unreadCount')).toBe(shown);
    if (shown) expect(header.querySelector('[data-testid="notification-count"]')?.textContent).toBe('4');
  });
});
