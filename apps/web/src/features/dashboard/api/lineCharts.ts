import type { DashboardPeriod, LineChart } from '@portal/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { dashboardKeys } from './keys';

export type { DashboardPeriod, LineChart };
/** Clinic: cases created per day; laboratory: orders received per day. */
export const lineChart = (period: DashboardPeriod) => http.post<LineChart>('user/lineChart', { period });
/** Orders accepted per day (clinic: its orders accepted by laboratories; laboratory: the ones it accepted). */
export const acceptOrderLineChart = (period: DashboardPeriod) =>
  http.post<LineChart>('user/acceptOrderLineChart', { period });

export const lineChartQuery = (period: DashboardPeriod) =>
  queryOptions({
    queryKey: dashboardKeys.lineChart(period),
    queryFn: () => lineChart(period),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
export const acceptOrderLineChartQuery = (period: DashboardPeriod) =>
  queryOptions({
    queryKey: dashboardKeys.acceptOrderLineChart(period),
    queryFn: () => acceptOrderLineChart(period),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
