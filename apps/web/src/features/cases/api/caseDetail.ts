import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { LIVE_DETAIL } from '../../../lib/freshness';
import { caseKeys } from './keys';
import type { CaseDetail } from './types';

export const caseDetail = (caseCode: string) => http.post<CaseDetail>('case/detail', { caseCode });
/** Polled while open: its status follows its order, which the laboratory moves. */
export const caseDetailQuery = (caseCode: string) =>
  queryOptions({ queryKey: caseKeys.detail(caseCode), queryFn: () => caseDetail(caseCode), ...LIVE_DETAIL });
