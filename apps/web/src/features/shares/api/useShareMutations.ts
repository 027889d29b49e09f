import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { shareKeys } from './keys';
import { createShare, revokeShare, type CreateShareInput, type ShareItem } from './shares';

/** Shares a case, an order or a report by link; the share lists refresh. */
export function useCreateShare(reactions?: Reactions<ShareItem, CreateShareInput>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: shareKeys.lists }) }),
    mutationFn: createShare,
  });
}

/** Ends a share; the share lists refresh. */
export function useRevokeShare(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: shareKeys.lists }) }),
    mutationFn: revokeShare,
  });
}
