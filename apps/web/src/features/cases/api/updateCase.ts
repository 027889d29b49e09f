import { http } from '../../../lib/http';
import type { CaseDetail, CaseInput } from './types';

export const updateCase = (body: CaseInput & { caseCode: string }) => http.write<CaseDetail>('case/update', body);
