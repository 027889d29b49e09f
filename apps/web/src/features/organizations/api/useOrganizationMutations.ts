import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { organizationKeys as reviewKeys } from './keys';
import { changeOrganizations, organizationKeys, restoreOrganization, type OrganizationChange } from './organizations';
import { reviewLab } from './reviewLab';

/**
 * Disables or enables organizations. Whatever happened, the lists show the statuses as they are now; the mutation
 * ends once they do.
 */
export function useChangeOrganizations<V extends { change: OrganizationChange; codes: string[] }>(
  reactions?: Reactions<{ count: number }, V>,
) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { settled: () => qc.invalidateQueries({ queryKey: organizationKeys.lists }) }),
    mutationFn: (v: V) => changeOrganizations(v),
  });
}

/** Reopens a closed organization; the lists show it as it is now, whatever happened. */
export function useRestoreOrganization<V extends { organizationCode: string }>(reactions?: Reactions<null, V>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { settled: () => qc.invalidateQueries({ queryKey: organizationKeys.lists }) }),
    mutationFn: (o: V) => restoreOrganization(o.organizationCode),
  });
}

/** Approves or rejects a laboratory's registration; every tab of the registrations to review refreshes. */
export function useReviewLab(reactions?: Reactions<null, Parameters<typeof reviewLab>[0]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: reviewKeys.reviews }) }),
    mutationFn: reviewLab,
  });
}
