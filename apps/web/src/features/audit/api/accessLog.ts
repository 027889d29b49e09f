import type { z } from 'zod';
import type { AccessAction, AccessLog, AccessLogEntry as Entry, AccessVia } from '@portal/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http, type Download } from '../../../lib/http';

export type AccessLogEntry = z.infer<typeof Entry>;
export const ACCESS_LOG_PAGE_SIZE = 20;

/** What the administrator narrowed the log to. */
export interface AccessLogFilter {
  dateFrom?: string;
  dateTo?: string;
  action?: AccessAction;
  via?: AccessVia;
  caseCode?: string;
  /** A member picked from the list (their code, and the name to show on the filter). */
  user?: { code: string; name: string };
  app?: { code: string; name: string };
}

function body(f: AccessLogFilter) {
  return {
    dateFrom: f.dateFrom,
    dateTo: f.dateTo,
    action: f.action,
    via: f.via,
    caseCode: f.caseCode || undefined,
    userCode: f.user?.code,
    appCode: f.app?.code,
  };
}

export const accessLogKeys = {
  all: ['audit', 'accessLog'] as const,
  page: (f: AccessLogFilter, pageNum: number) => [...accessLogKeys.all, body(f), pageNum] as const,
};

/** A page of the organization's patient-data access log, newest first. */
export const accessLogQuery = (f: AccessLogFilter, pageNum: number) =>
  queryOptions({
    queryKey: accessLogKeys.page(f, pageNum),
    queryFn: () =>
      http.post<z.infer<typeof AccessLog>>('audit/accessLog', { ...body(f), pageNum, pageSize: ACCESS_LOG_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

/** The filtered log as a CSV file. */
export const exportAccessLog = (f: AccessLogFilter) => http.post<Download>('audit/accessLog/export', body(f));
