import {
  ACCESS_LOG_EXPORT_MAX_ROWS,
  type AccessLogEntry,
  type AccessLogExportBody,
  type AccessLogQuery,
} from '@portal/contracts';
import type { z } from 'zod';
import type { Db } from '../../platform/db.js';
import type { AuthContext } from '../../platform/auth.js';
import { csvFile } from '../../platform/csv.js';
import { t } from '../../platform/i18n.js';
import { accessLogRepository, type AccessFilter, type AccessRow } from './access-log.repository.js';

type Entry = z.infer<typeof AccessLogEntry>;

function toEntry(r: AccessRow): Entry {
  return {
    id: r.id,
    at: r.at,
    action: r.action,
    via: r.via,
    userCode: r.user_code,
    userName: r.user_name,
    account: r.account,
    organizationName: r.organization_name,
    appCode: r.app_code,
    appName: r.app_name,
    caseCode: r.case_code,
    orderCode: r.order_code,
    fileCode: r.file_code,
    reportCode: r.report_code,
    address: r.address,
    userAgent: r.user_agent,
  };
}

const CSV_COLUMNS = [
  'time',
  'action',
  'via',
  'member',
  'account',
  'organization',
  'app',
  'case',
  'order',
  'file',
  'report',
  'address',
  'userAgent',
] as const;

/** The organization's administrators read and export the patient-data access log (docs/product-decisions.md). */
export class AuditService {
  constructor(private readonly db: Db) {}

  async list(auth: AuthContext, q: z.infer<typeof AccessLogQuery>, timezone: string) {
    const { pageNum, pageSize, ...filter } = q;
    const { total, rows } = await accessLogRepository.page(
      this.db,
      auth.organizationId,
      { ...filter, timezone },
      pageSize,
      (pageNum - 1) * pageSize,
    );
    return { total, list: rows.map(toEntry) };
  }

  /**
   * The filtered log as CSV in the reader's language, newest first, at most ACCESS_LOG_EXPORT_MAX_ROWS entries:
   * every cell is kept as text by spreadsheet apps (no formulas), times are UTC instants as stored.
   */
  async exportCsv(auth: AuthContext, body: z.infer<typeof AccessLogExportBody>, timezone: string) {
    const lang = auth.user.language;
    const filter: AccessFilter = { ...body, timezone };
    const rows = await accessLogRepository.newest(this.db, auth.organizationId, filter, ACCESS_LOG_EXPORT_MAX_ROWS);
    const header = CSV_COLUMNS.map((c) => t(lang, `audit:column.${c}`));
    const csv = csvFile([
      header,
      ...rows.map((r) => [
        r.at,
        t(lang, `audit:action.${r.action}`),
        t(lang, `audit:via.${r.via}`),
        r.user_name ?? '',
        r.account ?? '',
        r.organization_name ?? '',
        r.app_name ?? '',
        r.case_code ?? '',
        r.order_code ?? '',
        r.file_code ?? '',
        r.report_code ?? '',
        r.address ?? '',
        r.user_agent ?? '',
      ]),
    ]);
    return { name: `${t(lang, 'audit:fileName')}.csv`, body: csv };
  }
}
