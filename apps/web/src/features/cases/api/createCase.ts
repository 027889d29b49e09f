import { http } from '../../../lib/http';
import type { CaseDetail, CaseInput } from './types';

export const createCase = (body: CaseInput) => http.write<CaseDetail>('case/create', body);
