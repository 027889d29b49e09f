import { queryOptions } from '@tanstack/react-query';
import type { ManagedRole } from '@portal/contracts';
import { http } from '../../../lib/http';
import { userKeys } from './keys';

export const assignableRolesQuery = () =>
  queryOptions({
    queryKey: userKeys.assignableRoles,
    queryFn: () => http.post<{ list: ManagedRole[] }>('user/role/list').then((r) => r.list),
  });
