import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';

export type { WebhookDelivery, WebhookEndpoint, WebhookEvent };

export const webhookKeys = {
  all: ['webhooks'] as const,
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: (endpointCode: string, pageNum: number) => ['webhooks', 'deliveries', endpointCode, pageNum] as const,
};

export const endpointsQuery = () =>
  queryOptions({
    queryKey: webhookKeys.endpoints,
    queryFn: () => http.post<{ list: WebhookEndpoint[] }>('webhook/list'),
  });

/** How often an open delivery log asks again while one of its deliveries waits for an attempt (retries, a replay). */
export const PENDING_DELIVERY_POLL_MS = 3_000;

export const deliveriesQuery = (endpointCode: string, pageNum: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(endpointCode, pageNum),
    queryFn: () =>
      http.post<{ total: number; list: WebhookDelivery[] }>('webhook/deliveries', {
        endpointCode,
        pageNum,
        pageSize: 20,
      }),
    // Attempts happen on the server's schedule, not on anything this screen hears: follow them while one is due.
    refetchInterval: (query) =>
      query.state.data?.list.some((d) => d.status === 'pending') ? PENDING_DELIVERY_POLL_MS : false,
  });

type SecretAnswer = { endpoint: WebhookEndpoint; secret: string };
export const createEndpoint = (body: { url: string; events: WebhookEvent[]; description: string }) =>
  http.write<SecretAnswer>('webhook/create', body);
export const rotateSecret = (endpointCode: string) =>
  http.write<SecretAnswer>('webhook/rotateSecret', { endpointCode });
export const setEnabled = (endpointCode: string, enabled: boolean) =>
  http.write<WebhookEndpoint>('webhook/edit', { endpointCode, enabled });
export const deleteEndpoint = (endpointCode: string) => http.write<null>('webhook/delete', { endpointCode });
export const replayDelivery = (deliveryCode: string) => http.write<null>('webhook/replay', { deliveryCode });
