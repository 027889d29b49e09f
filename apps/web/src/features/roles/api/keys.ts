/** Query keys of the roles feature: mutations invalidate `all` (and the users' assignable roles). */
export const roleKeys = {
  all: ['roles'] as const,
  list: (q: object) => ['roles', 'list', q] as const,
  menuTree: (orgType?: number) => ['roles', 'menuTree', orgType ?? null] as const,
  menusOf: (roleCode: string) => ['roles', 'menusOf', roleCode] as const,
};
