// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { IndexDashboard, LineChart, UserInfo } from '@portal/contracts';
import '../../../test/dom-shims';

const calls: { path: string; body: unknown }[] = [];
let index: IndexDashboard;
const chart = (period: string, base: number): LineChart => {
  const n = Number.parseInt(period, 10);
  const points = Array.from({ length: n }, (_, i) => ({ date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, count: (i * base) % 5 }));
  return { total: points.reduce((s, p) => s + p.count, 0), points };
};
vi.mock('../../../lib/http', () => ({
  http: {
    post: (path: string, body: unknown) => {
      calls.push({ path, body });
      const period = (body as { period?: string } | undefined)?.period ?? '30d';
      if (path === 'user/indexDashboard') return Promise.resolve(structuredClone(index));
      if (path === 'user/lineChart') return Promise.resolve(chart(period, 1));
      if (path === 'user/acceptOrderLineChart') return Promise.resolve(chart(period, 2));
      return new Promise(() => {});
    },
    get: () => new Promise(() => {}),
  },
  ApiError: class extends Error {},
  errorText: () => null,
}));

const order = (orderCode: string, status: IndexDashboard['recentOrders'][number]['status'], patientName: string | null = 'Jane Roe') => ({
  orderCode,
  orderType: 'restoration',
  status,
  processing: status === 'accepted',
  caseCode: `C-${orderCode}`,
  caseName: `Case ${orderCode}`,
  patientName,
  clinic: { code: 'CL1', name: 'Smile Clinic' },
  lab: { code: 'LB1', name: 'Alpha Lab' },
  workTypes: ['Crown' as const],
  requestedDeliveryDate: null,
  shipDate: null,
  trackingNumber: null,
  estimatedDeliveryDate: null,
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
});

function dashboard(side: 'clinic' | 'lab'): IndexDashboard {
  return {
    side,
    cases: { total: side === 'clinic' ? 42 : 0, byStatus: [{ status: 'uploaded', count: 30 }, { status: 'sent', count: 12 }] },
    orders: {
      total: 23,
      byStatus: [
        { status: 'pending', count: 3 },
        { status: 'accepted', count: 5 },
        { status: 'ready', count: 2 },
        { status: 'shipped', count: 4 },
        { status: 'completed', count: 9 },
      ],
    },
    partners: 6,
    unreadMessages: 7,
    recentCases: side === 'clinic' ? [{ caseCode: 'CASE-1', name: 'Upper crown', patientName: 'Jane Roe', status: 'sent', createdAt: '2026-11-20T10:00:00Z' }] : [],
    recentOrders: [order('ORD-1', 'accepted'), order('ORD-2', 'pending', null)],
  };
}

async function signInAs(orgType: number) {
  const { setProfile } = await import('../../../lib/session');
  setProfile(
    { userCode: 'u1', displayName: 'Dr. Who', role: { name: 'Admin' }, organization: { code: 'me', name: 'My Org', type: orgType, region: 'eu', status: 1 } } as unknown as UserInfo,
    [],
    [],
  );
}

let root: Root | null = null;
let host: HTMLDivElement | null = null;
beforeEach(() => {
  calls.length = 0;
});
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  document.body.innerHTML = '';
});

const $ = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const flush = async (times = 4) => {
  for (let i = 0; i < times; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 10))));
};

async function render() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const { default: DashboardPage } = await import('./DashboardPage');
  const router = createMemoryRouter([{ path: '/dashboard', element: <DashboardPage /> }, { path: '*', element: <div data-testid="elsewhere" /> }], {
    initialEntries: ['/dashboard'],
  });
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <QueryClientProvider client={qc}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  });
  await flush(8);
  return router;
}
const stat = (key: string) => $(`dashboard-stat-${key}`)?.textContent;
/** Waits (up to 10 s) until the check passes: lazy chunks and queries take longer on a busy machine. */
const waitFor = async (check: () => unknown, ms = 10_000) => {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
};

describe('dashboard', () => {
  it('laboratory: production counts, partners, unread, recent orders and both charts', async () => {
    index = dashboard('lab');
    await signInAs(3);
    await render();
    await waitFor(() => stat('orders') && $('dashboard-chart-cases')?.querySelector('[data-testid="trend-line"]') && $('dashboard-chart-accepted')?.querySelector('[data-testid="trend-line"]'));
    expect($('dashboard-lab')).not.toBeNull();
    expect($('dashboard-clinic')).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(expect.arrayContaining(['user/indexDashboard', 'user/lineChart', 'user/acceptOrderLineChart']));
    expect(stat('orders')).toBe('23');
    expect(stat('pending')).toBe('3');
    expect(stat('accepted')).toBe('5');
    expect(stat('ready')).toBe('2');
    expect(stat('shipped')).toBe('4');
    expect(stat('completed')).toBe('9');
    expect(stat('partners')).toBe('6');
    expect(stat('unread')).toBe('7');
    // The laboratory has no cases of its own to count.
    expect(stat('cases')).toBeUndefined();
    expect($('dashboard-recent-cases')).toBeNull();
    const recent = $('dashboard-recent-orders')!;
    expect(recent.querySelector('a[href="/order-management/detail/ORD-1"]')).not.toBeNull();
    expect($('dashboard-order-ORD-1')?.textContent).toContain('Smile Clinic');
    // Patient name not shared with the laboratory.
    expect($('dashboard-order-ORD-2')?.textContent).toContain('recent.notShared');
    expect($('dashboard-chart-cases')?.querySelector('[data-testid="trend-line"]')).not.toBeNull();
    expect($('dashboard-chart-accepted')?.querySelector('[data-testid="trend-line"]')).not.toBeNull();
  });

  it('clinic: case and order counts, recent cases linking to the case; changing the period asks for new charts', async () => {
    index = dashboard('clinic');
    await signInAs(2);
    await render();
    await waitFor(() => stat('cases') && $('dashboard-chart-cases')?.querySelector('[data-testid="trend-line"]'));
    expect($('dashboard-clinic')).not.toBeNull();
    expect(stat('cases')).toBe('42');
    expect(stat('orders')).toBe('23');
    expect(stat('pending')).toBe('3');
    expect(stat('accepted')).toBe('5');
    expect(stat('shipped')).toBe('4');
    expect(stat('completed')).toBe('9');
    expect(stat('partners')).toBe('6');
    expect(stat('unread')).toBe('7');
    expect($('dashboard-recent-cases')?.querySelector('a[href="/case-management/detail/CASE-1"]')?.textContent).toBe('Upper crown');
    expect($('dashboard-order-ORD-1')?.textContent).toContain('Alpha Lab');

    const lineBodies = () => calls.filter((c) => c.path === 'user/lineChart').map((c) => c.body);
    const acceptBodies = () => calls.filter((c) => c.path === 'user/acceptOrderLineChart').map((c) => c.body);
    expect(lineBodies()).toEqual([{ period: '30d' }]);
    expect(acceptBodies()).toEqual([{ period: '30d' }]);
    const before = $('dashboard-chart-cases')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!;
    expect(before.match(/[ML]/g)).toHaveLength(30);

    expect($('dashboard-period')).not.toBeNull();
    await act(async () => $('dashboard-period-7d')!.click());
    await waitFor(() => $('dashboard-chart-cases')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!.match(/[ML]/g)?.length === 7);
    expect(lineBodies()).toEqual([{ period: '30d' }, { period: '7d' }]);
    expect(acceptBodies()).toEqual([{ period: '30d' }, { period: '7d' }]);
    const after = $('dashboard-chart-cases')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!;
    expect(after.match(/[ML]/g)).toHaveLength(7);
  });

  it('other organizations keep the generic card', async () => {
    index = dashboard('clinic');
    await signInAs(4);
    await render();
    expect($('dashboard-generic')).not.toBeNull();
    expect(calls.some((c) => c.path === 'user/indexDashboard')).toBe(false);
  });
});
