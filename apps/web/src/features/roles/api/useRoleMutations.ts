import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ManagedRole } from '@portal/contracts';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { userKeys } from '../../users/api/keys';
import { roleKeys } from './keys';
import { allotRoleMenus } from './roleMenus';
import { deleteRoles, saveRole, setDefaultRole } from './saveRole';

/** A role changed: the role lists and menus, and the users' lists (they name roles) and assignable roles. */
function refreshRoles(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: roleKeys.all });
  void qc.invalidateQueries({ queryKey: userKeys.all });
}

type RoleBody = Parameters<typeof saveRole>[0];

/** Adds or renames a role. */
export function useSaveRole(reactions?: Reactions<ManagedRole, RoleBody>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshRoles(qc) }), mutationFn: saveRole });
}

/** Deletes roles no one holds. */
export function useDeleteRoles(reactions?: Reactions<{ count: number }, string[]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshRoles(qc) }), mutationFn: deleteRoles });
}

/** Makes a shared role the one newly registered organizations' administrators get. */
export function useSetDefaultRole(reactions?: Reactions<ManagedRole, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshRoles(qc) }), mutationFn: setDefaultRole });
}

/** Saves the screens and buttons of a role; the roles refresh. */
export function useAllotRoleMenus(
  reactions?: Reactions<{ menuCodes: string[] }, { roleCode: string; menuCodes: string[] }>,
) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: roleKeys.all }) }),
    mutationFn: ({ roleCode, menuCodes }) => allotRoleMenus(roleCode, menuCodes),
  });
}
