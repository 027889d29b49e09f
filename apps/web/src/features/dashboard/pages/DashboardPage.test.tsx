// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import type { DeviceDashboard, IndexDashboard, LineChart, UserInfo } from '@portal/contracts';
import { setLanguage } from '../../../lib/i18n';
import '../../../test/dom-shims';
import { mockServer, pending } from '../../../test/http-mock';
import { cleanup, renderScreen } from '../../../test/render';
import { $, flush, waitFor } from '../../../test/dom';
import { screensMenu, signInAs } from '../../../test/session';

/** The screens the dashboard's rows link to. */
const WORK_SCREENS = screensMenu(
  '/case-management',
  '/case-management/detail/:id',
  '/order-management',
  '/order-management/detail/:id',
);

let index: IndexDashboard;
const chart = (period: string, base: number): LineChart => {
  const n = Number.parseInt(period, 10);
  const points = Array.from({ length: n }, (_, i) => ({
    date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
    count: (i * base) % 5,
  }));
  return { total: points.reduce((s, p) => s + p.count, 0), points };
};
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const { calls } = mockServer((path, body) => {
  const period = (body as { period?: string } | undefined)?.period ?? '30d';
  if (path === 'user/indexDashboard') return Promise.resolve(structuredClone(index));
  if (path === 'user/lineChart') return Promise.resolve(chart(period, 1));
  if (path === 'user/acceptOrderLineChart') return Promise.resolve(chart(period, 2));
  if (path === 'dashboard/devices') return Promise.resolve(devices(period));
  return pending();
});

const order = (
  orderCode: string,
  status: IndexDashboard['recentOrders'][number]['status'],
  patientName: string | null = 'Jane Roe',
) => ({
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
  product: null,
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
});

function dashboard(side: 'clinic' | 'lab'): IndexDashboard {
  return {
    side,
    cases: {
      total: side === 'clinic' ? 42 : 0,
      byStatus: [
        { status: 'uploaded', count: 30 },
        { status: 'sent', count: 12 },
      ],
    },
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
    recentCases:
      side === 'clinic'
        ? [
            {
              caseCode: 'CASE-1',
              name: 'Upper crown',
              patientName: 'Jane Roe',
              status: 'sent',
              createdAt: '2026-11-20T10:00:00Z',
            },
          ]
        : [],
    recentOrders: [order('ORD-1', 'accepted'), order('ORD-2', 'pending', null)],
  };
}

/** A dealer's (clinics served) or an OEM's (imports this month) scanners, activations over the period. */
let deviceSide: 'dealer' | 'oem' = 'dealer';
function devices(period: string): DeviceDashboard {
  return {
    total: 12,
    byStatus: [
      { status: 'Activated', count: 4 },
      { status: 'DataTransferring', count: 1 },
      { status: 'DataTransferred', count: 2 },
      { status: 'InActiveted', count: 3 },
      { status: 'Disabled', count: 1 },
      { status: 'Canceled', count: 1 },
    ],
    byLimitType: [
      { limitType: 1, count: 5 },
      { limitType: 2, count: 4 },
      { limitType: 3, count: 3 },
    ],
    activatedThisMonth: 2,
    warrantyEndingSoon: 3,
    lowBattery: 6,
    clinicsServed: deviceSide === 'dealer' ? 7 : null,
    importedThisMonth: deviceSide === 'oem' ? 9 : null,
    activations: chart(period, 3),
  };
}

afterEach(cleanup);

async function render() {
  const { default: DashboardPage } = await import('./DashboardPage');
  const { router } = await renderScreen('/dashboard', '/dashboard', <DashboardPage />);
  await flush(8, 10);
  return router;
}
const stat = (key: string) => $(`dashboard-stat-${key}`)?.textContent;

describe('dashboard', () => {
  it('laboratory: production counts, partners, unread, recent orders and both charts', async () => {
    index = dashboard('lab');
    signInAs(3, ['order:view'], {}, WORK_SCREENS);
    await render();
    await waitFor(
      () =>
        stat('orders') &&
        $('dashboard-chart-cases')?.querySelector('[data-testid="trend-line"]') &&
        $('dashboard-chart-accepted')?.querySelector('[data-testid="trend-line"]'),
    );
    expect($('dashboard-lab')).not.toBeNull();
    expect($('dashboard-clinic')).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(
      expect.arrayContaining(['user/indexDashboard', 'user/lineChart', 'user/acceptOrderLineChart']),
    );
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
    signInAs(2, [], {}, WORK_SCREENS);
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
    expect($('dashboard-recent-cases')?.querySelector('a[href="/case-management/detail/CASE-1"]')?.textContent).toBe(
      'Upper crown',
    );
    expect($('dashboard-order-ORD-1')?.textContent).toContain('Alpha Lab');

    const lineBodies = () => calls.filter((c) => c.path === 'user/lineChart').map((c) => c.body);
    const acceptBodies = () => calls.filter((c) => c.path === 'user/acceptOrderLineChart').map((c) => c.body);
    expect(lineBodies()).toEqual([{ period: '30d' }]);
    expect(acceptBodies()).toEqual([{ period: '30d' }]);
    const before = $('dashboard-chart-cases')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!;
    expect(before.match(/[ML]/g)).toHaveLength(30);

    expect($('dashboard-period')).not.toBeNull();
    await act(async () => $('dashboard-period-7d')!.click());
    await waitFor(
      () =>
        $('dashboard-chart-cases')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!.match(/[ML]/g)
          ?.length === 7,
    );
    expect(lineBodies()).toEqual([{ period: '30d' }, { period: '7d' }]);
    expect(acceptBodies()).toEqual([{ period: '30d' }, { period: '7d' }]);
    const after = $('dashboard-chart-cases')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!;
    expect(after.match(/[ML]/g)).toHaveLength(7);
  });

  it('other organizations keep the generic card, with the built-in role named in the language', async () => {
    index = dashboard('clinic');
    await setLanguage('en', false);
    signInAs(5, [], { role: { name: 'role.oemAdmin' } } as Partial<UserInfo>);
    await render();
    expect($('dashboard-generic')?.textContent).toContain('OEM administrator');
    expect($('dashboard-generic')?.textContent).not.toContain('role.oemAdmin');
    expect(calls.some((c) => c.path === 'user/indexDashboard')).toBe(false);
  });

  it("dealer: the welcome card, its scanners' figures linking to the scanner list, activations over the period", async () => {
    deviceSide = 'dealer';
    await setLanguage('en', false);
    signInAs(4, ['device:view'], {}, screensMenu('/own-space'));
    await render();
    await waitFor(() => stat('total') && $('dashboard-chart-activations')?.querySelector('[data-testid="trend-line"]'));
    expect($('dashboard-dealer')).not.toBeNull();
    // The welcome card stays, above the figures.
    expect($('dashboard-generic')).not.toBeNull();
    expect(calls.some((c) => c.path === 'user/indexDashboard')).toBe(false);
    expect(stat('total')).toBe('12');
    expect(stat('activatedThisMonth')).toBe('2');
    expect(stat('warrantyEndingSoon')).toBe('3');
    expect(stat('lowBattery')).toBe('6');
    expect(stat('clinicsServed')).toBe('7');
    expect(stat('importedThisMonth')).toBeUndefined();
    expect(stat('status-Activated')).toBe('4');
    expect(stat('status-DataTransferring')).toBe('1');
    expect(stat('status-DataTransferred')).toBe('2');
    expect(stat('status-InActiveted')).toBe('3');
    expect(stat('status-Disabled')).toBe('1');
    expect(stat('status-Canceled')).toBe('1');
    expect(stat('limit-1')).toBe('5');
    expect(stat('limit-2')).toBe('4');
    expect(stat('limit-3')).toBe('3');
    // Labels in the language, statuses and limit types named as the scanner list names them.
    expect($('dashboard-devices-by-status')?.textContent).toContain('Not activated');
    expect($('dashboard-devices-by-limit')?.textContent).toContain('Designated labs only');
    // Each scanner figure opens the scanner list filtered as it counts; the clinics served are not scanners, so
    // plain text.
    const list = '/own-space?tab=scanners';
    for (const [key, href] of [
      ['total', list],
      ['activatedThisMonth', `${list}&device.activatedThisMonth=true`],
      ['warrantyEndingSoon', `${list}&device.warrantyEnding=true`],
      ['lowBattery', `${list}&device.lowBattery=true`],
      ['status-Disabled', `${list}&device.status=Disabled`],
      ['limit-2', `${list}&device.limitType=2`],
    ])
      expect($(`dashboard-link-${key}`)?.getAttribute('href'), key).toBe(href);
    expect($('dashboard-link-clinicsServed')).toBeNull();
    expect($('dashboard-chart-activations-total')?.getAttribute('data-total')).toBe(String(chart('30d', 3).total));

    // The period selector asks for the activations of the chosen period.
    const bodies = () => calls.filter((c) => c.path === 'dashboard/devices').map((c) => c.body);
    expect(bodies()).toEqual([{ period: '30d' }]);
    await act(async () => $('dashboard-period-90d')!.click());
    await waitFor(
      () =>
        $('dashboard-chart-activations')!.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!.match(/[ML]/g)
          ?.length === 90,
    );
    expect(bodies()).toEqual([{ period: '30d' }, { period: '90d' }]);
  });

  it('OEM: imports this month instead of clinics served; a role without the scanner screen gets plain text', async () => {
    deviceSide = 'oem';
    signInAs(5, ['device:view']);
    await render();
    await waitFor(() => stat('importedThisMonth'));
    expect($('dashboard-oem')).not.toBeNull();
    expect($('dashboard-generic')).not.toBeNull();
    expect(stat('total')).toBe('12');
    expect(stat('importedThisMonth')).toBe('9');
    expect(stat('clinicsServed')).toBeUndefined();
    // No own-space screen in this menu: the figures' titles are text, not links to the no-permission page.
    expect($('dashboard-link-total')?.tagName).toBe('SPAN');
    expect(document.querySelector('a[href="/own-space?tab=scanners"]')).toBeNull();
  });

  it('a dealer without the scanner permission keeps the welcome card alone, asking nothing', async () => {
    signInAs(4, []);
    await render();
    expect($('dashboard-generic')).not.toBeNull();
    expect($('dashboard-dealer')).toBeNull();
    expect(calls.some((c) => c.path === 'dashboard/devices')).toBe(false);
  });
});
