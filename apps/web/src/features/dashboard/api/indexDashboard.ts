import type { IndexDashboard } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export type { IndexDashboard };
export const indexDashboard = () => http.post<IndexDashboard>('user/indexDashboard', {});
export const indexDashboardQuery = () => queryOptions({ queryKey: ['dashboard', 'index'], queryFn: indexDashboard });
