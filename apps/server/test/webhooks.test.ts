import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { OrgType } from '@portal/contracts';
import { createHarness, type Harness } from './harness.js';
import { member, newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';
import { pinnedLookup } from '../src/modules/webhooks/webhook-address.js';
import { send } from '../src/modules/webhooks/webhook-sender.js';
import { RETRY_SCHEDULE_MS } from '../src/modules/webhooks/webhooks.service.js';

/** Webhooks (docs/product-decisions.md, "Webhooks"): signed deliveries, retries, rotation and address checks. */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on the loopback address: answers each path with the status set for it (200 by default). */
class Receiver {
  readonly received: Received[] = [];
  readonly statuses = new Map<string, number>();
  private server!: Server;
  base = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = this.statuses.get(path) ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(`answer ${status} ${'x'.repeat(3000)}`);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

function verify(secret: string, r: Received) {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}

let h: Harness;
let receiver: Receiver;
let clinic: Side;
let lab: Side;
let stranger: Side;
let partnerCode: string;

const call = (s: { token: string }, path: string, body: Record<string, unknown> = {}) =>
  h.call(`webhook/${path}`, { token: s.token, body });

async function register(s: Side, path: string, events: string[]) {
  const res = await call(s, 'create', { url: `${receiver.base}${path}`, events });
  expect(res.code).toBe(200);
  return res.data as { endpoint: { endpointCode: string; enabled: boolean }; secret: string };
}

/** Runs the dispatcher and the delivery queue until `done` holds (events get their positions in the background). */
async function pump(done: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    await h.app.webhooks.dispatch();
    await h.app.webhooks.jobs.drain();
    if (await done()) return;
    if (Date.now() > end) throw new Error('webhooks: nothing arrived in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The clock moves on: retries scheduled for later are due now. */
async function retriesDue() {
  await h.db.query(`UPDATE jobs SET run_after = now() WHERE kind = 'webhookDelivery' AND status = 'queued'`);
  await h.app.webhooks.jobs.drain();
}

async function deliveries(s: Side, endpointCode: string) {
  const res = await call(s, 'deliveries', { endpointCode, pageSize: 100 });
  expect(res.code).toBe(200);
  return res.data as {
    total: number;
    list: Array<{
      deliveryCode: string;
      messageId: string;
      eventType: string;
      status: string;
      attempts: number;
      nextAttemptAt: string | null;
      lastStatusCode: number | null;
      lastLatencyMs: number | null;
      lastResponse: string | null;
      attemptLog: Array<{ attempt: number; statusCode: number | null; latencyMs: number; response: string }>;
    }>;
  };
}

async function newOrder() {
  const [orderCode] = await sendToLab(h, clinic, partnerCode, [await newCase(h, clinic, 'Crown', 'Greta Lund')]);
  return orderCode!;
}

beforeAll(async () => {
  h = await createHarness({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
  receiver = new Receiver();
  await receiver.start();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  stranger = await side(h, OrgType.Clinic);
  partnerCode = await partner(h, clinic, lab);
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await h?.close();
});

describe('webhooks', () => {
  it('send a shipped order as order.status, signed per Standard Webhooks, with no patient name', async () => {
    const { endpoint, secret } = await register(clinic, '/clinic', ['order.created', 'order.status']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    // Kept sealed: the secret is nowhere in the database.
    const [row] = await h.db.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM webhook_endpoints WHERE code = $1',
      [endpoint.endpointCode],
    );
    expect(row!.secret_sealed).not.toContain(secret.slice(6, 20));
    const listed = await call(clinic, 'list');
    expect(JSON.stringify(listed.data)).not.toContain(secret);

    const orderCode = await newOrder();
    for (const action of ['accept', 'ready']) await orderAction(h, lab, [orderCode], action);
    const shipped = await orderAction(h, lab, [orderCode], 'ship', { trackingNumber: 'HOOK-1' });
    expect(shipped.data.results[0].ok).toBe(true);

    const shipMessage = () =>
      receiver.at('/clinic').find((r) => (JSON.parse(r.body) as { data: { event?: string } }).data.event === 'ship');
    await pump(() => shipMessage() !== undefined);
    const payloads = receiver.at('/clinic').map((r) => verify(secret, r));
    expect(payloads[0]).toMatchObject({ type: 'order.created', data: { orderCode, event: 'create' } });
    const ship = verify(secret, shipMessage()!);
    expect(ship).toMatchObject({ type: 'order.status', data: { orderCode, event: 'ship' } });
    expect(typeof ship.data.status).toBe('string');
    expect(ship.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const r of receiver.at('/clinic')) {
      expect(r.body).not.toContain('Greta');
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    // A wrong secret does not verify.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, shipMessage()!)).toThrow();

    const log = await deliveries(clinic, endpoint.endpointCode);
    expect(log.list.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    expect(log.list[0]!.lastStatusCode).toBe(200);
    expect(Buffer.byteLength(log.list[0]!.lastResponse!)).toBeLessThanOrEqual(1024);
    expect(log.list[0]!.lastLatencyMs).toBeGreaterThanOrEqual(0);
  });

  it('retry a receiver answering 500 on the schedule, log the attempts, and replay it', async () => {
    receiver.statuses.set('/flaky', 500);
    const { endpoint, secret } = await register(lab, '/flaky', ['order.created']);
    await newOrder();
    await pump(() => receiver.at('/flaky').length >= 1);
    let [d] = (await deliveries(lab, endpoint.endpointCode)).list;
    expect([d!.status, d!.attempts, d!.lastStatusCode]).toEqual(['pending', 1, 500]);
    const wait = Date.parse(d!.nextAttemptAt!) - Date.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(RETRY_SCHEDULE_MS[0] + 1000);
    // Not yet due: nothing more is sent.
    await h.app.webhooks.jobs.drain();
    expect(receiver.at('/flaky')).toHaveLength(1);

    await retriesDue();
    [d] = (await deliveries(lab, endpoint.endpointCode)).list;
    expect([d!.status, d!.attempts]).toEqual(['pending', 2]);
    expect(Date.parse(d!.nextAttemptAt!) - Date.now()).toBeGreaterThan(RETRY_SCHEDULE_MS[1] - 10_000);
    expect(d!.attemptLog.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
    ]);
    // The same message each time: one webhook-id, the same body.
    const sent = receiver.at('/flaky');
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(sent[0]!.body).toBe(sent[1]!.body);

    receiver.statuses.set('/flaky', 200);
    expect((await call(lab, 'replay', { deliveryCode: d!.deliveryCode })).code).toBe(200);
    await h.app.webhooks.jobs.drain();
    [d] = (await deliveries(lab, endpoint.endpointCode)).list;
    expect([d!.status, d!.attempts, d!.lastStatusCode, d!.nextAttemptAt]).toEqual(['succeeded', 3, 200, null]);
    expect(verify(secret, receiver.at('/flaky')[2]!)).toMatchObject({ type: 'order.created' });
    // The retry that was scheduled finds the delivery done and sends nothing.
    await retriesDue();
    expect(receiver.at('/flaky')).toHaveLength(3);
  });

  it('turn an endpoint off when its retries run out, and mail the administrators', async () => {
    receiver.statuses.set('/down', 503);
    const { endpoint } = await register(clinic, '/down', ['case.created']);
    await newCase(h, clinic, 'Down case', 'Greta Lund');
    await pump(() => receiver.at('/down').length >= 1);
    for (let i = 0; i < RETRY_SCHEDULE_MS.length; i++) await retriesDue();
    expect(receiver.at('/down')).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
    const [d] = (await deliveries(clinic, endpoint.endpointCode)).list;
    expect([d!.status, d!.attempts, d!.nextAttemptAt]).toEqual(['failed', 8, null]);
    const [listed] = (await call(clinic, 'list')).data.list.filter(
      (e: { endpointCode: string }) => e.endpointCode === endpoint.endpointCode,
    );
    expect([listed.enabled, listed.disabledReason]).toEqual([false, 'failing']);
    const mails = await h.db.query<{ subject: string; body_text: string }>(
      `SELECT subject, body_text FROM mail_outbox WHERE to_address = $1 AND subject LIKE 'A webhook endpoint%'`,
      [clinic.email],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body_text).toContain(`${receiver.base}/down`);
    // Off: new events are not sent.
    await newCase(h, clinic, 'Another', 'Greta Lund');
    await new Promise((r) => setTimeout(r, 300));
    await h.app.webhooks.dispatch();
    await h.app.webhooks.jobs.drain();
    expect(receiver.at('/down')).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
  });

  it('turn an endpoint off at once when the receiver answers 410', async () => {
    receiver.statuses.set('/gone', 410);
    const { endpoint } = await register(clinic, '/gone', ['case.created']);
    await newCase(h, clinic, 'Gone case', 'Greta Lund');
    await pump(() => receiver.at('/gone').length >= 1);
    await retriesDue();
    expect(receiver.at('/gone')).toHaveLength(1);
    const [d] = (await deliveries(clinic, endpoint.endpointCode)).list;
    expect([d!.status, d!.attempts]).toEqual(['failed', 1]);
    const listed = (await call(clinic, 'list')).data.list.find(
      (e: { endpointCode: string }) => e.endpointCode === endpoint.endpointCode,
    );
    expect([listed.enabled, listed.disabledReason]).toEqual([false, 'gone']);
    // Turned on again by an administrator.
    const on = await call(clinic, 'edit', { endpointCode: endpoint.endpointCode, enabled: true });
    expect([on.code, on.data.enabled, on.data.disabledReason]).toEqual([200, true, null]);
  });

  it('sign with the old and the new secret during the day after a rotation', async () => {
    const { endpoint, secret: oldSecret } = await register(lab, '/rotated', ['order.created']);
    const rotated = await call(lab, 'rotateSecret', { endpointCode: endpoint.endpointCode });
    expect(rotated.code).toBe(200);
    const newSecret = rotated.data.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    const until = Date.parse(rotated.data.endpoint.previousSecretUntil);
    expect(Math.abs(until - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);
    await newOrder();
    await pump(() => receiver.at('/rotated').length >= 1);
    const [r] = receiver.at('/rotated');
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(oldSecret, r!)).toMatchObject({ type: 'order.created' });
    expect(verify(newSecret, r!)).toMatchObject({ type: 'order.created' });

    // After the overlap only the new secret signs.
    await h.db.query(
      `UPDATE webhook_endpoints SET previous_secret_until = now() - interval '1 second' WHERE code = $1`,
      [endpoint.endpointCode],
    );
    await newOrder();
    await pump(() => receiver.at('/rotated').length >= 2);
    const second = receiver.at('/rotated')[1]!;
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(newSecret, second)).toMatchObject({ type: 'order.created' });
    expect(() => verify(oldSecret, second)).toThrow();
  });

  it('refuse private, link-local, shared, metadata and unspecified addresses in every spelling at registration', async () => {
    const refused = [
      'https://10.0.0.1/hook',
      'https://172.16.5.4/hook',
      'https://192.168.1.10/hook',
      'https://100.64.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://2852039166/hook',
      'https://0xa9fea9fe/hook',
      'https://0251.0376.0251.0376/hook',
      'https://0.0.0.0/hook',
      'https://0/hook',
      'https://[::ffff:169.254.169.254]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://[fe80::1]/hook',
      'https://[fc00::1]/hook',
      'https://[::]/hook',
      'http://example.com/hook',
      'ftp://example.com/hook',
      'https://user:pass@example.com/hook',
      'not a url',
    ];
    for (const url of refused) {
      const res = await call(clinic, 'create', { url, events: ['order.status'] });
      expect([url, res.status, res.code, res.data?.field]).toEqual([url, 400, 2091, 'url']);
      expect(res.msg).toContain('url');
    }
    const [n] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE url NOT LIKE 'http://127.0.0.1%'`,
    );
    expect(n!.n).toBe(0);
    // An edit is checked the same way.
    const { endpoint } = await register(clinic, '/edited', ['order.status']);
    const edit = await call(clinic, 'edit', {
      endpointCode: endpoint.endpointCode,
      url: 'https://0xa9.0xfe.0xa9.0xfe/',
    });
    expect([edit.code, edit.data.field]).toEqual([2091, 'url']);
    expect((await call(clinic, 'delete', { endpointCode: endpoint.endpointCode })).code).toBe(200);
  });

  it('let no other organization list, edit, rotate, read or replay an endpoint, and no member without the right', async () => {
    const { endpoint } = await register(clinic, '/private', ['case.created']);
    await newCase(h, clinic, 'Private case', 'Greta Lund');
    await pump(async () => (await deliveries(clinic, endpoint.endpointCode)).total >= 1);
    const [d] = (await deliveries(clinic, endpoint.endpointCode)).list;
    expect((await call(stranger, 'list')).data.list).toEqual([]);
    for (const [path, body] of [
      ['edit', { endpointCode: endpoint.endpointCode, enabled: false }],
      ['delete', { endpointCode: endpoint.endpointCode }],
      ['rotateSecret', { endpointCode: endpoint.endpointCode }],
      ['deliveries', { endpointCode: endpoint.endpointCode }],
      ['replay', { deliveryCode: d!.deliveryCode }],
    ] as const) {
      const res = await call(stranger, path, body);
      expect([path, res.status, res.code]).toEqual([path, 404, 404]);
    }
    const narrow = await member(h, clinic, OrgType.Clinic, ['cases']);
    for (const path of ['list', 'create', 'deliveries']) {
      const res = await call(narrow, path, {
        endpointCode: endpoint.endpointCode,
        url: 'https://example.com',
        events: ['case.created'],
      });
      expect([path, res.status, res.code]).toEqual([path, 403, 1002]);
    }
    const [still] = (await call(clinic, 'list')).data.list.filter(
      (e: { endpointCode: string }) => e.endpointCode === endpoint.endpointCode,
    );
    expect(still.enabled).toBe(true);
  });

  it('check the addresses a name resolves to when delivering, and connect to the one checked', async () => {
    const refusing = pinnedLookup({ allowLoopback: false });
    const err = await new Promise<Error | null>((r) => refusing('localhost', {}, (e) => r(e)));
    expect(err?.message).toMatch(/refused \(loopback\)/);
    const allowing = pinnedLookup({ allowLoopback: true });
    const address = await new Promise<string>((r, j) =>
      allowing('localhost', { family: 4 }, (e, a) => (e ? j(e) : r(a as string))),
    );
    expect(address).toBe('127.0.0.1');
    const port = new URL(receiver.base).port;
    const before = receiver.received.length;
    const viaName = await send(`https://localhost:${port}/x`, {}, '{}', { allowLoopback: false });
    expect([viaName.statusCode, viaName.error]).toEqual([null, expect.stringMatching(/loopback/)]);
    const viaMapped = await send(`https://[::ffff:127.0.0.1]:${port}/x`, {}, '{}', { allowLoopback: false });
    expect(viaMapped.error).toMatch(/loopback/);
    expect(receiver.received.length).toBe(before);
  });
});

describe('webhooks without loopback allowed', () => {
  let strict: Harness;
  let admin: Side;
  beforeAll(async () => {
    strict = await createHarness();
    admin = await side(strict, OrgType.Lab);
  }, 60_000);
  afterAll(() => strict?.close());

  it('refuse the loopback address in every spelling, and plain http', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://127.1/hook',
      'https://2130706433/hook',
      'https://0x7f000001/hook',
      'https://0177.0.0.1/hook',
      'https://0x7f.0.0.1/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://localhost/hook',
      'https://api.localhost/hook',
      'http://127.0.0.1:8080/hook',
      'http://example.com/hook',
    ]) {
      const res = await strict.call('webhook/create', { token: admin.token, body: { url, events: ['order.status'] } });
      expect([url, res.code, res.data?.field]).toEqual([url, 2091, 'url']);
    }
    const ok = await strict.call('webhook/create', {
      token: admin.token,
      body: { url: 'https://hooks.example.com/portal', events: ['order.status', 'file.added'] },
    });
    expect([ok.code, ok.data.endpoint.url]).toEqual([200, 'https://hooks.example.com/portal']);
  });
});
