import type { z } from 'zod';
import type { CaseDetail, CaseFile, CaseListQuery, CaseSummary, DownloadGrant, ExportInfo } from '@portal/contracts';

export type { CaseDetail, CaseFile, CaseSummary };
/** The list request as sent (defaults filled by the caller). */
export type CaseQuery = Partial<CaseListQuery> & { pageNum: number; pageSize: number };
export interface Page<T> {
  total: number;
  list: T[];
}
export type Grant = z.infer<typeof DownloadGrant>;
export type ExportInfo = z.infer<typeof ExportInfo>;
export interface CaseInput {
  name: string;
  patientName: string;
  patientId?: string;
  birthDate?: string;
  scanDate?: string;
  dentistId?: number;
  treatments: string[];
  memo?: string;
}
