import crypto from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse as csvParser } from 'csv-parse';
import { HTTP_ERRORS } from '../../src/protocol/http';
import { POINTS_ERRORS } from '../../src/protocol/points';

import type { Cell, RawRow } from './bulk';
import { ZipTooLargeError, type InflateLimits } from './unzip';
import { XlsxWorkbook } from '../files/xlsx';
import { Invalid } from '../errors';

/**
 * Reading a bulk-award file whole or not at all: its rows, or a 400. What the rows mean is
 * checkRows' business (bulk.ts); this is only bytes to rows, with bounds on the work it takes.
 */

/**
 * What an XLSX may inflate to, counted as it inflates (the sizes its zip directory states are never
 * trusted). 10,000 rows of governor id, amount and a 200-character reason are about 3.3 MB of XML;
 * 16 MB leaves about five times that room, and a bomb is stopped there, not at its gigabytes (the
 * largest workbook that fits, ~1.7 MB zipped, is read in a few seconds without holding up the loop).
 */
/** An uploaded file's SHA-256 (hex): how a scan or a bulk award file already seen is known again. */
export const fileSha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

export const XLSX_LIMITS: InflateLimits = { maxTotalBytes: 16 * 1024 * 1024, maxEntries: 1000 };

/** CSV is handed to the parser this many bytes at a time, with a turn of the event loop between. */
const CSV_CHUNK = 64 * 1024;

const startsWith = (bytes: Uint8Array, sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);

/** The rows of a CSV or XLSX file, told apart by content (an XLSX is a zip), not by name. */
export async function readRows(bytes: Buffer): Promise<RawRow[]> {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return readXlsx(bytes);
  // an old binary .xls, or anything else that is not text
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]) || bytes.subarray(0, 8192).includes(0)) throw new Invalid(POINTS_ERRORS.bulkType);
  return readCsv(bytes);
}

/** The texts a reader refuses a file with (bulk awards and scans each have their own). */
export interface FileTexts {
  tooLarge: string;
  unreadable: string;
  encoding: string;
}

const BULK_TEXTS: FileTexts = { tooLarge: POINTS_ERRORS.bulkTooLarge, unreadable: POINTS_ERRORS.bulkUnreadable, encoding: POINTS_ERRORS.bulkEncoding };

/** The first sheet of an XLSX, read as a stream (server/files/xlsx.ts); `progress` hears the bytes inflated so far, for tests. */
export async function readXlsx(bytes: Buffer, progress?: (inflatedBytes: number) => void): Promise<RawRow[]> {
  let rows: Cell[][];
  try {
    const workbook = await XlsxWorkbook.open(bytes, XLSX_LIMITS, progress);
    if (workbook.sheets.length === 0) throw new Error('A workbook without a sheet.');
    // a date cell comes as a Date, as it always has (the type leaves it out)
    rows = (await workbook.rows(workbook.sheets[0])) as Cell[][];
  } catch (error) {
    throw new Invalid(error instanceof ZipTooLargeError ? HTTP_ERRORS.unpackedTooLarge : POINTS_ERRORS.bulkUnreadable);
  }
  return rows.map((cells, index) => ({ line: index + 1, cells }));
}

/**
 * A CSV in UTF-8 (a BOM is dropped; anything else that is not UTF-8 is refused, not guessed), parsed
 * by csv-parse's stream a chunk at a time with a turn of the event loop after each, so a 2 MB file
 * never holds up the bids of a live auction.
 */
export async function readCsv(bytes: Buffer, texts: FileTexts = BULK_TEXTS): Promise<RawRow[]> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Invalid(texts.encoding);
  }
  // bytes, not text, go to the parser: a chunk may end inside a character, which csv-parse joins up
  const body = text.startsWith('\uFEFF') ? bytes.subarray(3) : bytes;
  const parser = csvParser({ delimiter: guessDelimiter(text.replace(/^\uFEFF/, '')), info: true, relax_column_count: true, skip_empty_lines: true, relax_quotes: true });
  const rows: RawRow[] = [];
  let failed = false;
  parser.on('readable', () => {
    let found: { record: string[]; info: { lines: number } } | null;
    while ((found = parser.read() as typeof found) !== null) rows.push({ line: found.info.lines, cells: found.record });
  });
  const ended = new Promise<void>((resolve) => {
    parser.once('end', resolve);
    parser.once('error', () => {
      failed = true;
      resolve();
    });
  });
  for (let at = 0; at < body.length && !failed; at += CSV_CHUNK) {
    parser.write(body.subarray(at, at + CSV_CHUNK));
    await nextTurn();
  }
  if (!failed) parser.end();
  await ended;
  if (failed) throw new Invalid(texts.unreadable);
  return rows;
}

/** Comma, semicolon (spreadsheets in many European languages) or tab: whichever the first line has most of, outside quotes. */
function guessDelimiter(text: string): string {
  const first = text.slice(0, CSV_CHUNK).split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of first) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c in counts) counts[c] += 1;
  }
  return Object.entries(counts).reduce((best, entry) => (entry[1] > best[1] ? entry : best), [',', 0])[0];
}
