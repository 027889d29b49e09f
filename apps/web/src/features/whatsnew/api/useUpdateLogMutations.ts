import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { whatsNewKeys } from './keys';
import { deleteUpdateLog, saveUpdateLog } from './updateLog';

type Result<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** Writes or edits an entry; everything the update log shows (the admin list, readers' lists, marks) refreshes. */
export function useSaveUpdateLog(
  reactions?: Reactions<Result<typeof saveUpdateLog>, Parameters<typeof saveUpdateLog>[0]>,
) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: whatsNewKeys.all }) }),
    mutationFn: saveUpdateLog,
  });
}

/** Deletes entries; everything the update log shows refreshes. */
export function useDeleteUpdateLogs(reactions?: Reactions<{ count: number }, number[]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: whatsNewKeys.all }) }),
    mutationFn: deleteUpdateLog,
  });
}
