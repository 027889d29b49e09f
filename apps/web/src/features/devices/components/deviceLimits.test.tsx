// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../test/dom-shims';
import { mockServer, pending } from '../../../test/http-mock';
import { cleanup, renderScreen } from '../../../test/render';
import { $, click as clickThen, flush as settle, type, waitFor } from '../../../test/dom';
import { signInAs } from '../../../test/session';
import { deviceKeys } from '../api/keys';
import { labChoices } from './DesignatedLabsModal';
import { parseCodes } from './CertifiedLabsCard';

// The server: each test decides what a path answers; unanswered calls stay pending.
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer();
const { calls } = server;

const device = (serialNumber: string, limitType: number) => ({
  serialNumber,
  model: 'X',
  name: `Chair ${serialNumber}`,
  status: 'Activated',
  localSave: true,
  cloudSave: true,
  limitType,
  warrantyDate: null,
  batteryHealth: null,
  lastSeenAt: null,
  clinicName: null,
  dealerName: null,
});
const partner = (partnerCode: string, status: number, code: string | null, name: string) => ({
  partnerCode,
  status,
  organization: { code, name, type: 3, city: null, country: null },
  initiatedByMe: true,
  invitedEmail: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

afterEach(cleanup);

const flush = (times = 4) => settle(times, 10);
const click = (node: Element | null | undefined) => clickThen(node, flush);
const checkbox = (code: string) => {
  const el = $(`designated-lab-option-${code}`);
  return el?.matches('input') ? (el as HTMLInputElement) : (el?.querySelector('input') ?? null);
};

async function render(orgType: number, permissions: string[], devices: ReturnType<typeof device>[]) {
  signInAs(orgType, permissions);
  const { default: DevicesPanel } = await import('./DevicesPanel');
  // The panel keeps its page in the address: it renders under a router (own space › Scanners).
  await renderScreen('/own-space?tab=scanners', '/own-space', <DevicesPanel />, {
    seed: (qc) =>
      qc.setQueryData(deviceKeys.list({ pageNum: 1, pageSize: 10 }), { total: devices.length, list: devices }),
  });
  await flush();
}

describe('device limits', () => {
  it('shows each limit type as a tag; a clinic edits the designated laboratories of a limit-type-1 scanner', async () => {
    server.answer = (path) => {
      if (path === 'equipment/listEquipment') return pending();
      if (path === 'equipment/listDesignatedLabs')
        return Promise.resolve({
          list: [
            { code: 'LAB-A', name: 'Alpha Lab' },
            { code: 'LAB-OLD', name: 'Former Lab' },
          ],
        });
      if (path === 'partner/list')
        return Promise.resolve({
          total: 4,
          list: [
            partner('P1', 1, 'LAB-A', 'Alpha Lab'),
            partner('P2', 1, 'LAB-B', 'Beta Lab'),
            partner('P3', 0, 'LAB-C', 'Gamma Lab (applying)'),
            partner('P4', -2, null, 'invited@example.test'),
          ],
        });
      if (path === 'equipment/saveDesignatedLabs') return Promise.resolve(null);
      return pending();
    };
    await render(2, ['device:view', 'device:edit'], [device('SN1', 1), device('SN2', 2), device('SN3', 3)]);
    for (const [serial, type] of [
      ['SN1', '1'],
      ['SN2', '2'],
      ['SN3', '3'],
    ]) {
      const tag = $(`device-limit-${serial}`)!;
      expect(tag.classList.contains('ant-tag')).toBe(true);
      expect(tag.getAttribute('data-limit')).toBe(type);
    }
    expect($('device-designated-SN1')).not.toBeNull();
    expect($('device-designated-SN2')).toBeNull();
    expect($('device-designated-SN3')).toBeNull();
    expect($('certified-labs')).toBeNull();

    await click($('device-designated-SN1'));
    await waitFor(() => checkbox('LAB-A')?.checked && checkbox('LAB-B'));
    expect($('designated-labs-modal')).not.toBeNull();
    expect(calls.find((c) => c.path === 'equipment/listDesignatedLabs')?.body).toEqual({ serialNumber: 'SN1' });
    expect(calls.find((c) => c.path === 'partner/list')?.body).toEqual({ tab: 'mine', pageNum: 1, pageSize: 100 });
    // Accepted partner laboratories with a code, plus a designated one that is no longer a partner.
    expect(checkbox('LAB-A')?.checked).toBe(true);
    expect(checkbox('LAB-B')?.checked).toBe(false);
    expect(checkbox('LAB-OLD')?.checked).toBe(true);
    expect(checkbox('LAB-C')).toBeNull();

    await click(checkbox('LAB-B'));
    await click(checkbox('LAB-OLD'));
    expect(checkbox('LAB-B')?.checked).toBe(true);
    await click($('designated-labs-save'));
    await waitFor(() => calls.some((c) => c.path === 'equipment/saveDesignatedLabs'));
    expect(calls.find((c) => c.path === 'equipment/saveDesignatedLabs')?.body).toEqual({
      serialNumber: 'SN1',
      labCodes: ['LAB-A', 'LAB-B'],
    });
  });

  it('OEM: the certified laboratories card lists them and saves the typed codes', async () => {
    let saved: string[] = [];
    server.answer = (path, body) => {
      if (path === 'equipment/listCertifiedLabs')
        return Promise.resolve({
          list: saved.length
            ? saved.map((code) => ({ code, name: `Lab ${code}` }))
            : [{ code: 'LAB-A', name: 'Alpha Lab' }],
        });
      if (path === 'equipment/saveCertifiedLabs') {
        saved = (body as { labCodes: string[] }).labCodes;
        return Promise.resolve(null);
      }
      return pending();
    };
    await render(5, ['device:view', 'device:import', 'device:assign'], [device('SN1', 2)]);
    await waitFor(() => $('certified-lab-LAB-A'));
    expect($('device-designated-SN1')).toBeNull();
    expect($('certified-labs')).not.toBeNull();
    expect($('certified-lab-LAB-A')?.textContent).toContain('Alpha Lab');

    await click($('certified-labs-edit'));
    await type($('certified-labs-input'), 'LAB-B, LAB-C LAB-B');
    await click($('certified-labs-add'));
    expect($('certified-lab-LAB-B')).not.toBeNull();
    expect($('certified-lab-LAB-C')).not.toBeNull();
    // Remove LAB-A; a code left in the box is saved too.
    await click($('certified-lab-LAB-A')?.querySelector('.ant-tag-close-icon'));
    expect($('certified-lab-LAB-A')).toBeNull();
    await type($('certified-labs-input'), 'LAB-D');
    await click($('certified-labs-save'));
    await waitFor(() => $('certified-lab-LAB-D')?.textContent?.includes('Lab LAB-D'));
    expect(calls.find((c) => c.path === 'equipment/saveCertifiedLabs')?.body).toEqual({
      labCodes: ['LAB-B', 'LAB-C', 'LAB-D'],
    });
    // Back to the list, reloaded.
    expect($('certified-labs-save')).toBeNull();
    expect($('certified-lab-LAB-D')?.textContent).toContain('Lab LAB-D');
  });

  it('OEM without the import permission sees the list without editing', async () => {
    server.answer = (path) =>
      path === 'equipment/listCertifiedLabs'
        ? Promise.resolve({ list: [{ code: 'LAB-A', name: 'Alpha Lab' }] })
        : pending();
    await render(5, ['device:view'], [device('SN1', 2)]);
    await waitFor(() => $('certified-lab-LAB-A'));
    expect($('certified-lab-LAB-A')).not.toBeNull();
    expect($('certified-labs-edit')).toBeNull();
  });
});

describe('helpers', () => {
  it('lab choices keep designated laboratories that are no longer partners', () => {
    expect(
      labChoices(
        [{ code: 'A', name: 'a' }],
        [
          { code: 'A', name: 'a' },
          { code: 'Z', name: 'z' },
        ],
      ),
    ).toEqual([
      { code: 'A', name: 'a', partner: true },
      { code: 'Z', name: 'z', partner: false },
    ]);
  });
  it('codes split on commas and spaces, without repeats', () => {
    expect(parseCodes(' A, B;C\nA ', ['B'])).toEqual(['B', 'A', 'C']);
    expect(parseCodes('   ')).toEqual([]);
  });
});
