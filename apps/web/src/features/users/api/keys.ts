import type { UserListQuery } from '@portal/contracts';

/** Query keys of the users feature: mutations invalidate `all`. */
export const userKeys = {
  all: ['users'] as const,
  list: (q: Partial<UserListQuery>) => ['users', 'list', q] as const,
  assignableRoles: ['users', 'assignableRoles'] as const,
  signInDisputes: ['users', 'signInDisputes'] as const,
};
