// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../../test/dom-shims';
import { mockServer, pending } from '../../../test/http-mock';
import { cleanup, renderWithQuery } from '../../../test/render';
import { $, click, flush, waitFor } from '../../../test/dom';
import { signInAs } from '../../../test/session';
import type { LabProduct } from '../api/types';
import { catalogueKeys } from '../api/keys';

// See orders/pages/pages.test.tsx: antd's injected styles make jsdom's computed style slow, and nothing here reads it.
const computedStyle = window.getComputedStyle;
beforeAll(() => {
  window.getComputedStyle = (el: Element) => (el as HTMLElement).style;
});
afterAll(() => {
  window.getComputedStyle = computedStyle;
});
vi.setConfig({ testTimeout: 60_000 });
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer();
afterEach(cleanup);

const CROWN: LabProduct = {
  productCode: 'p1',
  name: 'Zirconia crown',
  workType: 'Crown',
  materials: ['Zirconia'],
  turnaroundDays: 3,
  price: 89.5,
  currency: 'EUR',
  requiredFields: ['shade'],
};
const seedProducts = (qc: import('@tanstack/react-query').QueryClient) => {
  qc.setQueryData(catalogueKeys.products(), { labName: 'Alpha Lab', list: [CROWN] });
  qc.setQueryData(catalogueKeys.calendar, {
    workingWeekdays: [1, 2, 3, 4, 5],
    closedDates: [{ date: '2026-12-25', note: 'Christmas' }],
    timeZone: 'Europe/Copenhagen',
    saved: true,
  });
};

describe('the products tab', () => {
  it('lists the products and the calendar; removing a product asks first', async () => {
    signInAs(3, ['order:view', 'order:edit']);
    server.answer = (path) => (path === 'catalogue/deleteProduct' ? Promise.resolve(null) : pending());
    const { default: ProductsPanel } = await import('./ProductsPanel');
    await renderWithQuery(<ProductsPanel />, { fresh: true, seed: seedProducts });
    await waitFor(() => $('product-row-Zirconia crown'));
    expect($('product-row-Zirconia crown')?.textContent).toContain('€89.50');
    expect($('product-days-p1')?.textContent).toBe('3');
    expect($('closed-2026-12-25')?.textContent).toContain('Christmas');
    await click($('product-delete-p1'));
    expect(server.calls.some((c) => c.path === 'catalogue/deleteProduct')).toBe(false);
    await waitFor(() => $('product-delete-confirm'));
    await click($('product-delete-confirm'));
    await flush(2);
    expect(server.lastCall('catalogue/deleteProduct')).toEqual({ productCode: 'p1' });
  });

  it('offers no changes without the order settings permission', async () => {
    signInAs(3, ['order:view']);
    const { default: ProductsPanel } = await import('./ProductsPanel');
    await renderWithQuery(<ProductsPanel />, { fresh: true, seed: seedProducts });
    await waitFor(() => $('product-row-Zirconia crown'));
    expect($('product-add')).toBeNull();
    expect($('product-edit-p1')).toBeNull();
    expect($('calendar-save')).toBeNull();
  });
});

describe('in the send dialog and on orders', () => {
  it('shows the estimate, and warns when the requested date is earlier', async () => {
    const { DeliveryEstimate } = await import('./DeliveryEstimate');
    const seed = (qc: import('@tanstack/react-query').QueryClient) =>
      qc.setQueryData(catalogueKeys.estimate('P1', 'p1'), {
        receivedOn: '2026-11-24',
        turnaroundDays: 3,
        estimatedDeliveryDate: '2026-11-30',
      });
    await renderWithQuery(<DeliveryEstimate partnerCode="P1" productCode="p1" requestedDate="2026-12-01" />, {
      fresh: true,
      seed,
    });
    await waitFor(() => $('send-estimate'));
    expect($('send-estimate')?.getAttribute('data-date')).toBe('2026-11-30');
    expect($('send-estimate')?.className).toContain('success');
    cleanup();
    await renderWithQuery(<DeliveryEstimate partnerCode="P1" productCode="p1" requestedDate="2026-11-27" />, {
      fresh: true,
      seed,
    });
    await waitFor(() => $('send-estimate'));
    expect($('send-estimate')?.className).toContain('warning');
  });

  it('marks an order still owed past its due date as late, and no other', async () => {
    const { LateTag } = await import('./LateTag');
    const due = { estimatedDeliveryDate: '2020-01-02', requestedDeliveryDate: null };
    await renderWithQuery(<LateTag order={{ status: 'accepted', ...due }} />);
    expect($('order-late')).not.toBeNull();
    cleanup();
    await renderWithQuery(<LateTag order={{ status: 'shipped', ...due }} />);
    expect($('order-late')).toBeNull();
    cleanup();
    await renderWithQuery(
      <LateTag order={{ status: 'pending', estimatedDeliveryDate: '2999-01-01', requestedDeliveryDate: null }} />,
    );
    expect($('order-late')).toBeNull();
  });
});
