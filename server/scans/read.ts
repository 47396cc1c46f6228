import { parse as parseCsv } from 'csv-parse/sync';
import readXlsxFile from 'read-excel-file/node';
import { SCAN_ERRORS, SCAN_MAX_ROWS } from '../../src/protocol/scans';
import { HttpError } from '../http/errors';
import { guessDelimiter } from '../points/bulk';
import { headerColumn } from './parse';

/** A cell as a file gives it. */
export type Cell = string | number | boolean | Date | null;

/** The table of one scan file: its header, then its rows with their 1-based line (the header is line 1 of a sheet). */
export interface Table {
  sheet: string | null;
  header: string[];
  rows: { line: number; cells: Cell[] }[];
}

/** Unpacked XLSX larger than this is refused before it is read (a small zip can unpack to gigabytes); 25,000 rows of 25 stats take about 40 MB. */
const XLSX_MAX_UNPACKED = 128 * 1024 * 1024;

const startsWith = (bytes: Uint8Array, sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);

/**
 * The table of a scan file, told apart by content, not by name: an XLSX is a zip (its first sheet
 * whose header row names a governor id: exports often put "Summary" and "Top 10s" sheets first),
 * JSON Lines starts with `{`, anything else that is text is CSV (comma, semicolon or tab).
 */
export async function readScanFile(bytes: Buffer): Promise<Table> {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return readXlsx(bytes);
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]) || bytes.subarray(0, 8192).includes(0)) throw new HttpError(400, SCAN_ERRORS.notSpreadsheet);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, SCAN_ERRORS.encoding);
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trimStart().startsWith('{')) return readJsonLines(text);
  return readCsv(text);
}

async function readXlsx(bytes: Buffer): Promise<Table> {
  if (unpackedSize(bytes) > XLSX_MAX_UNPACKED) throw new HttpError(400, SCAN_ERRORS.tooLarge);
  let sheets: { sheet: string; data: Cell[][] }[];
  try {
    sheets = (await readXlsxFile(bytes)) as never;
  } catch {
    throw new HttpError(400, SCAN_ERRORS.unreadable);
  }
  for (const { sheet, data } of sheets) {
    // the header is the first row that is not blank
    const at = data.findIndex((row) => row.some((c) => c !== null && String(c).trim() !== ''));
    if (at < 0) continue;
    const header = data[at].map((c) => (c === null ? '' : String(c)));
    if (!header.some((h) => headerColumn(h) === 'governorId')) continue;
    return { sheet, header, rows: data.slice(at + 1).map((cells, i) => ({ line: at + i + 2, cells })) };
  }
  throw new HttpError(400, SCAN_ERRORS.noGovernorId);
}

/** The sum of the uncompressed sizes in a zip's central directory (0 when there is none to read). */
function unpackedSize(bytes: Buffer): number {
  let total = 0;
  for (let at = bytes.indexOf('PK\x01\x02', 0, 'latin1'); at >= 0 && at + 46 <= bytes.length; at = bytes.indexOf('PK\x01\x02', at + 46, 'latin1')) {
    total += bytes.readUInt32LE(at + 24);
  }
  return total;
}

function readCsv(text: string): Table {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(text, { delimiter: guessDelimiter(text), info: true, relax_column_count: true, skip_empty_lines: true, relax_quotes: true }) as never;
  } catch {
    throw new HttpError(400, SCAN_ERRORS.unreadable);
  }
  if (records.length === 0) throw new HttpError(400, SCAN_ERRORS.empty);
  const [first, ...rest] = records;
  if (rest.length > SCAN_MAX_ROWS) throw new HttpError(400, SCAN_ERRORS.tooManyRows);
  return { sheet: null, header: first.record, rows: rest.map(({ record, info }) => ({ line: info.lines, cells: record })) };
}

/** JSON Lines (RokTracker's `.jsonl`): one object per line; the columns are the keys, in the order first seen. */
function readJsonLines(text: string): Table {
  const header: string[] = [];
  const index = new Map<string, number>();
  const objects: { line: number; value: Record<string, unknown> }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new HttpError(400, `${SCAN_ERRORS.badJsonLine} (line ${i + 1})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, `${SCAN_ERRORS.badJsonLine} (line ${i + 1})`);
    if (objects.length >= SCAN_MAX_ROWS) throw new HttpError(400, SCAN_ERRORS.tooManyRows);
    for (const key of Object.keys(value)) {
      if (!index.has(key)) {
        index.set(key, header.length);
        header.push(key);
      }
    }
    objects.push({ line: i + 1, value: value as Record<string, unknown> });
  }
  const cell = (v: unknown): Cell => (v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : JSON.stringify(v));
  return { sheet: null, header, rows: objects.map(({ line, value }) => ({ line, cells: header.map((key) => cell(value[key])) })) };
}
