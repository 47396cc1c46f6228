import readXlsxFile from 'read-excel-file/node';
import { SCAN_ERRORS, SCAN_MAX_ROWS, SCAN_TEMPLATES } from '../../src/protocol/scans';
import { fill } from '../../src/protocol/texts';

import { honestXlsx, readCsv, type FileTexts } from '../points/bulk-file';
import type { InflateLimits } from '../points/unzip';
import { headerColumn } from './parse';
import { Invalid } from '../errors';

/** A cell as a file gives it. */
export type Cell = string | number | boolean | Date | null;

/** The table of one scan file: its header, then its rows with their 1-based line (the header is line 1 of a sheet). */
export interface Table {
  sheet: string | null;
  header: string[];
  rows: { line: number; cells: Cell[] }[];
}

/**
 * What a scan's XLSX may inflate to, counted as it inflates (the zip directory's sizes are never
 * trusted): 25,000 governors of 25 stats are about 40 MB of sheet XML.
 */
const XLSX_LIMITS: InflateLimits = { maxTotalBytes: 64 * 1024 * 1024, maxEntries: 1000 };
const TEXTS: FileTexts = { tooLarge: SCAN_ERRORS.tooLarge, unreadable: SCAN_ERRORS.unreadable, encoding: SCAN_ERRORS.encoding };

const startsWith = (bytes: Uint8Array, sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);

/**
 * The table of a scan file, told apart by content, not by name: an XLSX is a zip (its first sheet
 * whose header row names a governor id: exports often put "Summary" and "Top 10s" sheets first),
 * JSON Lines starts with `{`, anything else that is text is CSV (comma, semicolon or tab), read a
 * piece at a time so a large file never holds up a live auction.
 */
export async function readScanFile(bytes: Buffer): Promise<Table> {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return readXlsx(bytes);
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]) || bytes.subarray(0, 8192).includes(0)) throw new Invalid(SCAN_ERRORS.notSpreadsheet);
  const head = bytes.subarray(0, 64).toString('utf8').replace(/^\uFEFF/, '');
  if (head.trimStart().startsWith('{')) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new Invalid(SCAN_ERRORS.encoding);
    }
    return readJsonLines(text.replace(/^\uFEFF/, ''));
  }
  const records = await readCsv(bytes, TEXTS);
  if (records.length === 0) throw new Invalid(SCAN_ERRORS.empty);
  const [first, ...rest] = records;
  if (rest.length > SCAN_MAX_ROWS) throw new Invalid(SCAN_ERRORS.tooManyRows);
  return { sheet: null, header: first.cells.map((c) => (c === null ? '' : String(c))), rows: rest };
}

async function readXlsx(bytes: Buffer): Promise<Table> {
  const honest = await honestXlsx(bytes, XLSX_LIMITS, TEXTS);
  let sheets: { sheet: string; data: Cell[][] }[];
  try {
    sheets = (await readXlsxFile(honest)) as never;
  } catch {
    throw new Invalid(SCAN_ERRORS.unreadable);
  }
  for (const { sheet, data } of sheets) {
    // the header is the first row that is not blank
    const at = data.findIndex((row) => row.some((c) => c !== null && String(c).trim() !== ''));
    if (at < 0) continue;
    const header = data[at].map((c) => (c === null ? '' : String(c)));
    if (!header.some((h) => headerColumn(h) === 'governorId')) continue;
    return { sheet, header, rows: data.slice(at + 1).map((cells, i) => ({ line: at + i + 2, cells })) };
  }
  throw new Invalid(SCAN_ERRORS.noGovernorId);
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
      throw new Invalid(fill(SCAN_TEMPLATES.badJsonLineAt, { line: i + 1 }));
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Invalid(fill(SCAN_TEMPLATES.badJsonLineAt, { line: i + 1 }));
    if (objects.length >= SCAN_MAX_ROWS) throw new Invalid(SCAN_ERRORS.tooManyRows);
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
