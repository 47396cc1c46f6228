import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

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
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
