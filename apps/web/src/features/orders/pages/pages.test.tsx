// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { OrderDetail, OrderMessage, OrderSummary } from '../api/types';
import { orderKeys } from '../api/keys';
import '../../../test/dom-shims';
import { mockServer, pending, type Answer } from '../../../test/http-mock';
import { cleanup, renderScreen, unmount } from '../../../test/render';
import { $, click, flush, type, waitFor } from '../../../test/dom';
import { signInAs as signIn } from '../../../test/session';

// jsdom computes a style by matching every rule antd injected (hundreds of kB here) against the element, and the
// popups' position watchers ask for it on every ancestor: seconds per render in the send dialog. These tests read no
// computed style, so the inline style stands in for it.
const computedStyle = window.getComputedStyle;
beforeAll(() => {
  window.getComputedStyle = (el: Element) => (el as HTMLElement).style;
});
afterAll(() => {
  window.getComputedStyle = computedStyle;
});
// The first test of the file also pays for loading antd's components.
vi.setConfig({ testTimeout: 60_000 });

// The server: each test decides what a path answers; unanswered calls stay pending.
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer();
const { calls, lastCall } = server;

const summary = (o: Partial<OrderSummary> & { orderCode: string }): OrderSummary => ({
  orderType: 'restoration',
  status: 'pending',
  processing: false,
  caseCode: `case-${o.orderCode}`,
  caseName: `Case ${o.orderCode}`,
  patientName: 'Ann Smith',
  clinic: { code: 'c1', name: 'Smile Clinic' },
  lab: { code: 'l1', name: 'Alpha Lab' },
  workTypes: ['Crown'],
  requestedDeliveryDate: null,
  shipDate: null,
  trackingNumber: null,
  estimatedDeliveryDate: null,
  product: null,
  createdAt: '2025-05-01T10:00:00Z',
  updatedAt: '2025-05-01T10:00:00Z',
  ...o,
});

const ALL_ORDER_PERMISSIONS = [
  'order:view',
  'order:edit',
  'order:create',
  'order:accept',
  'order:reject',
  'order:produce',
  'order:ship',
  'order:cancel',
  'order:complete',
  'order:export',
];
function signInAs(orgType: number, opts: { permissions?: string[]; teeth?: 'fdi' | 'universal' } = {}) {
  signIn(orgType, opts.permissions ?? ALL_ORDER_PERMISSIONS, { toothNumberingSystem: opts.teeth ?? 'fdi' });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const render = (path: string, routePath: string, element: React.ReactNode, seed?: (qc: QueryClient) => void) =>
  renderScreen(path, routePath, element, { fresh: true, seed });

/** Opens an antd Select by its test id and clicks the option with this text. */
async function pick(testId: string, text: string) {
  const select = $(testId);
  expect(select).not.toBeNull();
  await act(async () => void select!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true })));
  await flush();
  const options = [
    ...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option'),
  ];
  const option = options.find((o) => o.textContent === text) ?? null;
  expect(option, `option ${text} in ${options.map((o) => o.textContent).join(', ')}`).not.toBeNull();
  await click(option);
}

async function listKey() {
  const { initialOrderListState, toOrderListQuery } = await import('../lib/orderQuery');
  const { getPrefs } = await import('../../../lib/prefs');
  return ['orders', 'list', toOrderListQuery(initialOrderListState(getPrefs().orderDateRangeDays))];
}
/** The list's partner filter (order/parties) and the send dialog's laboratories (order/labs): the same shape. */
const partiesKey = ['orders', 'list', 'parties'];
const sendableKey = ['partners', 'sendable'];
const partnerPage = {
  list: [
    { partnerCode: 'P-ALPHA', name: 'Alpha Lab' },
    { partnerCode: 'P-BETA', name: 'Beta Lab' },
  ],
};

describe('order list', () => {
  const OrderListPage = async () => (await import('./OrderListPage')).default;

  it('renders the rows and sends the filters and sort in the list body', async () => {
    signInAs(3);
    const key = await listKey();
    const Page = await OrderListPage();
    await render('/order-management', '/order-management', <Page />, (qc) => {
      qc.setQueryData(key, {
        total: 2,
        list: [
          summary({ orderCode: 'O1', status: 'shipped', trackingNumber: 'TRK-9' }),
          summary({ orderCode: 'O2', patientName: null }),
        ],
      });
      qc.setQueryData(partiesKey, partnerPage);
    });
    expect($('orders-table')).not.toBeNull();
    expect($('order-row-O1')?.textContent).toContain('Case O1');
    expect($('order-row-O1')?.textContent).toContain('Ann Smith');
    expect($('order-row-O1')?.textContent).toContain('TRK-9');
    expect($('order-row-O1')?.querySelector('[data-testid="order-status"]')?.getAttribute('data-status')).toBe(
      'shipped',
    );
    // The laboratory was not given this patient's name.
    expect($('order-row-O2')?.querySelector('[data-testid="patient-hidden"]')).not.toBeNull();
    // The lab's own batch actions are offered; the clinic's are not.
    expect($('orders-batch-accept')).not.toBeNull();
    expect($('orders-batch-cancel')).toBeNull();

    const base = key[2] as Record<string, unknown>;
    await pick('orders-filter-status', 'status.shipped');
    expect(lastCall('order/list')).toEqual({ ...base, status: 'shipped' });
    await pick('orders-filter-partner', 'Beta Lab');
    expect(lastCall('order/list')).toEqual({ ...base, status: 'shipped', partnerCode: 'P-BETA' });
    await pick('orders-filter-type', 'orderType.implant');
    expect(lastCall('order/list')).toEqual({ ...base, status: 'shipped', partnerCode: 'P-BETA', orderType: 'implant' });

    // Sorting by creation time asks the server, oldest first.
    await click(document.querySelector('.ant-table-column-has-sorters'));
    expect(lastCall('order/list')).toMatchObject({ sortOrder: 'asc', pageNum: 1 });
  });

  it('a row opens the order; the checkbox does not', async () => {
    signInAs(2);
    const key = await listKey();
    const Page = await OrderListPage();
    const { router } = await render('/order-management', '/order-management', <Page />, (qc) =>
      qc.setQueryData(key, { total: 1, list: [summary({ orderCode: 'O1' })] }),
    );
    await click($('order-select-O1'));
    expect(router.state.location.pathname).toBe('/order-management');
    // The clinic cancels pending orders and completes shipped ones.
    expect($('orders-batch-cancel')?.hasAttribute('disabled')).toBe(false);
    expect($('orders-batch-complete')?.hasAttribute('disabled')).toBe(true);
    expect($('orders-batch-accept')).toBeNull();
    await click($('order-row-O1')!.querySelector('td:nth-child(4)'));
    expect(router.state.location.pathname).toBe('/order-management/detail/O1');
  });

  it('a selection follows the list as fetched again: an order accepted meanwhile can no longer be canceled', async () => {
    signInAs(2);
    const key = await listKey();
    const Page = await OrderListPage();
    const { qc } = await render('/order-management', '/order-management', <Page />, (qc) =>
      qc.setQueryData(key, { total: 1, list: [summary({ orderCode: 'O1' })] }),
    );
    await click($('order-select-O1'));
    expect($('orders-batch-cancel')?.hasAttribute('disabled')).toBe(false);
    // The list comes back (focus, a notification, a poll) with the laboratory's acceptance.
    await act(async () => qc.setQueryData(key, { total: 1, list: [summary({ orderCode: 'O1', status: 'accepted' })] }));
    await flush();
    expect($('order-row-O1')?.getAttribute('data-status')).toBe('accepted');
    expect($('orders-batch-cancel')?.hasAttribute('disabled')).toBe(true);
  });

  it('batch ship: only for ready orders, sends the tracking number and lists per-order failures', async () => {
    signInAs(3);
    const key = await listKey();
    const Page = await OrderListPage();
    await render('/order-management', '/order-management', <Page />, (qc) =>
      qc.setQueryData(key, {
        total: 3,
        list: [
          summary({ orderCode: 'R1', status: 'ready' }),
          summary({ orderCode: 'R2', status: 'ready', caseName: 'Bridge 2' }),
          summary({ orderCode: 'P1' }),
        ],
      }),
    );
    await click($('order-select-R1'));
    await click($('order-select-P1'));
    // A pending and a ready order have no action in common.
    expect($('orders-batch-ship')?.hasAttribute('disabled')).toBe(true);
    expect($('orders-batch-accept')?.hasAttribute('disabled')).toBe(true);
    await click($('order-select-P1'));
    await click($('order-select-R2'));
    expect($('orders-batch-ship')?.hasAttribute('disabled')).toBe(false);
    expect($('orders-batch-accept')?.hasAttribute('disabled')).toBe(true);

    server.answer = (path) =>
      path === 'order/action'
        ? Promise.resolve({
            results: [
              { orderCode: 'R1', ok: true, code: 200, msg: 'Success' },
              {
                orderCode: 'R2',
                ok: false,
                code: 2035,
                msg: 'This order cannot be shipped in its current state (shipped).',
              },
            ],
          })
        : pending();
    await click($('orders-batch-ship'));
    // The tracking number is required.
    await click($('ship-confirm'));
    await flush(1, 50);
    expect(calls.some((c) => c.path === 'order/action')).toBe(false);
    await type($('ship-tracking'), ' TRK-42 ');
    await click($('ship-confirm'));
    await flush(1, 50);
    expect(lastCall('order/action')).toEqual({
      orderCodes: ['R1', 'R2'],
      action: 'ship',
      trackingNumber: 'TRK-42',
      shipDate: dayjs().format('YYYY-MM-DD'),
    });
    const failure = $('order-action-failure-R2');
    expect(failure?.textContent).toContain('Bridge 2');
    expect(failure?.textContent).toContain('cannot be shipped');
    expect($('order-action-failure-R1')).toBeNull();
  });

  it('exports the filtered list in the chosen format', async () => {
    signInAs(2);
    const key = await listKey();
    const Page = await OrderListPage();
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    server.answer = (path) =>
      path === 'order/export' ? Promise.resolve({ blob: new Blob(['a,b']), filename: 'orders-2025.csv' }) : pending();
    await render('/order-management', '/order-management', <Page />, (qc) =>
      qc.setQueryData(key, { total: 0, list: [] }),
    );
    await click($('order-export'));
    await click($('order-export-format-csv'));
    await click($('order-export-confirm'));
    const { pageNum: _p, pageSize: _s, ...filters } = key[2] as Record<string, unknown>;
    expect(lastCall('order/export')).toEqual({ ...filters, format: 'csv' });
    expect(saved).toEqual(['orders-2025.csv']);
  });
});

const detail = (o: Partial<OrderDetail> = {}): OrderDetail => ({
  ...summary({ orderCode: 'O1', status: 'accepted', trackingNumber: null }),
  teeth: [
    { number: 11, shade: 'A2', material: 'Zirconia', method: 'screwRetained', implant: true },
    { number: 48, shade: 'B1' },
  ],
  memo: 'Please check the margin.',
  sharePatientName: false,
  events: [
    {
      action: 'create',
      from: null,
      to: 'pending',
      reason: null,
      actorName: 'Dr. Who',
      actorOrganization: 'Smile Clinic',
      at: '2025-05-01T10:00:00Z',
      linkedOrderCode: null,
    },
    {
      action: 'accept',
      from: 'pending',
      to: 'accepted',
      reason: null,
      actorName: 'Tech',
      actorOrganization: 'Alpha Lab',
      at: '2025-05-02T10:00:00Z',
      linkedOrderCode: null,
    },
  ],
  files: [
    {
      fileCode: 'F1',
      name: 'upper.stl',
      format: 'stl',
      kind: 'model',
      jaw: 'upper',
      size: 1024,
      uploadTag: 'finished',
      viewerStatus: 'ready',
      unit: 'mm',
      createdAt: '',
    },
  ],
  attachments: [
    {
      code: 'A1',
      name: 'photo.jpg',
      format: 'jpg',
      size: 2048,
      organizationName: 'Smile Clinic',
      mine: false,
      createdAt: '2025-05-01T10:00:00Z',
    },
  ],
  unreadMessages: 0,
  remakeOf: null,
  remakes: [],
  scansWithheld: false,
  threadOpen: true,
  ...o,
});

describe('order detail', () => {
  /**
   * The page opened again with `d` in the cache from an earlier visit; the server answers order/detail with `now`
   * (by default the same), and `other` paths as the test says.
   */
  const render$ = async (
    d: OrderDetail,
    { now = () => Promise.resolve(d), other = pending }: { now?: () => Promise<unknown>; other?: Answer } = {},
  ) => {
    server.answer = (path, body) => (path === 'order/detail' ? now() : other(path, body));
    const { default: Page } = await import('./OrderDetailPage');
    // The app's modal API, for the confirmations of what cannot be undone.
    const { default: NotifierBridge } = await import('../../../components/NotifierBridge');
    const rendered = await render(
      `/order-management/detail/${d.orderCode}`,
      '/order-management/detail/:id',
      <>
        <NotifierBridge />
        <Page />
      </>,
      (qc) => {
        qc.setQueryData(orderKeys.detail(d.orderCode), d);
        qc.setQueryData(orderKeys.thread(d.orderCode), { pages: [{ total: 0, list: [] }], pageParams: [1] });
      },
    );
    await flush(2);
    return rendered;
  };
  const detailCalls = () => calls.filter((c) => c.path === 'order/detail').length;
  const disabled = (id: string) => $(id)?.hasAttribute('disabled');

  it('shows the teeth in Universal numbering when the user prefers it', async () => {
    signInAs(3, { teeth: 'universal' });
    await render$(detail());
    expect($('tooth-chart')?.getAttribute('data-system')).toBe('universal');
    expect($('tooth-11')?.textContent).toBe('8');
    expect($('tooth-48')?.textContent).toBe('32');
    expect($('tooth-11')?.getAttribute('data-selected')).toBe('true');
    expect($('tooth-21')?.getAttribute('data-selected')).toBe('false');
    expect($('order-tooth-label-11')?.textContent).toBe('8');
    expect($('order-tooth-label-48')?.textContent).toBe('32');
    expect($('tooth-chart-numbering')).not.toBeNull();
    expect($('order-tooth-11')?.textContent).toContain('Zirconia');
    expect($('order-tooth-11')?.textContent).toContain('method.screwRetained');
  });

  it('FDI by default; header, timeline, files, attachments and the lab’s actions', async () => {
    signInAs(3);
    await render$(detail());
    expect($('tooth-11')?.textContent).toBe('11');
    expect($('order-status')?.getAttribute('data-status')).toBe('accepted');
    expect($('order-partner')?.textContent).toBe('Smile Clinic');
    expect($('order-share-name')?.getAttribute('data-shared')).toBe('false');
    expect($('order-memo')?.textContent).toBe('Please check the margin.');
    const events = [...document.querySelectorAll('[data-testid="order-event"]')].map((e) =>
      e.getAttribute('data-action'),
    );
    expect(events).toEqual(['create', 'accept']);
    expect($('order-file-F1')?.textContent).toContain('upper.stl');
    expect($('order-attachment-A1')?.textContent).toContain('photo.jpg');
    // Accepted, not yet in production: the lab can start production or mark it ready, nothing else.
    expect($('order-action-startProcessing')).not.toBeNull();
    expect($('order-action-ready')).not.toBeNull();
    expect($('order-action-accept')).toBeNull();
    expect($('order-action-ship')).toBeNull();

    const before = detailCalls();
    server.answer = (path) =>
      path === 'order/action'
        ? Promise.resolve({ results: [{ orderCode: 'O1', ok: true, code: 200, msg: 'ok' }] })
        : path === 'order/detail'
          ? Promise.resolve(detail({ status: 'ready' }))
          : pending();
    await click($('order-action-ready'));
    expect(lastCall('order/action')).toEqual({ orderCodes: ['O1'], action: 'ready' });
    // The action is done once the order shows its new status: ready, to be shipped.
    await waitFor(() => $('order-status')?.getAttribute('data-status') === 'ready');
    expect(detailCalls()).toBeGreaterThan(before);
    expect($('order-action-ready')).toBeNull();
    expect($('order-action-ship')).not.toBeNull();
  });

  it('a copy from an earlier visit shows at once, its buttons waiting for the current status', async () => {
    signInAs(2);
    let answer: (d: OrderDetail) => void = () => {};
    await render$(detail({ status: 'pending' }), {
      now: () => new Promise((resolve) => (answer = resolve)),
    });
    // Still pending as far as this copy knows, but asked again on opening: Cancel is not offered yet.
    expect($('order-status')?.getAttribute('data-status')).toBe('pending');
    expect($('order-detail')?.getAttribute('data-confirmed')).toBe('false');
    expect(disabled('order-action-cancel')).toBe(true);
    expect(detailCalls()).toBe(1);
    // The laboratory accepted it meanwhile: no Cancel at all.
    await act(async () => answer(detail({ status: 'accepted' })));
    await flush(2);
    expect($('order-detail')?.getAttribute('data-confirmed')).toBe('true');
    expect($('order-status')?.getAttribute('data-status')).toBe('accepted');
    expect($('order-action-cancel')).toBeNull();
  });

  it('refused because the other side moved first: the order is fetched again and the action no longer offered', async () => {
    signInAs(3);
    let status: OrderDetail['status'] = 'pending';
    await render$(detail({ status }), {
      now: () => Promise.resolve(detail({ status })),
      other: (path) =>
        path === 'order/action'
          ? Promise.resolve({
              results: [{ orderCode: 'O1', ok: false, code: 2035, msg: 'This order cannot be accept (canceled).' }],
            })
          : pending(),
    });
    expect(disabled('order-action-accept')).toBe(false);
    // Between this page's last poll and the click, the clinic canceled it.
    status = 'canceled';
    const before = detailCalls();
    await click($('order-action-accept'));
    // Accepting cannot be undone: it is confirmed first.
    await waitFor(() => $('order-accept-confirm'));
    await click($('order-accept-confirm'));
    await waitFor(() => $('order-action-failures'));
    expect(lastCall('order/action')).toEqual({ orderCodes: ['O1'], action: 'accept' });
    expect($('order-action-failure-O1')?.textContent).toContain('cannot be accept');
    // Said as what it is: the order changed, and the page now shows how.
    expect($('order-action-changed')).not.toBeNull();
    await waitFor(() => $('order-status')?.getAttribute('data-status') === 'canceled');
    expect(detailCalls()).toBeGreaterThan(before);
    expect($('order-action-accept')).toBeNull();
    expect($('order-action-reject')).toBeNull();
  });

  it('a clinic asks for a remake of a shipped order with a reason and a note; one standing remake at a time', async () => {
    // The laboratory has no such button; neither has the clinic while a remake stands.
    signInAs(3);
    await render$(detail({ status: 'shipped' }));
    expect($('order-action-remake')).toBeNull();
    unmount();
    signInAs(2);
    await render$(detail({ status: 'shipped', remakes: [{ orderCode: 'O2', reason: 'fit', status: 'pending' }] }));
    expect($('order-action-remake')).toBeNull();
    expect($('order-remakes')?.textContent).toContain('O2');
    unmount();
    signInAs(2);
    await render$(detail({ status: 'completed', remakes: [{ orderCode: 'O2', reason: 'fit', status: 'canceled' }] }), {
      other: (path) =>
        path === 'order/remake' ? Promise.resolve(detail({ orderCode: 'O3', status: 'pending' })) : pending(),
    });
    await click($('order-action-remake'));
    // The reason is required.
    await click($('remake-confirm'));
    await flush(2);
    expect(calls.filter((c) => c.path === 'order/remake')).toHaveLength(0);
    await pick('remake-reason', 'remakeReason.shade');
    await type($('remake-note'), ' Too bright ');
    await click($('remake-confirm'));
    await waitFor(() => calls.some((c) => c.path === 'order/remake'));
    expect(lastCall('order/remake')).toEqual({ orderCode: 'O1', reason: 'shade', note: 'Too bright' });
  });

  it('shows the original of a remake and links the timeline events', async () => {
    signInAs(3);
    await render$(
      detail({
        remakeOf: { orderCode: 'O0', reason: 'occlusion', note: null },
        events: [
          {
            action: 'remake',
            from: null,
            to: 'pending',
            reason: 'High on 26',
            actorName: 'Dr. Who',
            actorOrganization: 'Smile Clinic',
            at: '2025-05-01T10:00:00Z',
            linkedOrderCode: 'O0',
          },
        ],
      }),
    );
    expect($('order-remake-of')?.textContent).toContain('O0');
    expect($('order-remake-of')?.textContent).toContain('remakeReason.occlusion');
    expect($('order-event-link')?.querySelector('a')?.getAttribute('href')).toBe('/order-management/detail/O0');
  });

  it('no action buttons without their permissions; each action needs its own', async () => {
    signInAs(3, { permissions: ['order:view'] });
    await render$(detail());
    expect(document.querySelector('[data-testid^="order-action-"]')).toBeNull();
    unmount();
    // A role that may accept and produce but not ship: no ship button, the others are there.
    signInAs(3, { permissions: ['order:view', 'order:accept', 'order:produce'] });
    await render$(detail({ status: 'ready', processing: true }));
    expect($('order-action-ship')).toBeNull();
  });
});

describe('order thread', () => {
  const message = (id: number, mine: boolean, content: string): OrderMessage => ({
    id,
    content,
    attachments: [],
    senderName: mine ? 'Me' : 'Tech',
    senderOrganization: mine ? 'Smile Clinic' : 'Alpha Lab',
    mine,
    createdAt: '2025-05-01T10:00:00Z',
  });

  async function renderThread(open = true) {
    const { OrderThread } = await import('../components/OrderThread');
    return render('/', '/', <OrderThread orderCode="O1" open={open} />, (qc) =>
      qc.setQueryData(orderKeys.thread('O1'), {
        pages: [{ total: 2, list: [message(2, true, 'Thanks'), message(1, false, 'Which shade?')] }],
        pageParams: [1],
      }),
    );
  }

  it('shows the oldest message first, own messages on the right, and sends a message', async () => {
    signInAs(2);
    await renderThread();
    const shown = [...document.querySelectorAll('[data-testid="thread-message"]')];
    expect(shown.map((m) => m.textContent?.includes('Which shade?'))).toEqual([true, false]);
    expect(shown.map((m) => m.getAttribute('data-mine'))).toEqual(['false', 'true']);
    expect((shown[1] as HTMLElement).style.justifyContent).toBe('flex-end');
    expect(shown[0]!.textContent).toContain('Alpha Lab');
    expect($('thread-send')?.hasAttribute('disabled')).toBe(true);

    server.answer = (path) => (path === 'msg/send' ? Promise.resolve(message(3, true, 'A2 please')) : pending());
    await type($('thread-input'), '  A2 please ');
    await click($('thread-send'));
    expect(lastCall('msg/send')).toEqual({ orderCode: 'O1', content: 'A2 please', attachmentCodes: [] });
    expect(($('thread-input') as HTMLTextAreaElement).value).toBe('');
  });

  it('shows the thread without a composer once it is read-only (order canceled or partnership ended)', async () => {
    signInAs(2);
    await renderThread(false);
    expect(document.querySelectorAll('[data-testid="thread-message"]')).toHaveLength(2);
    // The note in place of the composer (these tests render translation keys).
    expect($('thread-read-only')?.textContent).toContain('threadReadOnly');
    expect($('thread-input')).toBeNull();
    expect($('thread-send')).toBeNull();
    expect($('thread-attach')).toBeNull();
  });

  it('uploads attached files first, then sends their codes', async () => {
    signInAs(2);
    const att = {
      code: 'ATT-1',
      name: 'margin.png',
      format: 'png',
      size: 3,
      organizationName: 'Smile Clinic',
      mine: true,
      createdAt: '',
    };
    server.answer = (path) =>
      path === 'order/save_attachments'
        ? Promise.resolve({ list: [att] })
        : path === 'msg/send'
          ? Promise.resolve(message(3, true, ''))
          : pending();
    await renderThread();
    const input = $('thread-file-input') as HTMLInputElement;
    await act(async () => {
      Object.defineProperty(input, 'files', {
        value: [new File(['png'], 'margin.png'), new File(['x'], 'notes.docx')],
        configurable: true,
      });
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    // The .docx is refused before any upload; the picture waits for the send.
    expect($('thread-files')?.textContent).toContain('margin.png');
    expect($('thread-files')?.textContent).not.toContain('notes.docx');
    await click($('thread-send'));
    await flush(1, 20);
    // One multipart post (order first, then the files; lib/http tests cover the request itself), before the message.
    const uploads = calls.filter((c) => c.path === 'order/save_attachments').map((c) => c.body as FormData);
    expect(uploads.map((form) => [...form.keys()])).toEqual([['orderCode', 'file']]);
    expect(
      uploads.map((form) => ({
        orderCode: form.get('orderCode'),
        files: form.getAll('file').map((f) => (f as File).name),
      })),
    ).toEqual([{ orderCode: 'O1', files: ['margin.png'] }]);
    expect(calls.map((c) => c.path).filter((p) => p === 'order/save_attachments' || p === 'msg/send')).toEqual([
      'order/save_attachments',
      'msg/send',
    ]);
    expect(lastCall('msg/send')).toEqual({ orderCode: 'O1', content: '', attachmentCodes: ['ATT-1'] });
  });
});

const rulesKey = (partnerCode: string) => ['orders', 'requiredFields', partnerCode];
describe('send to lab', () => {
  async function renderDialog() {
    const { default: SendToLabDialog } = await import('../components/SendToLabDialog');
    return render(
      '/case-management',
      '/case-management',
      <SendToLabDialog open caseCodes={['C1', 'C2']} onClose={() => {}} />,
      (qc) => {
        qc.setQueryData(sendableKey, partnerPage);
        qc.setQueryData(rulesKey('P-ALPHA'), {
          labName: 'Alpha Lab',
          rules: [{ workType: 'Crown', fields: ['shade', 'material'] }],
        });
      },
    );
  }

  it('blocks a send with missing required fields and names them, then sends the right body', async () => {
    signInAs(2, { teeth: 'universal' });
    await renderDialog();
    await pick('send-lab', 'Alpha Lab');
    await pick('send-order-type', 'orderType.restoration');
    await pick('send-work-types', 'Crown');
    expect($('send-rules')?.textContent).toContain('Crown: tooth.shade, tooth.material');

    // No tooth yet: the lab's rule for crowns needs at least one.
    await click($('send-submit'));
    await flush(1, 50);
    expect($('send-missing-Crown')?.textContent).toBe('Crown: missing.teeth');
    expect(calls.some((c) => c.path === 'order/create')).toBe(false);

    await click($('tooth-11'));
    await click($('tooth-21'));
    expect($('tooth-11')?.getAttribute('aria-pressed')).toBe('true');
    expect($('tooth-11')?.getAttribute('aria-label')).toBe('tooth');
    expect($('tooth-11')?.textContent).toBe('8');
    await pick('tooth-11-shade', 'A2');
    await click($('send-submit'));
    await flush(1, 50);
    expect($('send-missing-Crown')?.textContent).toBe('Crown: tooth.shade, tooth.material');
    expect(calls.some((c) => c.path === 'order/create')).toBe(false);

    // Copying tooth 8's prescription to tooth 9 and adding the material completes it.
    await type($('tooth-11-material'), 'Zirconia');
    await click($('tooth-11-copy'));
    await click($('tooth-21-inlayCore'));
    await type($('send-memo'), ' Check the bite ');
    server.answer = (path) => (path === 'order/create' ? Promise.resolve({ list: [] }) : pending());
    await click($('send-submit'));
    await flush(1, 50);
    expect($('send-missing')).toBeNull();
    expect(lastCall('order/create')).toEqual({
      caseCodes: ['C1', 'C2'],
      partnerCode: 'P-ALPHA',
      orderType: 'restoration',
      workTypes: ['Crown'],
      teeth: [
        { number: 11, shade: 'A2', material: 'Zirconia' },
        { number: 21, shade: 'A2', material: 'Zirconia', inlayCore: true },
      ],
      memo: 'Check the bite',
      sharePatientName: true,
    });
  });

  it("offers the cases' treatments as the work types", async () => {
    signInAs(2);
    const { default: SendToLabDialog, suggestedWorkTypes } = await import('../components/SendToLabDialog');
    expect(suggestedWorkTypes(['Pontic', 'None', 'Crown', 'Crown'])).toEqual(['Crown', 'Pontic']);
    await render(
      '/case-management',
      '/case-management',
      <SendToLabDialog open caseCodes={['C1']} treatments={['Crown', 'Pontic']} onClose={() => {}} />,
      (qc) => {
        qc.setQueryData(sendableKey, partnerPage);
      },
    );
    await flush(1, 20);
    const chosen = [
      ...document.querySelectorAll(
        '[data-testid="send-work-types"] .ant-select-selection-item-content, [data-testid="send-work-types"] .ant-select-selection-item',
      ),
    ].map((e) => e.textContent);
    expect(chosen).toEqual(expect.arrayContaining(['Crown', 'Pontic']));
  });

  it('waits for the lab’s rules, then shows the server’s refusal', async () => {
    signInAs(2);
    let rulesArrive: (v: unknown) => void = () => {};
    server.answer = (path) => {
      if (path === 'order/requiredFields') return new Promise((resolve) => (rulesArrive = resolve));
      if (path === 'order/create') {
        return Promise.reject(
          Object.assign(new Error('x'), {
            code: 2038,
            msg: 'The scanner that made “Crown 16” may send its cases only to the laboratories designated for it.',
          }),
        );
      }
      return pending();
    };
    await renderDialog();
    await pick('send-lab', 'Beta Lab');
    await pick('send-order-type', 'orderType.other');
    await pick('send-work-types', 'Crown');
    // Beta Lab's rules are not known yet: the check before sending cannot be made.
    expect(lastCall('order/requiredFields')).toEqual({ partnerCode: 'P-BETA' });
    expect($('send-submit')?.hasAttribute('disabled')).toBe(true);
    await act(async () => rulesArrive({ labName: 'Beta Lab', rules: [] }));
    await flush(1, 20);
    expect($('send-submit')?.hasAttribute('disabled')).toBe(false);
    await click($('send-submit'));
    await flush(1, 50);
    expect(lastCall('order/create')).toMatchObject({
      partnerCode: 'P-BETA',
      orderType: 'other',
      teeth: [],
      sharePatientName: true,
    });
    expect($('send-error')?.textContent).toContain('designated for it');
  });
});

describe('send to lab from a case', () => {
  it('starts from the case: its bridge from the name, the only laboratory, a restoration', async () => {
    signInAs(2);
    const { default: SendToLabDialog } = await import('../components/SendToLabDialog');
    const onlyAlpha = { list: [partnerPage.list[0]] };
    await render(
      '/case-management',
      '/case-management',
      <SendToLabDialog
        open
        caseCodes={['C1']}
        treatments={['Crown', 'Pontic']}
        cases={[{ name: 'Bridge 14-16', treatments: ['Crown', 'Pontic'] }]}
        onClose={() => {}}
      />,
      (qc) => {
        qc.setQueryData(sendableKey, onlyAlpha);
        qc.setQueryData(rulesKey('P-ALPHA'), { labName: 'Alpha Lab', rules: [] });
      },
    );
    await flush(1, 20);
    expect($('tooth-14')?.getAttribute('data-state')).toBe('abutment');
    expect($('tooth-15')?.getAttribute('data-state')).toBe('pontic');
    expect($('tooth-16')?.getAttribute('data-state')).toBe('abutment');
    expect($('bridge-16-15-14')).not.toBeNull();
    // Both ends made pontics: a bridge on nothing is named before it is sent.
    await pick('tooth-14-unit', 'state.pontic');
    await pick('tooth-16-unit', 'state.pontic');
    await click($('send-submit'));
    await flush(1, 50);
    expect($('send-error')?.textContent).toBe('issue');
    expect(calls.some((c) => c.path === 'order/create')).toBe(false);
    await pick('tooth-14-unit', 'state.abutment');
    await pick('tooth-16-unit', 'state.abutment');
    await pick('tooth-shade-all', 'A2');
    server.answer = (path) => (path === 'order/create' ? Promise.resolve({ list: [] }) : pending());
    await click($('send-submit'));
    await flush(1, 50);
    expect(lastCall('order/create')).toMatchObject({
      partnerCode: 'P-ALPHA',
      orderType: 'restoration',
      workTypes: ['Crown', 'Pontic'],
      teeth: [
        { number: 16, unit: 'abutment', bridgeGroup: 1, shade: 'A2' },
        { number: 15, unit: 'pontic', bridgeGroup: 1, shade: 'A2' },
        { number: 14, unit: 'abutment', bridgeGroup: 1, shade: 'A2' },
      ],
    });
  });
});

describe('send-to-lab button on the case pages', () => {
  it('only for clinic users allowed to edit orders', async () => {
    const { SendToLabButton } = await import('../components/SendToLabButton');
    signInAs(2);
    await render('/', '/', <SendToLabButton caseCodes={['C1']} />);
    expect($('send-to-lab')).not.toBeNull();
    unmount();
    signInAs(2, { permissions: ['order:view'] });
    await render('/', '/', <SendToLabButton caseCodes={['C1']} />);
    expect($('send-to-lab')).toBeNull();
    unmount();
    signInAs(3);
    await render('/', '/', <SendToLabButton caseCodes={['C1']} />);
    expect($('send-to-lab')).toBeNull();
  });
});

describe('required fields editor', () => {
  it('edits the lab’s own rules and saves them', async () => {
    signInAs(3);
    const { default: Editor } = await import('../components/RequiredFieldsEditor');
    server.answer = (path) => (path === 'order/saveRequiredFields' ? Promise.resolve(null) : pending());
    await render('/', '/', <Editor />, (qc) =>
      qc.setQueryData(orderKeys.requiredFields(), {
        labName: 'Alpha Lab',
        rules: [{ workType: 'Crown', fields: ['shade'] }],
      }),
    );
    const box = (w: string, f: string) => $(`required-${w}-${f}`) as HTMLInputElement;
    expect(box('Crown', 'shade').checked).toBe(true);
    expect(box('Crown', 'material').checked).toBe(false);
    expect($('required-save')?.hasAttribute('disabled')).toBe(true);
    await click(box('Crown', 'material'));
    await click(box('Veneer', 'shade'));
    await click(box('Crown', 'shade'));
    await click($('required-save'));
    expect(lastCall('order/saveRequiredFields')).toEqual({
      rules: [
        { workType: 'Crown', fields: ['material'] },
        { workType: 'Veneer', fields: ['shade'] },
      ],
    });
  });
});
