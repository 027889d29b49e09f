import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { CaseDetail } from './types';

export const caseDetail = (caseCode: string) => http.post<CaseDetail>('case/detail', { caseCode });
export const caseDetailQuery = (caseCode: string) =>
  queryOptions({ queryKey: ['cases', 'detail', caseCode], queryFn: () => caseDetail(caseCode) });
