import type { Queryable } from '../../platform/db.js';

export interface EndpointRow {
  id: number;
  code: string;
  organization_id: number;
  url: string;
  events: string[];
  description: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  /** Whether the previous secret still signs (its day is not over). */
  previous_active: boolean;
  previous_secret_until: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  event_position: number;
  created_at: string;
}

export interface DeliveryRow {
  id: number;
  code: string;
  endpoint_id: number;
  message_id: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
}

export interface AttemptRow {
  delivery_id: number;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  response: string;
  error: string | null;
  created_at: string;
}

export interface WebhookEventRow {
  position: number;
  kind: string;
  subject: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

const iso = (column: string, as = column) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;

const ENDPOINT = `e.id::int8 AS id, e.code, e.organization_id::int8 AS organization_id, e.url, e.events, e.description,
  e.secret_sealed, e.previous_secret_sealed, coalesce(e.previous_secret_until > now(), false) AS previous_active,
  ${iso('e.previous_secret_until', 'previous_secret_until')}, e.enabled, e.disabled_reason,
  ${iso('e.disabled_at', 'disabled_at')}, e.event_position::int8 AS event_position, ${iso('e.created_at', 'created_at')}`;

const DELIVERY = `d.id::int8 AS id, d.code, d.endpoint_id::int8 AS endpoint_id, d.message_id, d.event_type, d.payload,
  d.status, d.attempts, ${iso('d.next_attempt_at', 'next_attempt_at')}, ${iso('d.created_at', 'created_at')}`;

export const webhooksRepository = {
  /** The organization's enabled endpoints that receive an event type. */
  async countReceiving(db: Queryable, organizationId: number, event: string) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1 AND enabled AND $2 = ANY (events)`,
      [organizationId, event],
    );
    return row?.n ?? 0;
  },
  async list(db: Queryable, organizationId: number) {
    return db.query<EndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE organization_id = $1 ORDER BY id`, [
      organizationId,
    ]);
  },

  async count(db: Queryable, organizationId: number) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1`,
      [organizationId],
    );
    return Number(row?.n ?? 0);
  },

  /** One endpoint of the organization (locked when `lock`), or undefined: another's is not told apart from none. */
  async find(db: Queryable, organizationId: number, code: string, lock = false) {
    const [row] = await db.query<EndpointRow>(
      `SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE code = $1 AND organization_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [code, organizationId],
    );
    return row;
  },

  async byId(db: Queryable, id: number) {
    const [row] = await db.query<EndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE id = $1`, [id]);
    return row;
  },

  /**
   * The highest position of a committed event (the cursor a new or re-enabled endpoint starts from, and how far the
   * dispatcher reads). Not the sequence's last value: a position giver that has not committed yet has taken numbers
   * from it, and a cursor moved past them would skip its events.
   */
  async lastEventPosition(db: Queryable): Promise<number> {
    const [row] = await db.query<{ last: number }>(`SELECT coalesce(max(position), 0)::int8 AS last FROM events`);
    return Number(row?.last ?? 0);
  },

  async insert(
    db: Queryable,
    e: {
      code: string;
      organizationId: number;
      url: string;
      events: string[];
      description: string;
      secretSealed: string;
      eventPosition: number;
    },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO webhook_endpoints (code, organization_id, url, events, description, secret_sealed, event_position)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int8 AS id`,
      [e.code, e.organizationId, e.url, e.events, e.description, e.secretSealed, e.eventPosition],
    );
    return Number(row!.id);
  },

  async update(
    db: Queryable,
    id: number,
    e: { url: string; events: string[]; description: string; enabled: boolean; eventPosition?: number },
  ) {
    await db.query(
      `UPDATE webhook_endpoints
          SET url = $2, events = $3, description = $4, enabled = $5,
              disabled_reason = CASE WHEN $5 THEN NULL WHEN enabled THEN 'manual' ELSE disabled_reason END,
              disabled_at = CASE WHEN $5 THEN NULL WHEN enabled THEN now() ELSE disabled_at END,
              event_position = coalesce($6, event_position), updated_at = now()
        WHERE id = $1`,
      [id, e.url, e.events, e.description, e.enabled, e.eventPosition ?? null],
    );
  },

  async rotate(db: Queryable, id: number, secretSealed: string, overlapHours: number) {
    await db.query(
      `UPDATE webhook_endpoints
          SET previous_secret_sealed = secret_sealed, secret_sealed = $2,
              previous_secret_until = now() + make_interval(hours => $3), updated_at = now()
        WHERE id = $1`,
      [id, secretSealed, overlapHours],
    );
  },

  async delete(db: Queryable, id: number) {
    await db.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [id]);
  },

  /** Turns an endpoint off (410, or a delivery whose retries ran out); answers whether it was on. */
  async disable(db: Queryable, id: number, reason: string): Promise<boolean> {
    const rows = await db.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, disabled_at = now(), updated_at = now()
        WHERE id = $1 AND enabled RETURNING 1`,
      [id, reason],
    );
    return rows.length > 0;
  },

  /** The enabled endpoints, for the dispatcher. */
  async enabledIds(db: Queryable): Promise<number[]> {
    const rows = await db.query<{ id: number }>(
      `SELECT id::int8 AS id FROM webhook_endpoints WHERE enabled ORDER BY id`,
    );
    return rows.map((r) => Number(r.id));
  },

  /** Locks one enabled endpoint for dispatching; undefined when another process holds it or it is off. */
  async lockForDispatch(tx: Queryable, id: number) {
    const [row] = await tx.query<EndpointRow>(
      `SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE id = $1 AND enabled FOR UPDATE SKIP LOCKED`,
      [id],
    );
    return row;
  },

  /**
   * The organization's events after a position, up to another, of the given kinds, that are meant for every member
   * (no single user's) and whose permission an administrator of the organization holds.
   */
  async events(
    db: Queryable,
    organizationId: number,
    after: number,
    upTo: number,
    kinds: string[],
    limit: number,
  ): Promise<WebhookEventRow[]> {
    return db.query<WebhookEventRow>(
      `SELECT ev.position::int8 AS position, ev.kind, ev.subject, ev.data, ${iso('ev.created_at', 'created_at')}
         FROM events ev
        WHERE ev.organization_id = $1 AND ev.position > $2 AND ev.position <= $3 AND ev.kind = ANY ($4::text[])
          AND ev.user_id IS NULL
          AND (ev.permission IS NULL OR EXISTS (
                SELECT 1 FROM users u
                  JOIN role_menus rm ON rm.role_id = u.role_id
                  JOIN menus m ON m.id = rm.menu_id
                 WHERE u.organization_id = ev.organization_id AND u.is_org_admin
                   AND (ev.permission = ANY (m.api_permissions) OR '*:*:*' = ANY (m.api_permissions))))
        ORDER BY ev.position LIMIT $5`,
      [organizationId, after, upTo, kinds, limit],
    );
  },

  async setPosition(tx: Queryable, id: number, position: number) {
    await tx.query(`UPDATE webhook_endpoints SET event_position = $2 WHERE id = $1`, [id, position]);
  },

  /** An endpoint's new deliveries, in one statement; answers their ids in the order given. */
  async insertDeliveries(
    tx: Queryable,
    endpointId: number,
    ds: Array<{ code: string; messageId: string; eventType: string; payload: string }>,
  ): Promise<number[]> {
    if (!ds.length) return [];
    const rows = await tx.query<{ id: number; code: string }>(
      `INSERT INTO webhook_deliveries (code, endpoint_id, message_id, event_type, payload, next_attempt_at)
       SELECT c, $1, m, t, p, now()
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(c, m, t, p, n)
        ORDER BY n
       RETURNING id::int8 AS id, code`,
      [
        endpointId,
        ds.map((d) => d.code),
        ds.map((d) => d.messageId),
        ds.map((d) => d.eventType),
        ds.map((d) => d.payload),
      ],
    );
    const idOf = new Map(rows.map((r) => [r.code, Number(r.id)]));
    return ds.map((d) => idOf.get(d.code)!);
  },

  async deliveryById(db: Queryable, id: number, lock = false) {
    const [row] = await db.query<DeliveryRow>(
      `SELECT ${DELIVERY} FROM webhook_deliveries d WHERE d.id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return row;
  },

  /** A delivery of one of the organization's endpoints, or undefined. */
  async deliveryOf(db: Queryable, organizationId: number, code: string, lock = false) {
    const [row] = await db.query<DeliveryRow>(
      `SELECT ${DELIVERY} FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.code = $1 AND e.organization_id = $2${lock ? ' FOR UPDATE OF d' : ''}`,
      [code, organizationId],
    );
    return row;
  },

  async deliveries(db: Queryable, endpointId: number, limit: number, offset: number) {
    const [total] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`,
      [endpointId],
    );
    const rows = await db.query<DeliveryRow>(
      `SELECT ${DELIVERY} FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.id DESC LIMIT $2 OFFSET $3`,
      [endpointId, limit, offset],
    );
    return { total: Number(total?.n ?? 0), rows };
  },

  /** The last `perDelivery` attempts of each delivery, oldest first. */
  async attempts(db: Queryable, deliveryIds: number[], perDelivery: number) {
    if (!deliveryIds.length) return [];
    return db.query<AttemptRow>(
      `SELECT delivery_id::int8 AS delivery_id, attempt, status_code, latency_ms, response, error,
              ${iso('created_at', 'created_at')}
         FROM (SELECT a.*, row_number() OVER (PARTITION BY delivery_id ORDER BY id DESC) AS n
                 FROM webhook_attempts a WHERE delivery_id = ANY ($1::int8[])) x
        WHERE n <= $2
        ORDER BY delivery_id, id`,
      [deliveryIds, perDelivery],
    );
  },

  /**
   * Records an attempt and the delivery's new state, only when the delivery is still at the attempt before it
   * (a job run again after its process died does not record twice). Answers whether it recorded.
   */
  async recordAttempt(
    tx: Queryable,
    deliveryId: number,
    a: { attempt: number; statusCode: number | null; latencyMs: number; response: string; error: string | null },
    next: { status: 'pending' | 'succeeded' | 'failed'; retryInMs: number | null },
  ): Promise<boolean> {
    const updated = await tx.query(
      `UPDATE webhook_deliveries
          SET attempts = $2, status = $3,
              next_attempt_at = CASE WHEN $4::double precision IS NULL THEN NULL
                                     ELSE now() + make_interval(secs => $4::double precision / 1000) END
        WHERE id = $1 AND attempts = $2 - 1
       RETURNING 1`,
      [deliveryId, a.attempt, next.status, next.retryInMs],
    );
    if (!updated.length) return false;
    await tx.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, response, error)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [deliveryId, a.attempt, a.statusCode, a.latencyMs, a.response, a.error],
    );
    return true;
  },

  /** A replay: the delivery waits for one more attempt. */
  async markReplay(tx: Queryable, deliveryId: number) {
    await tx.query(`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() WHERE id = $1`, [
      deliveryId,
    ]);
  },

  /** Pending deliveries of an endpoint that was turned off: they fail, and are not attempted again. */
  async failPending(tx: Queryable, endpointId: number) {
    await tx.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL
        WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId],
    );
  },

  /** The organization's active administrators, to be told that an endpoint was turned off. */
  async administrators(db: Queryable, organizationId: number) {
    return db.query<{ email: string; language: string; display_name: string }>(
      `SELECT email, language, display_name FROM users
        WHERE organization_id = $1 AND is_org_admin AND status = 1 AND email IS NOT NULL AND email <> ''`,
      [organizationId],
    );
  },

  /** Forgets deliveries (and their attempts) older than the time kept. */
  async deleteDeliveriesBefore(db: Queryable, before: Date): Promise<number> {
    const rows = await db.query(
      `DELETE FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending' RETURNING 1`,
      [before],
    );
    return rows.length;
  },
};
