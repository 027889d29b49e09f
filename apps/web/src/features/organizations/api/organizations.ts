import type { z } from 'zod';
import type { ManagedOrganization, Region } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export type Organization = z.infer<typeof ManagedOrganization>;
export interface OrganizationQuery {
  pageNum: number;
  pageSize: number;
  keyword?: string;
  type?: number;
  status?: 1 | 2;
  region?: Region;
}

/** Query keys of the organizations screens. */
export const organizationKeys = {
  all: ['organizations'] as const,
  lists: ['organizations', 'list'] as const,
  list: (q: OrganizationQuery) => ['organizations', 'list', q] as const,
};

export const listOrganizations = (q: OrganizationQuery) =>
  http.post<{ total: number; list: Organization[] }>('company/listByPage', q);
export const listOrganizationsQuery = (q: OrganizationQuery) =>
  queryOptions({ queryKey: organizationKeys.list(q), queryFn: () => listOrganizations(q), staleTime: 0 });

export type OrganizationChange = 'disable' | 'enable';
export const changeOrganizations = ({ change, codes }: { change: OrganizationChange; codes: string[] }) =>
  http.post<{ count: number }>(`company/${change}`, { organizationCodes: codes });
