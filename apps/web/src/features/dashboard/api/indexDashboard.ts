import type { IndexDashboard } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { dashboardKeys } from './keys';

export type { IndexDashboard };
export const indexDashboard = () => http.post<IndexDashboard>('user/indexDashboard', {});
export const indexDashboardQuery = () =>
  queryOptions({ queryKey: dashboardKeys.index, queryFn: indexDashboard, ...LIVE });
