import type { DashboardPeriod } from '@portal/contracts';

/** Query keys of the dashboard: everything on it hangs under `all`. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  index: ['dashboard', 'index'] as const,
  lineChart: (period: DashboardPeriod) => ['dashboard', 'lineChart', period] as const,
  acceptOrderLineChart: (period: DashboardPeriod) => ['dashboard', 'acceptOrderLineChart', period] as const,
  /** A dealer's or an OEM's scanners, with activations per day over the period. */
  devices: (period: DashboardPeriod) => ['dashboard', 'devices', period] as const,
};
