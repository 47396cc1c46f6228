import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportFormat } from '../../src/protocol/exports';
import { DEFAULT_LOCALE, isLocale, RTL_LOCALES, type Locale } from '../../src/protocol/locales';
import { fill } from '../../src/protocol/texts';
import { EXPORT_TITLES, type ExportTitle } from '../exports/titles';
import { xlsxStream } from '../exports/xlsx';
import { csvLine, type CsvValue } from '../files/csv';

export { csvCell, csvLine, csvTime, type CsvValue } from '../files/csv';

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
  return download(reply, filename, 'text/csv; charset=utf-8', Readable.from(lines()));
}

function download(reply: FastifyReply, filename: string, type: string, body: Readable): FastifyReply {
  return reply.code(200).header('content-type', type).header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'no-store').send(body);
}

/** The language of an export: `lang` when the request gives one, else the account's own, else English. */
export function exportLocale(request: FastifyRequest, lang: Locale | undefined): Locale {
  if (lang) return lang;
  const own = request.auth?.user.locale;
  return isLocale(own) ? own : DEFAULT_LOCALE;
}

/** A column: its title (`change` of a title is "Power: change" in the reader's words) and how a row fills it. */
export type Column<T> = { title: ExportTitle | { change: ExportTitle }; value: (row: T) => CsvValue };

/** The titles of `columns` in `locale`, as the pages show them. */
export function titlesOf<T>(columns: readonly Column<T>[], locale: Locale): string[] {
  const titles: Record<ExportTitle, string> = EXPORT_TITLES[locale];
  return columns.map(({ title }) => (typeof title === 'string' ? titles[title] : fill(titles.change, { title: titles[title.change] })));
}

/**
 * Sends a list as CSV or XLSX (`name` is the file's name without its extension), the columns titled
 * in the reader's language, streamed a chunk at a time either way. An Arabic workbook reads right to left.
 */
export function sendTable<T>(reply: FastifyReply, format: ExportFormat, name: string, locale: Locale, columns: readonly Column<T>[], chunks: AsyncIterable<T[]>): FastifyReply {
  const header = titlesOf(columns, locale);
  const toRow = (row: T) => columns.map((c) => c.value(row));
  if (format === 'csv') return sendCsv(reply, `${name}.csv`, header, chunks, toRow);
  const body = xlsxStream({ sheet: name, rightToLeft: RTL_LOCALES.includes(locale) }, header, chunks, toRow);
  return download(reply, `${name}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body);
}
