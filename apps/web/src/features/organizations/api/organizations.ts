import type { z } from 'zod';
import type { CompanyImageTarget, CompanyInfo, ManagedOrganization, Region } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, request, type Download } from '../../../lib/http';

export type Organization = z.infer<typeof ManagedOrganization>;
export interface OrganizationQuery {
  pageNum: number;
  pageSize: number;
  keyword?: string;
  type?: number;
  status?: 1 | 2 | 3;
  region?: Region;
}

/** Query keys of the organizations screens. */
export const organizationKeys = {
  all: ['organizations'] as const,
  lists: ['organizations', 'list'] as const,
  list: (q: OrganizationQuery) => ['organizations', 'list', q] as const,
  detail: (code: string) => ['organizations', 'detail', code] as const,
  image: (code: string, target: CompanyImageTarget) => ['organizations', 'detail', code, target] as const,
};

export const listOrganizations = (q: OrganizationQuery) =>
  http.post<{ total: number; list: Organization[] }>('company/listByPage', q);
export const listOrganizationsQuery = (q: OrganizationQuery) =>
  queryOptions({ queryKey: organizationKeys.list(q), queryFn: () => listOrganizations(q), staleTime: 0 });

export type OrganizationChange = 'disable' | 'enable';
export const changeOrganizations = ({ change, codes }: { change: OrganizationChange; codes: string[] }) =>
  http.write<{ count: number }>(`company/${change}`, { organizationCodes: codes });

/** Reopens a closed organization within its retention period (super administrator; a sensitive action). */
export const restoreOrganization = (organizationCode: string) =>
  http.write<null>('company/restore', { organizationCode });

/** One organization's information (super administrator). */
export const organizationDetailQuery = (organizationCode: string) =>
  queryOptions({
    queryKey: organizationKeys.detail(organizationCode),
    queryFn: () => http.post<CompanyInfo>('company/detail', { organizationCode }),
  });

/** One organization's logo or licence image as an object URL for an <img>; the caller revokes it. */
export async function organizationImageUrl(organizationCode: string, target: CompanyImageTarget): Promise<string> {
  const download = await request<Download>('company/detailImage', {
    method: 'POST',
    body: { organizationCode, target },
    silent: true,
  });
  return URL.createObjectURL(download.blob);
}
