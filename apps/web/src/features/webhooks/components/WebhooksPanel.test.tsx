// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '@portal/contracts';
import '../../../test/dom-shims';
import { mockServer, server } from '../../../test/http-mock';
import { cleanup, renderWithQuery } from '../../../test/render';
import { $, click, flush, waitFor } from '../../../test/dom';
import { signInAs } from '../../../test/session';
import { webhookKeys } from '../api/webhooks';

vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
mockServer(async () => null);

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const endpoint: WebhookEndpoint = {
  endpointCode: 'whe1',
  url: 'https://hooks.example.com/portal',
  events: ['order.status'],
  description: '',
  enabled: false,
  disabledReason: 'gone',
  disabledAt: '2026-11-29T01:00:00.000Z',
  previousSecretUntil: null,
  createdAt: '2026-11-28T01:00:00.000Z',
};
const delivery: WebhookDelivery = {
  deliveryCode: 'whd1',
  messageId: 'msg_1',
  eventType: 'order.status',
  status: 'failed',
  attempts: 1,
  nextAttemptAt: null,
  createdAt: '2026-11-29T01:00:00.000Z',
  lastStatusCode: 410,
  lastLatencyMs: 12,
  lastResponse: 'gone',
  attemptLog: [
    { attempt: 1, at: '2026-11-29T01:00:00.000Z', statusCode: 410, latencyMs: 12, response: 'gone', error: null },
  ],
};

describe('webhooks tab', () => {
  it('lists the endpoints, opens the delivery log and sends a delivery again', async () => {
    signInAs(2, ['webhook:manage']);
    const { default: WebhooksPanel } = await import('./WebhooksPanel');
    await renderWithQuery(<WebhooksPanel />, {
      fresh: true,
      seed: (qc) => qc.setQueryData(webhookKeys.endpoints, { list: [endpoint] }),
    });
    expect($('own-webhooks')!.textContent).toContain('https://hooks.example.com/portal');
    expect($('own-webhooks')!.textContent).toContain('off.gone');
    server.answer = async (path) => (path === 'webhook/deliveries' ? { total: 1, list: [delivery] } : null);
    await click($('webhook-log-whe1'));
    await waitFor(() => $('webhook-replay-whd1') !== null);
    await click($('webhook-replay-whd1'));
    await flush(3);
    expect(server.lastCall('webhook/replay')).toEqual({ deliveryCode: 'whd1' });
    expect(server.lastCall('webhook/deliveries')).toEqual({ endpointCode: 'whe1', pageNum: 1, pageSize: 20 });
  });
});
