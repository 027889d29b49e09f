// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import type { CaseDetail } from '../api/types';
import { caseKeys } from '../api/keys';
import { dentistKeys } from '../../dentists/api/keys';
import { deviceKeys } from '../../devices/api/keys';
import { storageKeys } from '../../storage/api/keys';
import '../../../test/dom-shims';
import { mockServer } from '../../../test/http-mock';
import { cleanup, renderScreen, unmount } from '../../../test/render';
import { screensMenu, signInAs } from '../../../test/session';

// No server: every call stays pending; the screens render from the seeded cache.
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
mockServer();

const detail: CaseDetail = {
  caseCode: 'C1',
  name: 'Crown 16',
  patientName: 'Ann Smith',
  patientId: 'P-9',
  birthDate: '1990-02-03',
  age: 35,
  scanDate: '2025-05-01T10:00:00Z',
  dentist: { id: 1, name: 'Dr. Who' },
  treatments: ['Crown'],
  status: 'uploaded',
  fileCount: 2,
  size: 2048,
  deviceSerial: null,
  createdAt: '2025-05-01T10:00:00Z',
  deletedAt: null,
  held: false,
  memo: 'note',
  legalHold: null,
  files: [
    {
      fileCode: 'F1',
      name: 'upper.stl',
      format: 'stl',
      kind: 'model',
      jaw: 'upper',
      size: 1024,
      uploadTag: 'finished',
      viewerStatus: 'pending',
      unit: null,
      createdAt: '2025-05-01T10:00:00Z',
    },
    {
      fileCode: 'F3',
      name: 'normalised.ply',
      format: 'ply',
      kind: 'model',
      jaw: 'lower',
      size: 2048,
      uploadTag: 'finished',
      viewerStatus: 'failed',
      unit: 'unknown',
      createdAt: '2025-05-01T10:00:00Z',
    },
    {
      fileCode: 'F2',
      name: 'photo.png',
      format: 'png',
      kind: 'image',
      jaw: null,
      size: 1024,
      uploadTag: 'uploaded',
      viewerStatus: 'none',
      unit: null,
      createdAt: '2025-05-01T10:00:00Z',
    },
  ],
};

afterEach(cleanup);

async function render(
  path: string,
  routePath: string,
  load: () => Promise<{ default: React.ComponentType }>,
  seed: (qc: QueryClient) => void,
) {
  const { default: Page } = await load();
  return (await renderScreen(path, routePath, <Page />, { fresh: true, seed })).host;
}

describe('case screens render', () => {
  it('detail: patient data, files grouped with their messages, upload input', async () => {
    signInAs(2, ['case:view', 'case:edit']);
    const el = await render(
      '/case-management/detail/C1',
      '/case-management/detail/:id',
      () => import('./CaseDetailPage'),
      (qc) => qc.setQueryData(caseKeys.detail('C1'), detail),
    );
    expect(el.querySelector('[data-testid="case-detail"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="case-detail-patientName"]')?.textContent).toBe('Ann Smith');
    expect(el.querySelector('[data-testid="file-item-F1"]')?.textContent).toContain('file.calculating');
    // A model whose size fits no unit says so, rather than that its processing failed.
    expect(el.querySelector('[data-testid="file-item-F3"]')?.textContent).toContain('file.unitUnknown');
    expect(el.querySelector('[data-testid="file-item-F3"]')?.textContent).not.toContain('file.processingFailed');
    expect(el.querySelector('[data-testid="file-download-F2"]')).not.toBeNull();
    expect(el.querySelector('input[type=file][data-testid="case-upload-input"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="case-edit"]')).not.toBeNull();
  });

  it('detail for a role that only reads cases: no edit, upload or file delete', async () => {
    signInAs(2, ['case:view']);
    const el = await render(
      '/case-management/detail/C1',
      '/case-management/detail/:id',
      () => import('./CaseDetailPage'),
      (qc) => qc.setQueryData(caseKeys.detail('C1'), detail),
    );
    expect(el.querySelector('[data-testid="file-download-F2"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="case-edit"]')).toBeNull();
    expect(el.querySelector('[data-testid="case-upload-input"]')).toBeNull();
    expect(el.querySelector('[data-testid^="file-delete-"]')).toBeNull();
    expect(el.querySelector('[data-permission="case:edit"]')).toBeNull();
  });

  it('list: rows with links, batch buttons disabled until a selection', async () => {
    signInAs(2, ['case:view', 'case:edit'], {}, screensMenu('/case-management/detail/:id'));
    const { initialListState, toCaseListQuery } = await import('../lib/caseQuery');
    const { getPrefs } = await import('../../../lib/prefs');
    const q = toCaseListQuery(initialListState(getPrefs().caseDateRangeDays));
    const el = await render(
      '/case-management',
      '/case-management',
      () => import('./CaseListPage'),
      (qc) => qc.setQueryData(caseKeys.list(q), { total: 1, list: [detail] }),
    );
    expect(el.querySelector('[data-testid="case-row-C1"]')?.textContent).toContain('Ann Smith');
    expect(el.querySelector('a[data-testid="case-link-C1"]')?.getAttribute('href')).toBe('/case-management/detail/C1');
    expect(el.querySelector('[data-testid="case-batch-delete"]')?.hasAttribute('disabled')).toBe(true);
    expect(el.querySelector('input[data-testid="case-search"]')).not.toBeNull();
  });

  it('own space panels: storage usage, dentists, scanners', async () => {
    let el = await render(
      '/own',
      '/own',
      () => import('../../storage/components/StoragePanel'),
      (qc) =>
        qc.setQueryData(storageKeys.usage, {
          usedBytes: 1024,
          quotaBytes: 4096,
          recycleBinBytes: 0,
          byKind: [{ kind: 'model', bytes: 1024, count: 1 }],
          largestCases: [{ caseCode: 'C1', name: 'Crown 16', patientName: 'Ann', size: 1024 }],
          largestFiles: [{ fileCode: 'F1', caseCode: 'C1', name: 'upper.stl', size: 1024 }],
        }),
    );
    expect(el.querySelector('[data-testid="storage-usage"]')?.getAttribute('data-used')).toBe('1024');
    expect(el.querySelector('[data-testid="storage-chart"] path[data-kind="model"]')).not.toBeNull();
    unmount();
    el = await render(
      '/own',
      '/own',
      () => import('../../dentists/components/DentistPanel'),
      (qc) => qc.setQueryData(dentistKeys.all, { list: [{ id: 3, name: 'Dr. Who', caseCount: 2 }] }),
    );
    expect(el.querySelector('[data-testid="dentist-row-3"]')?.textContent).toContain('Dr. Who');
    expect(el.querySelector('[data-testid="dentist-add"]')).not.toBeNull();
    unmount();
    // The activation form is a clinic administrator's.
    signInAs(2, ['device:view', 'device:edit']);
    el = await render(
      '/own',
      '/own',
      () => import('../../devices/components/DevicesPanel'),
      (qc) =>
        qc.setQueryData(deviceKeys.list({ pageNum: 1, pageSize: 10 }), {
          total: 1,
          list: [
            {
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
            },
          ],
        }),
    );
    expect(el.querySelector('[data-testid="device-row-SN1"]')?.textContent).toContain('Chair 1');
    expect(el.querySelector('input[data-testid="device-activate-serial"]')).not.toBeNull();
  });
});
