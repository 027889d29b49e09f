import { hasUnsafeText, isCalendarDate } from '@portal/contracts';

export interface CatalogRow {
  row: number;
  model: string;
  serialNumber: string;
  activationCode: string;
  warrantyDate: string | null;
  limitType: number;
}
export interface CatalogError {
  row: number;
  reason: string;
}

const COLUMNS = ['model', 'serialNumber', 'activationCode', 'warrantyDate', 'limitType'] as const;
const SERIAL = /^[A-Za-z0-9-]{4,40}$/;

/** A spreadsheet cell as text: plain values, links ({ text }), formulas ({ result }) and rich text runs. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText))
      return v.richText
        .map((run: { text?: unknown }) => cellText(run.text))
        .join('')
        .trim();
    if ('text' in v) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
    return '';
  }
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v).trim() : '';
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === ';') {
      row.push(field.trim());
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field.trim());
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) {
    row.push(field.trim());
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f !== ''));
}

/** The file's rows as text: an xlsx workbook's first sheet, or CSV (comma or semicolon). */
export async function readCatalogTable(bytes: Buffer): Promise<string[][]> {
  if (bytes.subarray(0, 4).toString('hex') === '504b0304') {
    const { default: ExcelJS } = await import('exceljs'); // loaded on the first import, not at start-up
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    if (!sheet) return [];
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (r) => {
      const values = (r.values as unknown[]).slice(1);
      rows.push(values.map(cellText));
    });
    return rows;
  }
  return parseCsv(bytes.toString('utf8').replace(/^\uFEFF/, ''));
}

/**
 * Checks every row; the import goes ahead only when none is wrong. Row numbers are the file's
 * (the header is row 1).
 */
export function validateCatalog(table: string[][]): { rows: CatalogRow[]; errors: CatalogError[] } {
  const errors: CatalogError[] = [];
  const header = (table[0] ?? []).map((h) => h.replace(/\s+/g, '').toLowerCase());
  const index = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c.toLowerCase())]));
  for (const required of ['model', 'serialNumber', 'activationCode'] as const) {
    if (index[required] === -1) errors.push({ row: 1, reason: `missing column ${required}` });
  }
  if (errors.length) return { rows: [], errors };
  if (table.length < 2) return { rows: [], errors: [{ row: 1, reason: 'no rows' }] };
  const rows: CatalogRow[] = [];
  const seen = new Map<string, number>();
  table.slice(1).forEach((cells, i) => {
    const row = i + 2;
    const get = (c: (typeof COLUMNS)[number]) => (index[c]! >= 0 ? (cells[index[c]!] ?? '').trim() : '');
    const model = get('model');
    const serialNumber = get('serialNumber');
    const activationCode = get('activationCode');
    const warranty = get('warrantyDate');
    const limit = get('limitType');
    const problems: string[] = [];
    if (!model || model.length > 100 || hasUnsafeText(model))
      problems.push('model is required (at most 100 characters)');
    if (!SERIAL.test(serialNumber)) problems.push('serialNumber must be 4 to 40 letters, digits or dashes');
    else if (seen.has(serialNumber.toUpperCase()))
      problems.push(`serialNumber repeats row ${seen.get(serialNumber.toUpperCase())}`);
    if (activationCode.length < 6 || activationCode.length > 64 || hasUnsafeText(activationCode))
      problems.push('activationCode must be 6 to 64 characters');
    if (warranty && !isCalendarDate(warranty)) problems.push('warrantyDate must be YYYY-MM-DD');
    if (limit && !['1', '2', '3'].includes(limit)) problems.push('limitType must be 1, 2 or 3');
    if (SERIAL.test(serialNumber)) seen.set(serialNumber.toUpperCase(), row);
    if (problems.length) errors.push({ row, reason: problems.join('; ') });
    else
      rows.push({
        row,
        model,
        serialNumber: serialNumber.toUpperCase(),
        activationCode,
        warrantyDate: warranty || null,
        limitType: limit ? Number(limit) : 3,
      });
  });
  return { rows: errors.length ? [] : rows, errors };
}
