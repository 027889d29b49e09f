import type {
  CaseDetail,
  ReportContent,
  ReportDetail,
  ReportSnapshot,
  ReportSummary,
  ReportView,
  SnapshotView,
} from '@portal/contracts';
import { http, postForm, type Download } from '../../../lib/http';

export const listReports = (caseCode: string) => http.post<{ list: ReportSummary[] }>('report/list', { caseCode });
export const createReport = (caseCode: string) => http.write<ReportDetail>('report/create', { caseCode });
export const reportDetail = (reportCode: string) =>
  http.post<ReportDetail>('report/detail', { reportCode }, { silent: true });
/** Autosave: the designer shows what failed next to the form, so no toast. */
export const saveReport = (reportCode: string, content: ReportContent) =>
  http.write<ReportSummary>('report/save', { reportCode, content }, { silent: true });
export const publishReport = (reportCode: string) =>
  http.write<ReportDetail>('report/publish', { reportCode }, { silent: true });
export const deleteReport = (reportCode: string) => http.write<null>('report/delete', { reportCode });
export const reportView = (reportCode: string, version?: number) =>
  http.post<ReportView>('report/view', { reportCode, version }, { silent: true });
export const reportPdf = (reportCode: string, version?: number) =>
  http.post<Download>('report/pdf', { reportCode, version });
export const reportImage = (reportCode: string, source: 'file' | 'snapshot', code: string) =>
  http.post<Download>('report/image', { reportCode, source, code }, { silent: true });
export const deleteSnapshot = (reportCode: string, snapshotCode: string) =>
  http.write<null>('report/snapshot/delete', { reportCode, snapshotCode });

export function addSnapshot(reportCode: string, view: SnapshotView, png: Blob) {
  const form = new FormData();
  form.append('reportCode', reportCode);
  form.append('view', view);
  form.append('file', png, `${view}.png`);
  return postForm<ReportSnapshot>('report/snapshot', form);
}

/** The case the report is about (its scans and pictures). */
export const reportCase = (caseCode: string) => http.post<CaseDetail>('case/detail', { caseCode });
