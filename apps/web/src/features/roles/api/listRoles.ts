import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ManagedRole } from '@portal/contracts';
import { http } from '../../../lib/http';
import { roleKeys } from './keys';

export interface RoleQuery {
  pageNum: number;
  pageSize: number;
  keyword?: string;
}
export const listRolesQuery = (q: RoleQuery) =>
  queryOptions({
    queryKey: roleKeys.list(q),
    queryFn: () => http.post<{ total: number; list: ManagedRole[] }>('user/role/listByPage', q),
    placeholderData: keepPreviousData,
  });
