// CSV text, as every export writes it: the routes send it (server/http/csv.ts), the export archive writes it to its files.

export type CsvValue = string | number | null | undefined;

/**
 * One CSV cell. Text that a spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) gets a leading single quote; then RFC 4180 quoting (a cell with a quote, a comma,
 * a semicolon — the separator of many European spreadsheets — or a line break, or with spaces around
 * it, is quoted and its quotes doubled). Numbers the server itself writes (amounts, balances, ids)
 * stay numbers: -500 is not a formula.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[",;\r\n]/.test(text) || /^\s|\s$/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** One record, CRLF-terminated (RFC 4180). */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}

/** An ISO 8601 UTC time for a CSV cell. */
export function csvTime(ms: number): string {
  return new Date(ms).toISOString();
}
