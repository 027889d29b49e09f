import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { caseKeys } from './keys';
import type { CaseSummary, Page } from './types';

export interface RecycleQuery {
  pageNum: number;
  pageSize: number;
}
export const listRecycleBin = (q: RecycleQuery) => http.post<Page<CaseSummary>>('case/recycleBin', q);
export const listRecycleBinQuery = (q: RecycleQuery) =>
  queryOptions({
    queryKey: caseKeys.recycle(q),
    queryFn: () => listRecycleBin(q),
    placeholderData: keepPreviousData,
  });
