import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { caseKeys } from './keys';
import type { CaseQuery, CaseSummary, Page } from './types';

export const listCases = (q: CaseQuery) => http.post<Page<CaseSummary>>('case/list', q);
export const listCasesQuery = (q: CaseQuery) =>
  queryOptions({
    queryKey: caseKeys.list(q),
    queryFn: () => listCases(q),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
