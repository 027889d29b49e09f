import { queryOptions, keepPreviousData } from '@tanstack/react-query';
import type { ManagedUser, UserListQuery } from '@portal/contracts';
import { http } from '../../../lib/http';
import { userKeys } from './keys';

export type UserQuery = Partial<UserListQuery> & { pageNum: number; pageSize: number };
export const listUsers = (q: UserQuery) => http.post<{ total: number; list: ManagedUser[] }>('user/listByPage', q);
export const listUsersQuery = (q: UserQuery) =>
  queryOptions({ queryKey: userKeys.list(q), queryFn: () => listUsers(q), placeholderData: keepPreviousData });
