import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zBool, zIntIn, zRequiredText, zText } from './fields.js';

/**
 * Webhooks (docs/product-decisions.md, "Webhooks"; docs/api.md): the events an organization's endpoint may receive.
 * Each is signed per the Standard Webhooks specification and carries codes and statuses, never patient names.
 */
export const WEBHOOK_EVENTS = [
  'order.created',
  'order.status',
  'order.message',
  'case.created',
  'case.status',
  /** The clinic erased the case's patient data on request: delete what you keep of it. */
  'case.erased',
  'file.added',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_LIMITS = {
  /** Endpoints per organization. */
  endpoints: 10,
  urlChars: 2_000,
  descriptionChars: 200,
  /** The part of a receiver's answer the delivery log keeps, in bytes. */
  responseExcerptBytes: 1_024,
} as const;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const zEndpointCode = zRequiredText(FIELD_MAX.code);
/** Checked by the server beyond its form: https, a public address (no loopback, private or metadata address). */
const zWebhookUrl = zRequiredText(WEBHOOK_LIMITS.urlChars);
const zEvents = z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length);

export const WebhookCreateBody = z.object({
  url: zWebhookUrl,
  events: zEvents,
  description: zText(WEBHOOK_LIMITS.descriptionChars).default(''),
});
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>;

/** Changes what is given; `enabled: true` turns an endpoint that was turned off on again. */
export const WebhookEditBody = z.object({
  endpointCode: zEndpointCode,
  url: zWebhookUrl.optional(),
  events: zEvents.optional(),
  description: zText(WEBHOOK_LIMITS.descriptionChars).optional(),
  enabled: zBool.optional(),
});
export type WebhookEditBody = z.infer<typeof WebhookEditBody>;

export const WebhookCodeBody = z.object({ endpointCode: zEndpointCode });

export const WebhookDeliveriesBody = z.object({
  endpointCode: zEndpointCode,
  pageNum: zIntIn(1, 10_000).default(1),
  pageSize: zIntIn(1, 100).default(20),
});
export type WebhookDeliveriesBody = z.infer<typeof WebhookDeliveriesBody>;

export const WebhookReplayBody = z.object({ deliveryCode: zRequiredText(FIELD_MAX.code) });

export const WebhookEndpoint = z.object({
  endpointCode: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  enabled: z.boolean(),
  /** Why it was turned off: 'gone' (the receiver answered 410), 'failing' (a delivery's retries ran out), 'manual'. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  /** Until when the secret before the last rotation still signs (null when none does). */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ list: z.array(WebhookEndpoint) });

/** The endpoint and its signing secret, shown this once (`whsec_` + base64 of 32 random bytes). */
export const WebhookSecretAnswer = z.object({ endpoint: WebhookEndpoint, secret: z.string() });

export const WebhookAttempt = z.object({
  attempt: z.number(),
  at: z.string(),
  /** The receiver's HTTP status; null when none came (refused address, timeout, connection error). */
  statusCode: z.number().nullable(),
  latencyMs: z.number(),
  /** The start of the receiver's answer, at most 1 kB. */
  response: z.string(),
  error: z.string().nullable(),
});

export const WebhookDelivery = z.object({
  deliveryCode: z.string(),
  /** The webhook-id header: the same on every attempt and replay, so a receiver can drop repeats. */
  messageId: z.string(),
  eventType: z.enum(WEBHOOK_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** Attempts made so far. */
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  lastStatusCode: z.number().nullable(),
  lastLatencyMs: z.number().nullable(),
  lastResponse: z.string().nullable(),
  /** The attempts, oldest first (the last 20). */
  attemptLog: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ total: z.number(), list: z.array(WebhookDelivery) });
