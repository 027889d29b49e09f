import type { z } from 'zod';
import { dateInTimeZone, type OrderSummary } from '@portal/contracts';
import { t } from '../../platform/i18n.js';
import { csvFile } from '../../platform/csv.js';

type Summary = z.infer<typeof OrderSummary>;

/** A filtered list is exported in one request; beyond this the user narrows the filter. */
export const ORDER_EXPORT_MAX_ROWS = 50_000;

const COLUMNS = [
  'orderCode',
  'status',
  'orderType',
  'caseName',
  'patientName',
  'clinic',
  'lab',
  'workTypes',
  'requestedDeliveryDate',
  'shipDate',
  'trackingNumber',
  'estimatedDeliveryDate',
  'createdAt',
] as const;

/** Who reads the export: their language, and the timezone whose days the dates are. */
export interface ExportReader {
  lang: string;
  timeZone: string;
}

function cells(o: Summary, { lang, timeZone }: ExportReader): string[] {
  const label = (key: string, fallback: string) => {
    const text = t(lang, key);
    return text === key.split(':').pop() ? fallback : text;
  };
  return [
    o.orderCode,
    label(`export:status.${o.status}`, o.status),
    label(`export:orderType.${o.orderType}`, o.orderType),
    o.caseName,
    o.patientName ?? '',
    o.clinic.name,
    o.lab.name,
    o.workTypes.map((w) => t(lang, `treatment.${w}`)).join(', '),
    o.requestedDeliveryDate ?? '',
    o.shipDate ?? '',
    o.trackingNumber ?? '',
    o.estimatedDeliveryDate ?? '',
    dateInTimeZone(new Date(o.createdAt), timeZone),
  ];
}

const header = (lang: string) => COLUMNS.map((c) => t(lang, `export:column.${c}`));

export function ordersCsv(orders: Summary[], reader: ExportReader): Buffer {
  return csvFile([header(reader.lang), ...orders.map((o) => cells(o, reader))]);
}

export async function ordersXlsx(orders: Summary[], reader: ExportReader): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs'); // loaded on the first export, not at start-up
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet(t(reader.lang, 'export:sheet'));
  sheet.addRow(header(reader.lang)).font = { bold: true };
  for (const o of orders) sheet.addRow(cells(o, reader));
  sheet.columns.forEach((col) => {
    col.width = 18;
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await wb.xlsx.writeBuffer());
}
