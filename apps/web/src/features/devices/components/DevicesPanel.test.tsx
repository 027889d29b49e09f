// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import '../../../test/dom-shims';
import { mockServer, pending } from '../../../test/http-mock';
import { cleanup, renderScreen } from '../../../test/render';
import { flush } from '../../../test/dom';
import { signInAs } from '../../../test/session';
import { deviceKeys } from '../api/keys';

// No server: list calls stay pending (the list comes from the seeded cache); the import answers with row errors.
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const { calls: posts } = mockServer((path) =>
  path === 'equipment/assignDealer' ? Promise.resolve({ count: 1 }) : pending(),
);
const importCatalog = vi.fn();
vi.mock('../api/importCatalog', () => ({ importCatalog: (file: File) => importCatalog(file) }));

afterEach(() => {
  cleanup();
  importCatalog.mockReset();
});

const device = {
  serialNumber: 'SN1',
  model: 'X',
  name: 'Chair 1',
  status: 'Activated',
  localSave: true,
  cloudSave: false,
  limitType: 3,
  warrantyDate: '2026-01-01',
  batteryHealth: 80,
  lastSeenAt: null,
  clinicName: null,
  dealerName: null,
};

async function render(orgType: number, permissions: string[]) {
  signInAs(orgType, permissions);
  const { default: DevicesPanel } = await import('./DevicesPanel');
  const seed = (qc: QueryClient) =>
    qc.setQueryData(deviceKeys.list({ pageNum: 1, pageSize: 10 }), { total: 1, list: [device] });
  // The panel keeps its page in the address: it renders under a router (own space › Scanners).
  return (await renderScreen('/own-space?tab=scanners', '/own-space', <DevicesPanel />, { fresh: true, seed })).host;
}

describe('scanners panel', () => {
  it('clinic: activation form and rename, no OEM tools', async () => {
    const el = await render(2, ['device:view', 'device:edit']);
    expect(el.querySelector('[data-testid="device-row-SN1"]')?.textContent).toContain('Chair 1');
    expect(el.querySelector('input[data-testid="device-activate-serial"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="device-rename-SN1"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="catalog-file"]')).toBeNull();
    expect(el.querySelector('[data-testid="assign-dealer"]')).toBeNull();
  });

  it('dealer: list only', async () => {
    const el = await render(4, ['device:view', 'device:edit']);
    expect(el.querySelector('[data-testid="device-row-SN1"]')).not.toBeNull();
    expect(el.querySelector('input[data-testid="device-activate-serial"]')).toBeNull();
    expect(el.querySelector('[data-testid="device-rename-SN1"]')).toBeNull();
    expect(el.querySelector('[data-testid="catalog-file"]')).toBeNull();
  });

  it('OEM: catalogue import shows row errors; assign to dealer sends the selection', async () => {
    importCatalog.mockResolvedValueOnce({
      imported: 0,
      errors: [
        { row: 3, reason: 'missing model' },
        { row: 5, reason: 'bad limitType' },
      ],
    });
    const el = await render(5, ['device:view', 'device:edit', 'device:import', 'device:assign']);
    expect(el.querySelector('input[data-testid="device-activate-serial"]')).toBeNull();
    const input = el.querySelector<HTMLInputElement>('input[data-testid="catalog-file"]')!;
    expect(input.accept).toBe('.xlsx,.csv');
    const file = new File(['model,serialNumber,activationCode\n'], 'c.csv', { type: 'text/csv' });
    await act(async () => {
      Object.defineProperty(input, 'files', { value: [file], configurable: true });
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    expect(importCatalog).toHaveBeenCalledWith(file);
    expect(el.querySelector('[data-testid="catalog-errors"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="catalog-error-3"]')?.textContent).toContain('missing model');
    expect(el.querySelector('[data-testid="catalog-error-5"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="catalog-result"]')).toBeNull();

    importCatalog.mockResolvedValueOnce({ imported: 2, errors: [] });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    expect(el.querySelector('[data-testid="catalog-result"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="catalog-errors"]')).toBeNull();

    const assignButton = el.querySelector<HTMLButtonElement>('[data-testid="assign-dealer"]')!;
    expect(assignButton.disabled).toBe(true);
    const checkbox = el.querySelector<HTMLInputElement>('[data-testid="device-row-SN1"] input[type="checkbox"]')!;
    await act(async () => checkbox.click());
    expect(assignButton.disabled).toBe(false);
    await act(async () => assignButton.click());
    const code = document.querySelector<HTMLInputElement>('input[data-testid="assign-dealer-code"]')!;
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(code, 'D-100');
      code.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => document.querySelector<HTMLButtonElement>('[data-testid="assign-dealer-submit"]')!.click());
    await flush();
    await flush();
    expect(posts.find((p) => p.path === 'equipment/assignDealer')?.body).toEqual({
      serialNumbers: ['SN1'],
      dealerCode: 'D-100',
    });
  });
});
