import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { deleteDentist } from './deleteDentist';
import { dentistKeys } from './keys';
import { saveDentist } from './saveDentist';

type Saved = Awaited<ReturnType<typeof saveDentist>>;

/** Adds a dentist, or renames one (`id`); the dentist lists (and the case form's choices) refresh. */
export function useSaveDentist(reactions?: Reactions<Saved, { id?: number; name: string }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: dentistKeys.all }) }),
    mutationFn: saveDentist,
  });
}

/** Deletes a dentist; the dentist lists refresh. */
export function useDeleteDentist(reactions?: Reactions<null, number>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: dentistKeys.all }) }),
    mutationFn: deleteDentist,
  });
}
