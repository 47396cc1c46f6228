import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

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

/**
 * Sends a CSV download made of a header line and chunks of rows: UTF-8 with a byte order mark (so
 * spreadsheet programs read names in any script right), streamed so 100,000 rows never sit in memory
 * as one string.
 */
export function sendCsv<T>(reply: FastifyReply, filename: string, header: readonly string[], chunks: AsyncIterable<T[]>, toRow: (row: T) => CsvValue[]): FastifyReply {
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + csvLine(header);
    for await (const chunk of chunks) yield chunk.map((row) => csvLine(toRow(row))).join('');
  }
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
