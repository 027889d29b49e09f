import { http } from '../../../lib/http';
import type { CaseDetail, CaseInput } from './types';

export const createCase = (body: CaseInput) => http.post<CaseDetail>('case/create', body);
