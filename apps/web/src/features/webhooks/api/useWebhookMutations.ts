import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import {
  createEndpoint,
  deleteEndpoint,
  replayDelivery,
  rotateSecret,
  setEnabled,
  webhookKeys,
  type WebhookEndpoint,
} from './webhooks';

type SecretAnswer = { endpoint: WebhookEndpoint; secret: string };
/** Endpoints and delivery logs are read again after any change (a replay changes a delivery's row). */
const refresh = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: webhookKeys.all });

export function useCreateEndpoint(reactions?: Reactions<SecretAnswer, Parameters<typeof createEndpoint>[0]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: createEndpoint });
}

export function useRotateSecret(reactions?: Reactions<SecretAnswer, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: rotateSecret });
}

export function useSetEnabled(reactions?: Reactions<WebhookEndpoint, { code: string; enabled: boolean }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => refresh(qc) }),
    mutationFn: (v: { code: string; enabled: boolean }) => setEnabled(v.code, v.enabled),
  });
}

export function useDeleteEndpoint(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: deleteEndpoint });
}

export function useReplayDelivery(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refresh(qc) }), mutationFn: replayDelivery });
}
