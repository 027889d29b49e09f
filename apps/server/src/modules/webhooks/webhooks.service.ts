import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  type WebhookCreateBody,
  type WebhookDeliveriesBody,
  type WebhookDelivery,
  type WebhookEditBody,
  type WebhookEndpoint,
  type WebhookEvent,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../platform/auth.js';
import { newCode, newId, openWith, sealWith } from '../../platform/crypto.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Mailer, StoredMail } from '../../platform/mail.js';
import { AddressRefused, checkWebhookUrl, type AddressPolicy } from './webhook-address.js';
import { send, sign, type SendResult } from './webhook-sender.js';
import { webhooksRepository as repo, type DeliveryRow, type EndpointRow } from './webhooks.repository.js';

/** The Standard Webhooks retry schedule after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6] as const;
/** After a rotation the previous secret keeps signing this long (receivers roll their configuration meanwhile). */
export const SECRET_OVERLAP_HOURS = 24;
/** How long the delivery log is kept. */
export const DELIVERY_RETENTION_DAYS = 30;
export const PAYLOAD_MAX_BYTES = 20_000;
export const DELIVERY_JOB = 'webhookDelivery';
const DISPATCH_BATCH = 500;
const ATTEMPTS_SHOWN = 20;

/** The events module's kinds a webhook is made from. */
const SOURCE_KINDS = ['order.changed', 'order.message', 'case.changed', 'file.prepared'];

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * The webhook event an event row makes, with the data it carries: codes and statuses picked one by one (never the
 * row's data as a whole, so nothing else, such as a patient's name, can reach a receiver).
 */
export function webhookEventOf(
  kind: string,
  subject: string | null,
  data: Record<string, unknown>,
): { type: WebhookEvent; data: Record<string, string | boolean | undefined> } | undefined {
  switch (kind) {
    case 'order.changed': {
      const event = text(data.event);
      const created = event === 'create' || event === 'remake';
      return {
        type: created ? 'order.created' : 'order.status',
        data: { orderCode: subject ?? undefined, status: text(data.status), event },
      };
    }
    case 'order.message':
      return { type: 'order.message', data: { orderCode: subject ?? undefined, status: text(data.status) } };
    case 'case.changed': {
      const change = text(data.change);
      // An erasure asks receivers to delete what they keep of the case.
      if (change === 'erased') return { type: 'case.erased', data: { caseCode: subject ?? undefined } };
      if (change !== 'created' && change !== 'status') return undefined;
      return {
        type: change === 'created' ? 'case.created' : 'case.status',
        data: { caseCode: subject ?? undefined, status: text(data.status) },
      };
    }
    case 'file.prepared':
      return {
        type: 'file.added',
        data: { caseCode: subject ?? undefined, fileCode: text(data.fileCode), viewerStatus: text(data.viewerStatus) },
      };
    default:
      return undefined;
  }
}

/** `whsec_` and the base64 of 32 random bytes. */
function newSecret() {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function endpointView(e: EndpointRow): WebhookEndpoint {
  return {
    endpointCode: e.code,
    url: e.url,
    events: e.events.filter((x): x is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(x)),
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabled_reason,
    disabledAt: e.disabled_at,
    previousSecretUntil: e.previous_active ? e.previous_secret_until : null,
    createdAt: e.created_at,
  };
}

type Outcome = { status: 'pending' | 'succeeded' | 'failed'; retryInMs: number | null; disable?: 'gone' | 'failing' };

/** What an attempt's result leads to (Standard Webhooks: 2xx succeeds, 410 turns the endpoint off, else retry). */
export function outcomeOf(result: SendResult, attempt: number, replay: boolean): Outcome {
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: 'succeeded', retryInMs: null };
  if (code === 410) return { status: 'failed', retryInMs: null, disable: 'gone' };
  // A replay is one attempt asked for by a person: its failure is shown, not retried.
  if (replay) return { status: 'failed', retryInMs: null };
  const wait = RETRY_SCHEDULE_MS[attempt - 1];
  if (wait !== undefined) return { status: 'pending', retryInMs: wait };
  return { status: 'failed', retryInMs: null, disable: 'failing' };
}

/**
 * Webhooks (docs/product-decisions.md, "Webhooks"): an organization's endpoints, the dispatcher that turns its
 * events into signed deliveries, and the delivery job with its retries.
 */
export class WebhooksService {
  /** Static: how many of the organization's endpoints will receive an event type (an erasure's certificate). */
  static countReceiving(db: Queryable, organizationId: number, event: WebhookEvent) {
    return repo.countReceiving(db, organizationId, event);
  }

  private readonly policy: AddressPolicy;
  private dispatching: Promise<number> | undefined;
  private dispatchAgain = false;

  constructor(
    private readonly db: Db,
    /** The delivery queue's runner (main.ts starts it; tests drain it). */
    readonly jobs: Jobs,
    private readonly mailer: Mailer,
    private readonly config: Pick<Config, 'webhooks' | 'publicUrl'>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.policy = { allowLoopback: config.webhooks.allowLoopback };
    jobs.handle(DELIVERY_JOB, (p) => this.deliver(p));
  }

  private seal(secret: string) {
    return sealWith(this.config.webhooks.secretKey, secret);
  }

  private open(sealed: string) {
    const secret = openWith(this.config.webhooks.secretKey, sealed);
    if (secret === undefined) throw new Error('a webhook secret cannot be opened: was WEBHOOK_SECRET_KEY changed?');
    return secret;
  }

  /** The URL a person gave, or the catalogue's refusal naming the field. */
  private url(raw: string): string {
    try {
      return checkWebhookUrl(raw, this.policy);
    } catch (err) {
      if (err instanceof AddressRefused)
        throw new AppError(
          'WEBHOOK_URL_REFUSED',
          { field: 'url', host: err.host },
          { field: 'url', reason: err.reason },
        );
      throw err;
    }
  }

  private async endpoint(auth: AuthContext, code: string, lock = false, db: Queryable = this.db) {
    const e = await repo.find(db, auth.organizationId, code, lock);
    if (!e) fail('NOT_FOUND');
    return e;
  }

  async list(auth: AuthContext) {
    return { list: (await repo.list(this.db, auth.organizationId)).map(endpointView) };
  }

  async create(auth: AuthContext, body: WebhookCreateBody) {
    const url = this.url(body.url);
    const secret = newSecret();
    const code = await this.db.transaction(async (tx) => {
      if ((await repo.count(tx, auth.organizationId)) >= WEBHOOK_LIMITS.endpoints)
        fail('WEBHOOK_LIMIT', { count: WEBHOOK_LIMITS.endpoints });
      const endpointCode = newCode('whe');
      await repo.insert(tx, {
        code: endpointCode,
        organizationId: auth.organizationId,
        url,
        events: [...new Set(body.events)],
        description: body.description,
        secretSealed: this.seal(secret),
        // Only what happens from now on is sent.
        eventPosition: await repo.lastEventPosition(tx),
      });
      return endpointCode;
    });
    return { endpoint: endpointView((await repo.find(this.db, auth.organizationId, code))!), secret };
  }

  async edit(auth: AuthContext, body: WebhookEditBody) {
    const url = body.url === undefined ? undefined : this.url(body.url);
    await this.db.transaction(async (tx) => {
      const e = await this.endpoint(auth, body.endpointCode, true, tx);
      const enabled = body.enabled ?? e.enabled;
      await repo.update(tx, e.id, {
        url: url ?? e.url,
        events: body.events ? [...new Set(body.events)] : e.events,
        description: body.description ?? e.description,
        enabled,
        // Turned on again, it sends what happens from now on, not what it missed while off.
        eventPosition: enabled && !e.enabled ? await repo.lastEventPosition(tx) : undefined,
      });
      if (!enabled) await repo.failPending(tx, e.id);
    });
    return endpointView((await repo.find(this.db, auth.organizationId, body.endpointCode))!);
  }

  async delete(auth: AuthContext, endpointCode: string) {
    await this.db.transaction(async (tx) => {
      const e = await this.endpoint(auth, endpointCode, true, tx);
      await repo.delete(tx, e.id);
    });
    return null;
  }

  async rotateSecret(auth: AuthContext, endpointCode: string) {
    const secret = newSecret();
    await this.db.transaction(async (tx) => {
      const e = await this.endpoint(auth, endpointCode, true, tx);
      await repo.rotate(tx, e.id, this.seal(secret), SECRET_OVERLAP_HOURS);
    });
    return { endpoint: endpointView((await repo.find(this.db, auth.organizationId, endpointCode))!), secret };
  }

  async deliveries(auth: AuthContext, body: WebhookDeliveriesBody) {
    const e = await this.endpoint(auth, body.endpointCode);
    const { total, rows } = await repo.deliveries(this.db, e.id, body.pageSize, (body.pageNum - 1) * body.pageSize);
    const attempts = await repo.attempts(
      this.db,
      rows.map((d) => Number(d.id)),
      ATTEMPTS_SHOWN,
    );
    return {
      total,
      list: rows.map((d): WebhookDelivery => {
        const log = attempts.filter((a) => Number(a.delivery_id) === Number(d.id));
        const last = log[log.length - 1];
        return {
          deliveryCode: d.code,
          messageId: d.message_id,
          eventType: d.event_type as WebhookEvent,
          status: d.status,
          attempts: d.attempts,
          nextAttemptAt: d.status === 'pending' ? d.next_attempt_at : null,
          createdAt: d.created_at,
          lastStatusCode: last?.status_code ?? null,
          lastLatencyMs: last?.latency_ms ?? null,
          lastResponse: last ? last.response : null,
          attemptLog: log.map((a) => ({
            attempt: a.attempt,
            at: a.created_at,
            statusCode: a.status_code,
            latencyMs: a.latency_ms,
            response: a.response,
            error: a.error,
          })),
        };
      }),
    };
  }

  /** Sends a delivery once more, now, with the same id and body (and the current secrets' signatures). */
  async replay(auth: AuthContext, deliveryCode: string) {
    await this.db.transaction(async (tx) => {
      const d = await repo.deliveryOf(tx, auth.organizationId, deliveryCode, true);
      if (!d) fail('NOT_FOUND');
      await repo.markReplay(tx, d.id);
      await this.jobs.enqueue(DELIVERY_JOB, { deliveryId: Number(d.id), attempt: d.attempts + 1, replay: true }, tx);
    });
    this.jobs.wakeUp();
    return null;
  }

  /**
   * Turns new events into deliveries: each enabled endpoint's cursor moves over its organization's events (only
   * those for every member whose permission an administrator holds), in one transaction with the deliveries and
   * their jobs. Runs once at a time in this process (again when asked meanwhile); processes share the work through
   * row locks. Answers how many deliveries were made.
   */
  dispatch(): Promise<number> {
    if (this.dispatching) {
      this.dispatchAgain = true;
      return this.dispatching;
    }
    this.dispatching = (async () => {
      let made = 0;
      do {
        this.dispatchAgain = false;
        for (const id of await repo.enabledIds(this.db)) {
          for (;;) {
            const { count, more } = await this.db.transaction((tx) => this.dispatchEndpoint(tx, id));
            made += count;
            // Woken at each commit, not once the loop ends: while events keep coming it may not end for a while.
            if (count) this.jobs.wakeUp();
            if (!more) break;
          }
        }
      } while (this.dispatchAgain);
      return made;
    })().finally(() => (this.dispatching = undefined));
    return this.dispatching;
  }

  private async dispatchEndpoint(tx: Queryable, id: number) {
    const e = await repo.lockForDispatch(tx, id);
    if (!e) return { count: 0, more: false };
    const upTo = await repo.lastEventPosition(tx);
    if (upTo <= Number(e.event_position)) return { count: 0, more: false };
    const rows = await repo.events(
      tx,
      Number(e.organization_id),
      Number(e.event_position),
      upTo,
      SOURCE_KINDS,
      DISPATCH_BATCH,
    );
    const deliveries = [];
    for (const row of rows) {
      const made = webhookEventOf(row.kind, row.subject, row.data ?? {});
      if (!made || !e.events.includes(made.type)) continue;
      const payload = JSON.stringify({ type: made.type, timestamp: row.created_at, data: made.data });
      if (Buffer.byteLength(payload) > PAYLOAD_MAX_BYTES) {
        this.log.warn({ endpoint: e.code, type: made.type }, 'webhooks: a payload over 20 kB was not sent');
        continue;
      }
      deliveries.push({
        code: newCode('whd'),
        messageId: `msg_${newId().replace(/-/g, '')}`,
        eventType: made.type,
        payload,
      });
    }
    // A batch's deliveries and their jobs in two statements: the transaction (and the wait for its commit) stays
    // short however many events a burst brought.
    const ids = await repo.insertDeliveries(tx, Number(e.id), deliveries);
    await this.jobs.enqueueMany(
      DELIVERY_JOB,
      ids.map((deliveryId) => ({ deliveryId, attempt: 1 })),
      tx,
    );
    const full = rows.length === DISPATCH_BATCH;
    await repo.setPosition(tx, Number(e.id), full ? Number(rows[rows.length - 1]!.position) : upTo);
    return { count: ids.length, more: full };
  }

  /** The delivery job: one attempt, its record, and what follows (a retry, success, or the endpoint turned off). */
  async deliver(p: Record<string, unknown>) {
    const deliveryId = Number(p.deliveryId);
    const attempt = Number(p.attempt);
    const replay = p.replay === true;
    const d = await repo.deliveryById(this.db, deliveryId);
    // Gone, or this attempt was already made (a job run again) or overtaken by a replay.
    if (!d || d.status !== 'pending' || d.attempts !== attempt - 1) return;
    const e = await repo.byId(this.db, Number(d.endpoint_id));
    if (!e) return;
    if (!e.enabled && !replay) {
      await repo.failPending(this.db, Number(e.id));
      return;
    }
    const result = await this.attempt(e, d);
    const outcome = outcomeOf(result, attempt, replay);
    let mails: StoredMail[] = [];
    await this.db.transaction(async (tx) => {
      const recorded = await repo.recordAttempt(
        tx,
        deliveryId,
        { attempt, ...result },
        { status: outcome.status, retryInMs: outcome.retryInMs },
      );
      if (!recorded) return;
      if (outcome.retryInMs !== null)
        await this.jobs.enqueue(DELIVERY_JOB, { deliveryId, attempt: attempt + 1 }, tx, outcome.retryInMs);
      if (outcome.disable && (await repo.disable(tx, Number(e.id), outcome.disable))) {
        await repo.failPending(tx, Number(e.id));
        this.log.warn({ endpoint: e.code, reason: outcome.disable }, 'webhooks: an endpoint was turned off');
        if (outcome.disable === 'failing') mails = await this.tellAdministrators(tx, e, attempt);
      }
    });
    if (mails.length) await this.mailer.deliverStored(mails);
  }

  private async attempt(e: EndpointRow, d: DeliveryRow): Promise<SendResult> {
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const signatures = [sign(this.open(e.secret_sealed), d.message_id, timestamp, d.payload)];
      if (e.previous_active && e.previous_secret_sealed)
        signatures.push(sign(this.open(e.previous_secret_sealed), d.message_id, timestamp, d.payload));
      return await send(
        e.url,
        {
          'webhook-id': d.message_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatures.join(' '),
        },
        d.payload,
        this.policy,
      );
    } catch (err) {
      return { statusCode: null, latencyMs: 0, response: '', error: String(err).slice(0, 500) };
    }
  }

  /** The mail to the organization's administrators that an endpoint was turned off after its retries ran out. */
  private async tellAdministrators(tx: Queryable, e: EndpointRow, attempts: number) {
    const mails: StoredMail[] = [];
    for (const admin of await repo.administrators(tx, Number(e.organization_id))) {
      mails.push(
        await this.mailer.store(tx, {
          to: admin.email,
          language: admin.language,
          recipientName: admin.display_name,
          template: 'webhookDisabled',
          params: { url: e.url, attempts },
          link: `${this.config.publicUrl}/own-space?tab=webhooks`,
        }),
      );
    }
    return mails;
  }

  /** Forgets deliveries older than the time kept (housekeeping). */
  cleanup() {
    return repo.deleteDeliveriesBefore(this.db, new Date(Date.now() - DELIVERY_RETENTION_DAYS * 86_400_000));
  }
}
