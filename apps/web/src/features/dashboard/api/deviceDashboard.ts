import type { DashboardPeriod, DeviceDashboard } from '@portal/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { dashboardKeys } from './keys';

export type { DeviceDashboard };
/** A dealer's or an OEM's scanners: by status and limit type, this month's figures, activations per day. */
export const deviceDashboard = (period: DashboardPeriod) => http.post<DeviceDashboard>('dashboard/devices', { period });

export const deviceDashboardQuery = (period: DashboardPeriod) =>
  queryOptions({
    queryKey: dashboardKeys.devices(period),
    queryFn: () => deviceDashboard(period),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
