import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { AddressRefused, pinnedLookup, refusedAddress, type AddressPolicy } from './webhook-address.js';

/** How long a receiver has to answer, and how much of its answer is read. */
export const SEND_TIMEOUT_MS = 15_000;
export const RESPONSE_READ_BYTES = 64 * 1024;
export const RESPONSE_EXCERPT_BYTES = 1_024;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

/** `v1,` and the base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the secret's bytes. */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** The start of the answer, at most RESPONSE_EXCERPT_BYTES. */
  response: string;
  error: string | null;
}

/** The first `max` bytes of a buffer as text, without a character cut in two. */
function excerpt(body: Buffer, max: number): string {
  const text = body.subarray(0, max).toString('utf8');
  return body.length > max ? text.replace(/\uFFFD$/, '') : text;
}

/**
 * Posts one signed message: no redirects followed, 15 s for the whole exchange, at most 64 kB of the answer read.
 * The address connected to is checked after resolution (a literal one before the request).
 */
export async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: AddressPolicy,
): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { statusCode: null, latencyMs: 0, response: '', error: 'the address is not a URL' };
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host, policy);
    if (refused)
      return { statusCode: null, latencyMs: 0, response: '', error: `address refused (${refused}): ${host}` };
  }
  const client =
    target.protocol === 'https:' ? https : target.protocol === 'http:' && policy.allowLoopback ? http : null;
  if (!client) return { statusCode: null, latencyMs: 0, response: '', error: `scheme refused: ${target.protocol}` };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: latency() });
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: pinnedLookup(policy),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'DentalPortal-Webhooks/1',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            response: excerpt(Buffer.concat(chunks), RESPONSE_EXCERPT_BYTES),
            error: null,
          });
        res.on('data', (chunk: Buffer) => {
          if (read >= RESPONSE_READ_BYTES) return;
          chunks.push(chunk.subarray(0, RESPONSE_READ_BYTES - read));
          read += chunk.length;
          if (read >= RESPONSE_READ_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${SEND_TIMEOUT_MS / 1000} s`));
    }, SEND_TIMEOUT_MS);
    request.on('error', (err) =>
      finish({
        statusCode: null,
        response: '',
        error: err instanceof AddressRefused ? err.message : String(err.message || err).slice(0, 500),
      }),
    );
    request.end(body);
  });
}
