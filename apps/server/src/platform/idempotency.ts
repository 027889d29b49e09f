import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256 } from './crypto.js';
import type { Db } from './db.js';
import { fail, invalidField } from './errors.js';

/**
 * Idempotency keys (docs/api.md, "Retrying a write"). Every call is a POST, and a write cut off mid-flight (a lost
 * connection, a process that died, a balancer's retry) may have committed. A client that sends `Idempotency-Key` with
 * a write and sends it again after such a failure gets the first answer back (with `Idempotent-Replayed: true`)
 * instead of a second application:
 *
 * - the first request claims the key before its handler runs (one statement: two at once cannot both claim it);
 * - its answer (below 500) is kept with the key for IDEMPOTENCY_KEY_HOURS, and a repeat is answered with it;
 * - a repeat while the first still runs, or after the process running it died (its outcome is then unknown), is
 *   refused with IDEMPOTENCY_PENDING and never run; a 5xx frees the key (nothing was applied: handlers write in
 *   transactions that an error rolls back), so the retry runs;
 * - the same key with another call or body is refused with IDEMPOTENCY_KEY_REUSED.
 *
 * Keys belong to the caller (the user, or the app acting for them). Only JSON bodies are keyed: a multipart upload is
 * checked and stored whole or not at all, and is sent again as a whole.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_HOURS = 24;
const KEY_FORMAT = /^[\x21-\x7e]{8,200}$/;
/** Longer than the request time-out the web app and the balancer use: a claim older than this ran in a dead process. */
const RUNNING_LEASE_SECONDS = 120;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { caller: string; key: string };
  }
}

interface KeyRow {
  request_hash: string;
  status: number | null;
  content_type: string | null;
  body: Buffer | Uint8Array | null;
  running_seconds: number;
}

export function registerIdempotency(scope: FastifyInstance, db: Db) {
  scope.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || request.method !== 'POST') return;
    if (typeof header !== 'string' || !KEY_FORMAT.test(header)) invalidField('Idempotency-Key', 'paramInvalid');
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return;
    const caller = request.appToken ? `u${request.auth.userId}:a${request.appToken.appId}` : `u${request.auth.userId}`;
    const hash = sha256(`${request.routeOptions.url ?? ''}\n${JSON.stringify(request.body ?? null)}`);
    const claimed = await db.query(
      `INSERT INTO idempotency_keys (caller, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (caller, key) DO NOTHING RETURNING key`,
      [caller, header, hash],
    );
    if (claimed.length) {
      request.idempotency = { caller, key: header };
      return;
    }
    const [row] = await db.query<KeyRow>(
      `SELECT request_hash, status, content_type, body, extract(epoch FROM now() - created_at)::float8 AS running_seconds
         FROM idempotency_keys WHERE caller = $1 AND key = $2`,
      [caller, header],
    );
    if (!row) fail('IDEMPOTENCY_PENDING', {}, { outcomeUnknown: false });
    if (row.request_hash !== hash) fail('IDEMPOTENCY_KEY_REUSED');
    if (row.status === null) {
      const outcomeUnknown = row.running_seconds > RUNNING_LEASE_SECONDS;
      if (!outcomeUnknown) reply.header('retry-after', '1');
      fail('IDEMPOTENCY_PENDING', {}, { outcomeUnknown });
    }
    reply.header('idempotent-replayed', 'true');
    if (row.content_type) reply.header('content-type', row.content_type);
    return reply.code(row.status).send(row.body ? Buffer.from(row.body) : undefined);
  });

  scope.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    const kept = typeof payload === 'string' || Buffer.isBuffer(payload) || payload == null;
    if (reply.statusCode >= 500 || !kept) {
      await db.query('DELETE FROM idempotency_keys WHERE caller = $1 AND key = $2', [claim.caller, claim.key]);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await db.query(
      `UPDATE idempotency_keys SET status = $3, content_type = $4, body = $5, completed_at = now()
        WHERE caller = $1 AND key = $2`,
      [
        claim.caller,
        claim.key,
        reply.statusCode,
        typeof contentType === 'string' ? contentType : null,
        payload == null ? null : Buffer.from(payload),
      ],
    );
    return payload;
  });
}

/** Forgets keys past IDEMPOTENCY_KEY_HOURS (upkeep, hourly). */
export async function deleteOldIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) RETURNING key`,
    [IDEMPOTENCY_KEY_HOURS],
  );
  return rows.length;
}
