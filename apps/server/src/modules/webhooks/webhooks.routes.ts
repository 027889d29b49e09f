import {
  EmptyEnvelope,
  Permission,
  WebhookCodeBody,
  WebhookCreateBody,
  WebhookDeliveriesBody,
  WebhookDeliveryList,
  WebhookEditBody,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookReplayBody,
  WebhookSecretAnswer,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { WebhooksService } from './webhooks.service.js';

const MANAGE = { permission: Permission.WebhookManage } as const;

/** Webhooks (docs/product-decisions.md, "Webhooks"; the payloads and their verification in docs/api.md). */
export function webhooksModule(webhooks: WebhooksService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/webhook/list',
        {
          schema: {
            tags: ['webhooks'],
            summary: "The organization's webhook endpoints (their secrets are never shown again)",
            response: { 200: envelope(WebhookEndpointList) },
          },
          config: MANAGE,
        },
        async (request) => ok(request, await webhooks.list(request.auth)),
      );

      app.post(
        '/webhook/create',
        {
          schema: {
            tags: ['webhooks'],
            summary: 'Register an https endpoint for some events; answers its signing secret, shown this once',
            body: WebhookCreateBody,
            response: { 200: envelope(WebhookSecretAnswer) },
          },
          config: { ...MANAGE, errors: ['WEBHOOK_URL_REFUSED', 'WEBHOOK_LIMIT'] },
        },
        async (request) => ok(request, await webhooks.create(request.auth, request.body)),
      );

      app.post(
        '/webhook/edit',
        {
          schema: {
            tags: ['webhooks'],
            summary: "Change an endpoint's address, events or description, or turn it off or on again",
            body: WebhookEditBody,
            response: { 200: envelope(WebhookEndpoint) },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND', 'WEBHOOK_URL_REFUSED'] },
        },
        async (request) => ok(request, await webhooks.edit(request.auth, request.body)),
      );

      app.post(
        '/webhook/delete',
        {
          schema: {
            tags: ['webhooks'],
            summary: 'Remove an endpoint and its delivery log',
            body: WebhookCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await webhooks.delete(request.auth, request.body.endpointCode)),
      );

      app.post(
        '/webhook/rotateSecret',
        {
          schema: {
            tags: ['webhooks'],
            summary: 'A new signing secret, shown this once; the previous one keeps signing for 24 hours',
            body: WebhookCodeBody,
            response: { 200: envelope(WebhookSecretAnswer) },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await webhooks.rotateSecret(request.auth, request.body.endpointCode)),
      );

      app.post(
        '/webhook/deliveries',
        {
          schema: {
            tags: ['webhooks'],
            summary: "An endpoint's delivery log, newest first: status, attempts, latency and the receiver's answer",
            body: WebhookDeliveriesBody,
            response: { 200: envelope(WebhookDeliveryList) },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await webhooks.deliveries(request.auth, request.body)),
      );

      app.post(
        '/webhook/replay',
        {
          schema: {
            tags: ['webhooks'],
            summary: 'Send a delivery once more, now, with the same webhook-id and body',
            body: WebhookReplayBody,
            response: { 200: EmptyEnvelope },
          },
          config: { ...MANAGE, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await webhooks.replay(request.auth, request.body.deliveryCode)),
      );
    },
  };
}
