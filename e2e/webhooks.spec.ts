import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, demoOrder, launch, newPage, signIn } from './support.js';

/**
 * Webhooks from the laboratory's own space to a receiver of its own (docs/api.md, "Webhooks"): the receiver checks
 * each delivery's signature with the Standard Webhooks library, as an integrator would; a receiver that fails shows
 * its retries in the delivery log, and a replay reaches it once it is back.
 */
let browser: Browser;
let receiver: Receiver;
beforeAll(async () => {
  browser = await launch();
  receiver = await Receiver.start();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
});

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A receiver on loopback that records what it is sent and answers 204, or 500 while `failing`. */
class Receiver {
  received: Received[] = [];
  failing = false;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start() {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        receiver.received.push({ body, headers: req.headers });
        res.writeHead(receiver.failing ? 500 : 204).end();
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    // Requests arrive only after this returns: the handler above finds the receiver made here.
    const receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/portal-hooks`);
    return receiver;
  }

  /** The deliveries whose body says this order and event, each checked against the secret (throws if forged). */
  about(secret: string, orderCode: string, event: string) {
    return this.received
      .filter((r) => r.body.includes(orderCode) && r.body.includes(`"event":"${event}"`))
      .map(
        (r) =>
          new Webhook(secret).verify(r.body, {
            'webhook-id': String(r.headers['webhook-id']),
            'webhook-timestamp': String(r.headers['webhook-timestamp']),
            'webhook-signature': String(r.headers['webhook-signature']),
          }) as { type: string; data: { orderCode: string; event: string; status?: string } },
      );
  }

  stop() {
    return new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

const WAIT = { timeout: 30_000 };

describe('webhooks', () => {
  it('a laboratory registers a loopback endpoint and its receiver verifies the delivery of a shipped order; a failing receiver shows its retries and a replay reaches it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'lab');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/own-space?tab=webhooks');
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-add-save').click();
    // The secret is shown once, to be copied into the receiver.
    const shown = (await page.getByTestId('webhook-secret').textContent({ timeout: 20_000 })) ?? '';
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(shown)?.[0];
    expect(secret).toBeDefined();
    await page
      .getByRole('dialog')
      .filter({ has: page.getByTestId('webhook-secret') })
      .getByRole('button', { name: 'OK' })
      .click();
    const row = page.locator('tr', { hasText: receiver.url });
    await row.waitFor();

    // The laboratory ships an order: the receiver gets it, signed with the endpoint's secret.
    const stamp = Date.now().toString(36);
    const first = await demoOrder({ caseName: `Hook ${stamp}`, patientName: `Hook ${stamp}`, tooth: 26 });
    for (const [action, extra] of [
      ['accept', {}],
      ['ready', {}],
      ['ship', { trackingNumber: `HOOK-${stamp}` }],
    ] as const) {
      const done = await api('order/action', { orderCodes: [first.orderCode], action, ...extra }, first.labToken);
      expect(done.code).toBe(200);
    }
    await expect.poll(() => receiver.about(secret!, first.orderCode, 'ship').length, WAIT).toBeGreaterThan(0);
    const [shipped] = receiver.about(secret!, first.orderCode, 'ship');
    expect(shipped).toMatchObject({ type: 'order.status', data: { orderCode: first.orderCode, event: 'ship' } });
    // Patient names stay out of the payloads: the receiver reads details through the API.
    expect(receiver.received.some((r) => r.body.includes(`Hook ${stamp}`))).toBe(false);

    // The receiver fails: the next order's delivery is tried again on the schedule, and the log shows the attempts.
    receiver.failing = true;
    const second = await demoOrder({ caseName: `Hook 2 ${stamp}`, patientName: `Hook 2 ${stamp}`, tooth: 27 });
    await expect
      .poll(() => receiver.received.filter((r) => r.body.includes(second.orderCode)).length, WAIT)
      .toBeGreaterThanOrEqual(2);
    await row.locator('[data-testid^="webhook-log-"]').click();
    const failed = page.locator('[data-testid^="webhook-delivery-"][data-status="pending"][data-attempts="2"]');
    await failed.first().waitFor(WAIT);
    const deliveryCode = (await failed.first().getAttribute('data-testid'))!.replace('webhook-delivery-', '');

    // Back up: a replay delivers it now, and the log follows without being reopened.
    receiver.failing = false;
    const before = receiver.received.length;
    await page.getByTestId(`webhook-replay-${deliveryCode}`).click();
    await page.locator(`[data-testid="webhook-delivery-${deliveryCode}"][data-status="succeeded"]`).waitFor(WAIT);
    const replayed = receiver.received.slice(before).filter((r) => r.body.includes(second.orderCode));
    expect(replayed.length).toBeGreaterThan(0);
    expect(receiver.about(secret!, second.orderCode, 'create')[0]).toMatchObject({
      type: 'order.created',
      data: { orderCode: second.orderCode },
    });
    await context.close();
  });
});
