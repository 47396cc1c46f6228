import { SCAN_ERRORS, SCAN_MAX_ROWS, STATS, type ScanIssue, type ScanKind, type Stat } from '../../src/protocol/scans';
import { HEADER_ALIASES, killpointsFromTiers, SCAN_ROW_TEXTS, SEED_COLUMNS, SENTINELS, type Column } from '../../src/protocol/scan-file';

import type { Cell, Table } from './read';
import { Invalid } from '../errors';

/**
 * Understanding a scan file's table (pure: no database). Columns are found by header name, never by
 * position; a stat whose column is absent is null ("not scanned"), never 0.
 */

const squash = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');
const ALIAS_TO_COLUMN = new Map<string, Column>(
  (Object.entries(HEADER_ALIASES) as [Column, readonly string[]][]).flatMap(([column, aliases]) => aliases.map((alias) => [alias, column] as const)),
);

/** The column a header names, or null for one this importer does not know. */
export function headerColumn(header: string): Column | null {
  return ALIAS_TO_COLUMN.get(squash(header)) ?? null;
}

export type Stats = Record<Stat, number | null>;

export interface ParsedRow {
  line: number;
  governorId: number;
  name: string;
  alliance: string;
  kingdom: number | null;
  stats: Stats;
}

export interface ParsedScan {
  kind: ScanKind;
  columns: { found: { header: string; stat: string }[]; ignored: string[] };
  /** The usable rows, in file order. */
  rows: ParsedRow[];
  /** Every data row of the file (usable or not). */
  total: number;
  errors: ScanIssue[];
  warnings: ScanIssue[];
}

type NumberCell = { value: number | null; problem: 'sentinel' | 'not-a-number' | null; raw?: number };

/** A whole number from a cell: XLSX numbers, or text with thousands separators ("1,234,567", "1.234.567", "1 234 567"). */
export function wholeNumber(cell: Cell | undefined): NumberCell {
  if (cell === null || cell === undefined) return { value: null, problem: null };
  let n: number;
  if (typeof cell === 'number') n = cell;
  else if (typeof cell === 'string') {
    const text = cell.trim();
    if (text === '' || text === '-' || /^n\/?a$/i.test(text)) return { value: null, problem: null };
    const plain = text.replace(/[\s\u00a0\u202f'’]/g, '');
    if (/^-?\d+$/.test(plain)) n = Number(plain);
    else if (/^-?\d{1,3}(,\d{3})+$/.test(plain)) n = Number(plain.replace(/,/g, ''));
    else if (/^-?\d{1,3}(\.\d{3})+$/.test(plain)) n = Number(plain.replace(/\./g, ''));
    else if (/^-?\d+\.0+$/.test(plain)) n = Number(plain);
    else return { value: null, problem: 'not-a-number' };
  } else return { value: null, problem: 'not-a-number' };
  if (!Number.isSafeInteger(n)) return { value: null, problem: 'not-a-number' };
  if (n < 0) return SENTINELS[n] ? { value: null, problem: 'sentinel', raw: n } : { value: null, problem: 'not-a-number' };
  return { value: n, problem: null };
}

const textOf = (cell: Cell | undefined) => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell).trim());

/**
 * The rows of a scan: usable ones, rows it cannot use (no valid governor id, the same id twice) and
 * warnings (sentinels, values that are not numbers, kill points that do not match the tiers).
 * Comparisons with earlier scans are made by the caller, which has the database.
 */
export function parseTable(table: Table): ParsedScan {
  const index = new Map<Column, number>();
  const found: { header: string; stat: string }[] = [];
  const ignored: string[] = [];
  table.header.forEach((header, i) => {
    const column = headerColumn(header);
    if (column && !index.has(column)) {
      index.set(column, i);
      found.push({ header: header.trim(), stat: column });
    } else if (header.trim() !== '') ignored.push(header.trim());
  });
  if (!index.has('governorId')) throw new Invalid(SCAN_ERRORS.noGovernorId);

  const data = table.rows.filter((r) => r.cells.some((c) => textOf(c) !== ''));
  if (data.length === 0) throw new Invalid(SCAN_ERRORS.empty);
  if (data.length > SCAN_MAX_ROWS) throw new Invalid(SCAN_ERRORS.tooManyRows);

  const headerOf = (column: Column) => table.header[index.get(column) as number].trim();
  const statColumns = STATS.filter((s) => index.has(s));
  const rows: ParsedRow[] = [];
  const errors: ScanIssue[] = [];
  const warnings: ScanIssue[] = [];
  const firstRow = new Map<number, number>();
  const at = (cells: Cell[], column: Column) => (index.has(column) ? cells[index.get(column) as number] : undefined);

  for (const { line, cells } of data) {
    const id = wholeNumber(at(cells, 'governorId'));
    if (id.value === null || id.value < 1) {
      errors.push({ row: line, text: SCAN_ROW_TEXTS.badGovernorId });
      continue;
    }
    const governorId = id.value;
    const seen = firstRow.get(governorId);
    if (seen !== undefined) {
      errors.push({ row: line, governorId, text: SCAN_ROW_TEXTS.duplicate(seen) });
      continue;
    }
    firstRow.set(governorId, line);
    const stats = Object.fromEntries(STATS.map((s) => [s, null])) as Stats;
    for (const stat of statColumns) {
      const parsed = wholeNumber(at(cells, stat));
      stats[stat] = parsed.value;
      if (parsed.problem === 'sentinel') warnings.push({ row: line, governorId, text: SCAN_ROW_TEXTS.sentinel(headerOf(stat), parsed.raw as number) });
      else if (parsed.problem === 'not-a-number') warnings.push({ row: line, governorId, text: SCAN_ROW_TEXTS.notNumber(headerOf(stat)) });
    }
    const { t1Kills, t2Kills, t3Kills, t4Kills, t5Kills, killpoints } = stats;
    if (killpoints !== null && t1Kills !== null && t2Kills !== null && t3Kills !== null && t4Kills !== null && t5Kills !== null) {
      const expected = killpointsFromTiers({ t1Kills, t2Kills, t3Kills, t4Kills, t5Kills });
      if (expected !== killpoints) warnings.push({ row: line, governorId, text: SCAN_ROW_TEXTS.killpointsMismatch(expected, killpoints) });
    }
    const kingdom = wholeNumber(at(cells, 'kingdom')).value;
    rows.push({ line, governorId, name: textOf(at(cells, 'name')).slice(0, 64), alliance: textOf(at(cells, 'alliance')).slice(0, 64), kingdom, stats });
  }
  const kind: ScanKind = [...index.keys()].every((c) => SEED_COLUMNS.includes(c)) ? 'seed' : 'kingdom';
  return { kind, columns: { found, ignored }, rows, total: data.length, errors, warnings };
}

/** Where a scan's time came from, as the preview says it (src/protocol/scans.ts, `TAKEN_AT_FROM`). */
export type FoundTakenAt = { takenAt: number; from: 'file-name' | 'sheet' | 'workbook' };

/**
 * When a scan was taken, read from the file, first found wins: a date in its file name (RokTracker:
 * `TOP300-2025-12-29-3328-[gs1dp0ow].csv`, midnight UTC of that day, or with the time when the name
 * has one: `2025-12-29 21-30`, `2025-12-29T21:30`) or an epoch-seconds timestamp in it
 * (`kingdom_scan_703413897184673792_1768226060_7495.xlsx`); a date-named sheet (RokTracker names the
 * sheet by the day); the workbook's creation time. Null when none says; the caller then takes the upload's time.
 */
export function takenAtFromFile(fileName: string, sheet: string | null, created: number | null): FoundTakenAt | null {
  const fromName = dateIn(fileName) ?? epochSecondsIn(fileName);
  if (fromName !== null) return { takenAt: fromName, from: 'file-name' };
  const fromSheet = sheet ? dateIn(sheet) : null;
  if (fromSheet !== null) return { takenAt: fromSheet, from: 'sheet' };
  if (created !== null) return { takenAt: created, from: 'workbook' };
  return null;
}

/** Epoch seconds of 2017-01-01 and 2100-01-01: a timestamp outside them is some other number (a snowflake id, a count). */
const FIRST_SECOND = Date.UTC(2017, 0, 1) / 1000;
const LAST_SECOND = Date.UTC(2100, 0, 1) / 1000;

/**
 * An epoch-seconds timestamp in a name: a run of exactly ten digits (not part of a longer one, so
 * an 18-digit snowflake id beside it never counts, nor any ten digits inside it) that falls in 2017..2100.
 * The first such run wins.
 */
function epochSecondsIn(text: string): number | null {
  for (const m of text.matchAll(/(?<!\d)\d{10}(?!\d)/g)) {
    const seconds = Number(m[0]);
    if (seconds >= FIRST_SECOND && seconds <= LAST_SECOND) return seconds * 1000;
  }
  return null;
}

function dateIn(text: string): number | null {
  const m = /(?<!\d)(20\d{2})[-_.](\d{2})[-_.](\d{2})(?:[T _-](\d{2})[-:h](\d{2}))?/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0'].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  // a day that does not exist (2025-02-30) rolls over: refuse it
  return new Date(ms).getUTCDate() === day ? ms : null;
}
