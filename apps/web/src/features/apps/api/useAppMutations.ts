import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { appsKeys } from './keys';
import {
  editApp,
  registerApp,
  sendActivationLink,
  setAppStatus,
  type AppChanges,
  type AppCreated,
  type NewApp,
  type RegisteredApp,
} from './register';

/** The register is read again after any change (a suspension changes the row's status and its buttons). */
const refresh = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: appsKeys.registered });

export function useRegisterApp(reactions?: Reactions<AppCreated, NewApp>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: registerApp });
}

export function useEditApp(reactions?: Reactions<RegisteredApp, AppChanges>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: editApp });
}

export function useSetAppStatus(reactions?: Reactions<RegisteredApp, { appCode: string; suspend: boolean }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => refresh(qc) }),
    mutationFn: (v: { appCode: string; suspend: boolean }) => setAppStatus(v.appCode, v.suspend),
  });
}

export function useSendActivationLink(reactions?: Reactions<RegisteredApp, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: sendActivationLink });
}
