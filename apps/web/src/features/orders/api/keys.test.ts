import { describe, expect, it } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { caseKeys } from '../../cases/api/keys';
import { dashboardKeys } from '../../dashboard/api/keys';
import { notificationKeys } from '../../notifications/api/keys';
import { partnerKeys } from '../../partners/api/keys';
import { storageKeys } from '../../storage/api/keys';
import { invalidateWork } from './keys';
import { orderKeys } from './keys';

describe('after an order or case action, or a new notification', () => {
  it('every order, case and dashboard query is stale, whatever its filters; signed links and other data are not', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const work: QueryKey[] = [
      orderKeys.list({ pageNum: 2, pageSize: 50, status: 'pending', partnerCode: 'P1' }),
      orderKeys.list({ pageNum: 1, pageSize: 20 }),
      orderKeys.detail('O1'),
      orderKeys.thread('O1'),
      caseKeys.list({ pageNum: 1, pageSize: 20, keyword: 'ann' }),
      caseKeys.detail('C1'),
      dashboardKeys.index,
      dashboardKeys.lineChart('7d'),
      dashboardKeys.acceptOrderLineChart('365d'),
    ];
    const untouched: QueryKey[] = [
      caseKeys.grant('F1'),
      orderKeys.requiredFields('P1'),
      notificationKeys.unread,
      partnerKeys.list({ tab: 'mine', pageNum: 1, pageSize: 100 }),
      storageKeys.usage,
    ];
    for (const key of [...work, ...untouched]) qc.setQueryData(key, { seeded: true });

    await invalidateWork(qc);
    for (const key of work) expect(qc.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true);
    for (const key of untouched) expect(qc.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(false);
  });
});
