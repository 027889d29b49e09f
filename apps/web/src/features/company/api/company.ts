import type { Area, CompanyImageTarget, CompanyInfo, EditCompanyBody } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, postForm, request, type Download } from '../../../lib/http';

/** Query keys of the organization's own information: every change invalidates `all`. */
export const companyKeys = {
  all: ['company'] as const,
  info: ['company', 'info'] as const,
  image: (target: CompanyImageTarget) => ['company', 'image', target] as const,
  areas: (parentId: string) => ['areas', parentId] as const,
};

export const companyInfoQuery = () =>
  queryOptions({ queryKey: companyKeys.info, queryFn: () => http.post<CompanyInfo>('company/companyInfo') });

/** The areas under a parent ('' for the countries of the organization's regional site); they never change. */
export const areasQuery = (parentId: string) =>
  queryOptions({
    queryKey: companyKeys.areas(parentId),
    queryFn: () => http.post<{ list: Area[] }>('area/listAreaByParentId', parentId ? { parentId } : {}),
    staleTime: Infinity,
  });

export const editCompany = (body: EditCompanyBody) => http.write<CompanyInfo>('company/editCompany', body);

export function uploadCompanyImage(target: CompanyImageTarget, file: File) {
  const form = new FormData();
  form.append('target', target);
  form.append('file', file, file.name);
  return postForm<CompanyInfo>('company/uploadImage', form);
}

/** The stored image as an object URL for an <img>; the caller revokes it. */
export async function companyImageUrl(target: CompanyImageTarget): Promise<string> {
  const download = await request<Download>('company/image', { method: 'POST', body: { target }, silent: true });
  return URL.createObjectURL(download.blob);
}

export const closeAccount = (confirmName: string) =>
  http.write<{ closedAt: string; purgeAfter: string }>('company/close_account', { confirmName });

export const editScanRetention = (scanRetentionDays: number) =>
  http.write<CompanyInfo>('company/editScanRetention', { scanRetentionDays });
