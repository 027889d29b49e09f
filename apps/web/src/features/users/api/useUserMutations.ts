import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveUserBody } from '@portal/contracts';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { changeUsers, type UserChange } from './changeUsers';
import { userKeys } from './keys';
import { saveUser } from './saveUser';

type Saved = Awaited<ReturnType<typeof saveUser>>;

/** Adds or edits a user; the user lists refresh. */
export function useSaveUser(reactions?: Reactions<Saved, SaveUserBody>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: userKeys.all }) }),
    mutationFn: saveUser,
  });
}

/** Enables, disables or deletes users; the user lists refresh. */
export function useChangeUsers(reactions?: Reactions<{ count: number }, { change: UserChange; codes: string[] }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: userKeys.all }) }),
    mutationFn: ({ change, codes }) => changeUsers(change, codes),
  });
}
