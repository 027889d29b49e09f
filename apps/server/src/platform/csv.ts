/** Spreadsheet apps run cells that start with these as formulas; a leading quote keeps them text. */
export function csvCell(value: string) {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV file of rows of text, every cell safe from spreadsheet formulas, with a byte order mark for spreadsheet apps. */
export function csvFile(rows: string[][]): Buffer {
  return Buffer.from(`\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`, 'utf8');
}
