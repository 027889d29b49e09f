import type { UseMutationOptions } from '@tanstack/react-query';
import { sayIfRefused } from './refusal';

/**
 * What a screen adds to one of its feature's mutation hooks: its own reactions (a toast, a dialog closed, a field
 * marked). Which data the change makes stale is the hook's business (features/<name>/api/).
 */
export type Reactions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

interface Refresh<TData, TVariables> {
  /** On success, before the screen's own onSuccess. */
  success?: (data: TData, variables: TVariables) => unknown;
  /** Once settled, whatever the answer (the rows may have moved meanwhile), before the screen's own onSettled. */
  settled?: (variables: TVariables) => unknown;
}

/**
 * The screen's reactions with the hook's refresh run first, and a refusal for want of a permission said once. A refresh that returns its promise keeps the mutation
 * pending until the data on screen is fetched again (a confirm stays busy until then); one that returns nothing
 * lets the mutation end at once.
 */
export function withRefresh<TData, TVariables>(
  reactions: Reactions<TData, TVariables> = {},
  refresh: Refresh<TData, TVariables>,
): Reactions<TData, TVariables> {
  const { onSuccess, onSettled, onError } = reactions;
  return {
    ...reactions,
    // A refusal (1002) says so here for every action; the screen's own error display would only repeat the code.
    onError: async (error, variables, result, context) => {
      if (!sayIfRefused(error)) await onError?.(error, variables, result, context);
    },
    onSuccess: async (data, variables, result, context) => {
      await Promise.all([refresh.success?.(data, variables), onSuccess?.(data, variables, result, context)]);
    },
    onSettled: async (data, error, variables, result, context) => {
      await Promise.all([refresh.settled?.(variables), onSettled?.(data, error, variables, result, context)]);
    },
  };
}
