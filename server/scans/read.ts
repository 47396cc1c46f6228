import { MAX_TAKEN_AT, MIN_TAKEN_AT, SCAN_ERRORS, SCAN_MAX_ROWS, SCAN_TEMPLATES } from '../../src/protocol/scans';
import { fill } from '../../src/protocol/texts';
import { hasNul, HTTP_ERRORS } from '../../src/protocol/http';

import { fileSha256, readCsv, type FileTexts } from '../points/bulk-file';
import { ZipTooLargeError, type InflateLimits, type ZipEntry } from '../points/unzip';
import { XlsxWorkbook } from '../files/xlsx';
import { headerColumn, parseTable, type ParsedScan } from './parse';
import { Invalid } from '../errors';

/** A cell as a file gives it. */
export type Cell = string | number | boolean | Date | null;

/** The table of one scan file: its header, then its rows with their 1-based line (the header is line 1 of a sheet). */
export interface Table {
  sheet: string | null;
  header: string[];
  rows: { line: number; cells: Cell[] }[];
  /** When the workbook says it was created (an XLSX's `docProps/core.xml`, dcterms:created), epoch ms; null for other files or when it does not say. */
  created: number | null;
}

/**
 * What a scan's XLSX may inflate to, counted as it inflates (the zip directory's sizes are never
 * trusted): 25,000 governors of 25 stats are about 40 MB of sheet XML.
 */
const XLSX_LIMITS: InflateLimits = { maxTotalBytes: 64 * 1024 * 1024, maxEntries: 1000 };
const TEXTS: FileTexts = { tooLarge: SCAN_ERRORS.tooLarge, unreadable: SCAN_ERRORS.unreadable, encoding: SCAN_ERRORS.encoding };

/** A scan file read and understood, all that a preview needs of it: read in a worker thread (server/files/readers.ts). */
export interface ScanFile {
  sheet: string | null;
  /** The workbook's creation time (Table.created). */
  created: number | null;
  /** The file's SHA-256 (hex): the same file twice is known by it. */
  sha256: string;
  parsed: ParsedScan;
}

/** A scan file's table, refused with a NUL in it, parsed (pure, no database): the work of reading a file, done in one go off the main thread. */
export async function scanFileOf(bytes: Buffer): Promise<ScanFile> {
  const table = await readScanFile(bytes);
  refuseNul(table);
  return { sheet: table.sheet, created: table.created, sha256: fileSha256(bytes), parsed: parseTable(table) };
}

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
  return { sheet: null, header: first.cells.map((c) => (c === null ? '' : String(c))), rows: rest, created: null };
}

/**
 * The first sheet whose header row names a governor id, read as a stream (server/files/xlsx.ts): the
 * sheets before it are read and dropped one at a time, the ones after it never inflated.
 */
async function readXlsx(bytes: Buffer): Promise<Table> {
  try {
    const workbook = await XlsxWorkbook.open(bytes, XLSX_LIMITS);
    const core = await workbook.entry('docProps/core.xml');
    const created = core ? workbookCreated([{ name: 'docProps/core.xml', data: core }]) : null;
    for (const sheet of workbook.sheets) {
      const data = await workbook.rows(sheet);
      // the header is the first row that is not blank
      const at = data.findIndex((row) => row.some((c) => c !== null && String(c).trim() !== ''));
      if (at < 0) continue;
      const header = data[at].map((c) => (c === null ? '' : String(c)));
      if (!header.some((h) => headerColumn(h) === 'governorId')) continue;
      return { sheet: sheet.name, header, rows: data.slice(at + 1).map((cells, i) => ({ line: at + i + 2, cells })), created };
    }
  } catch (error) {
    throw new Invalid(error instanceof ZipTooLargeError ? HTTP_ERRORS.unpackedTooLarge : TEXTS.unreadable);
  }
  throw new Invalid(SCAN_ERRORS.noGovernorId);
}

/**
 * When a workbook was created, from `docProps/core.xml` (`<dcterms:created xsi:type="dcterms:W3CDTF">2026-01-12T13:54:20Z</dcterms:created>`):
 * Excel, LibreOffice and the scanners' writers all fill it in. Null when it is absent, not a W3C date-time, or outside 2017..2100.
 */
export function workbookCreated(entries: readonly ZipEntry[]): number | null {
  const core = entries.find((e) => e.name === 'docProps/core.xml');
  if (!core) return null;
  const m = /<dcterms:created\b[^>]*>\s*([^<]{1,64}?)\s*<\/dcterms:created>/.exec(core.data.toString('utf8'));
  if (!m || !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(m[1])) return null;
  // a date-time without a zone is read as UTC (Date.parse would read it as the server's local time)
  const text = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(m[1]) ? `${m[1]}Z` : m[1];
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms >= MIN_TAKEN_AT && ms <= MAX_TAKEN_AT ? ms : null;
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
  return { sheet: null, header, rows: objects.map(({ line, value }) => ({ line, cells: header.map((key) => cell(value[key])) })), created: null };
}

/**
 * Refuses a table with a NUL in any of its texts (header, sheet name, cells), naming the line: no
 * database column may hold one (PostgreSQL refuses it), so the preview says so instead of the apply
 * failing.
 */
export function refuseNul(table: Table): void {
  const nul = (value: Cell) => typeof value === 'string' && hasNul(value);
  if ((table.sheet !== null && hasNul(table.sheet)) || table.header.some(nul)) throw new Invalid(fill(SCAN_TEMPLATES.nulAt, { line: 1 }));
  const row = table.rows.find((r) => r.cells.some(nul));
  if (row) throw new Invalid(fill(SCAN_TEMPLATES.nulAt, { line: row.line }));
}
