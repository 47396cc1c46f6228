import * as z from 'zod/mini';
import { queryInt } from './http';
import { fill } from './texts';

/**
 * Governors and scans on the wire: a governor is a game account
 * keyed by its governor id; a scan is a snapshot of many governors' stats at one time.
 */

/** Every stat a scan may hold, beside the governor id, name, alliance and home kingdom. A stat not scanned is null, never 0. */
export const STATS = [
  'power',
  'killpoints',
  'deads',
  't1Kills',
  't2Kills',
  't3Kills',
  't4Kills',
  't5Kills',
  'totalKills',
  't45Kills',
  'ranged',
  'rssGathered',
  'rssAssistance',
  'helps',
  'acclaim',
  'highestAcclaim',
] as const;
export type Stat = (typeof STATS)[number];

/** Stats that only grow in the game: a lower value than the governor's previous scan is a likely misread. */
export const CUMULATIVE_STATS = ['killpoints', 'deads', 't1Kills', 't2Kills', 't3Kills', 't4Kills', 't5Kills', 'totalKills', 't45Kills', 'helps', 'rssAssistance', 'rssGathered'] as const satisfies readonly Stat[];

/** The kingdom's totals: the sums a dashboard shows, with their change. */
export const TOTAL_STATS = ['power', 'killpoints', 'deads', 't1Kills', 't2Kills', 't3Kills', 't4Kills', 't5Kills', 'helps', 'rssAssistance'] as const satisfies readonly Stat[];


export const SCAN_KINDS = ['kingdom', 'seed'] as const;
export type ScanKind = (typeof SCAN_KINDS)[number];
export const SCAN_SOURCES = ['upload', 'bot'] as const;

/** A scan file may be this large and hold this many governors: a kingdom has 1,000 to 5,000, a whole server's top list 10,000, with room. */
export const SCAN_MAX_BYTES = 16 * 1024 * 1024;
export const SCAN_MAX_ROWS = 25_000;
export const SCAN_TOKEN_TTL_MS = 30 * 60_000;
export const SCANS_PAGE_SIZE = 50;
export const GOVERNORS_PAGE_SIZE = 100;
export const GOVERNORS_MAX_PAGE_SIZE = 500;

export const SCAN_ERRORS = {
  noFile: 'Please choose a scan file: CSV, XLSX or JSON Lines (form field "file").',
  tooLarge: `The file may be at most ${SCAN_MAX_BYTES / (1024 * 1024)} MB.`,
  notSpreadsheet: 'This is not a scan file: send a CSV, an Excel workbook (.xlsx) or a JSON Lines file.',
  unreadable: 'The file could not be read as CSV, XLSX or JSON Lines.',
  encoding: 'The file must be saved as UTF-8.',
  noGovernorId: 'No column names a governor id (a header such as "ID" or "Governor ID"): this does not look like a scan.',
  empty: 'The file has a header but no governors.',
  tooManyRows: `A scan may hold at most ${SCAN_MAX_ROWS.toLocaleString('en')} governors.`,
  badJsonLine: 'A line of the JSON Lines file is not a JSON object.',
  badTakenAt: 'The scan time must be an ISO date-time or epoch milliseconds between 2017 and 2100.',
  tokenRequired: 'Please send the token of the preview to apply.',
  tokenUnknown: 'This preview has expired or does not exist: upload the file again.',
  tokenUsed: 'This preview has already been applied.',
  hasErrors: 'Some rows cannot be used: fix the file, or apply without them (skip invalid rows). Nothing was imported.',
  nothingToApply: 'No row of this file can be used: nothing was imported.',
  unknownScan: 'There is no such scan.',
  unknownGovernor: 'No scan has seen this governor.',
  badPage: 'The page must be a whole number from 1.',
  badPageSize: `The page size must be a whole number from 1 to ${GOVERNORS_MAX_PAGE_SIZE}.`,
  badSort: 'The sort must be a column of the governors table.',
  badOrder: 'The order must be asc or desc.',
  badScanId: 'A scan must be named by its id, a whole number from 1.',
  badGovernorId: 'A governor id is a whole number from 1.',
  badQuery: 'The search text may have at most 64 characters.',
  notYourGovernor: 'You may see the statistics of your own governor only.',
  badGain: 'Sorting by gains (gain=1) needs a stat to sort by and a scan to compare with.',
  badConfirm: 'Say whether to save anyway (confirm: true or false).',
} as const;

/** Scan refusals that name a value (src/protocol/texts.ts: the client reads the values back to translate). */
export const SCAN_TEMPLATES = {
  /** A file already imported (same SHA-256), naming its scan. */
  duplicateFile: 'This file was already imported: it is scan #{scanId} of {takenAt}. Nothing was imported.',
  badJsonLineAt: `${SCAN_ERRORS.badJsonLine} (line {line})`,
  /** A text of the file (a name, an alliance, a header) holds a NUL, which no database column may hold. */
  nulAt: 'Line {line} of the file holds a NUL character (\\u0000), which no name may hold. Nothing was imported.',
  /** PATCH scans/:scanId without confirm, when the new date would make paid automatic-points runs overlap. */
  redateOverlaps: 'At this date, automatic points already paid would overlap: run {runs} of {rules} would count time another run of its rule paid for. Nothing was changed; send confirm: true to change the date anyway.',
} as const;

export const redateOverlapsText = (runIds: number[], ruleNames: string[]) =>
  fill(SCAN_TEMPLATES.redateOverlaps, { runs: runIds.map((id) => `#${id}`).join(', '), rules: ruleNames.map((n) => `"${n}"`).join(', ') });

export const duplicateFileText = (scanId: number, takenAt: string) => fill(SCAN_TEMPLATES.duplicateFile, { scanId, takenAt });


const nullableInt = z.nullable(z.number());
const statShape = Object.fromEntries(STATS.map((s) => [s, nullableInt])) as Record<Stat, typeof nullableInt>;

export const scan = z.object({
  id: z.int(),
  takenAt: z.int(),
  kind: z.enum(SCAN_KINDS),
  rows: z.int(),
  fileName: z.string(),
  source: z.enum(SCAN_SOURCES),
  uploadedBy: z.nullable(z.string()),
  createdAt: z.int(),
});
export type Scan = z.infer<typeof scan>;

export const governorChange = z.object({
  governorId: z.int(),
  name: z.string(),
  alliance: z.string(),
  previousName: z.optional(z.string()),
  previousAlliance: z.optional(z.string()),
});
export type GovernorChange = z.infer<typeof governorChange>;

export const scanIssue = z.object({ row: z.int(), governorId: z.optional(z.int()), text: z.string() });
export type ScanIssue = z.infer<typeof scanIssue>;

/**
 * Where a preview's takenAt came from: a date or an epoch-seconds timestamp in the file name, a
 * date-named sheet, the workbook's creation time (docProps/core.xml), the upload's time, or given
 * by the uploader (with the file, or changed in the preview).
 */
export const TAKEN_AT_FROM = ['file-name', 'sheet', 'workbook', 'upload', 'given'] as const;
export type TakenAtFrom = (typeof TAKEN_AT_FROM)[number];

export const scanPreview = z.object({
  token: z.string(),
  fileName: z.string(),
  sheet: z.nullable(z.string()),
  takenAt: z.int(),
  takenAtFrom: z.enum(TAKEN_AT_FROM),
  kind: z.enum(SCAN_KINDS),
  rows: z.int(),
  valid: z.int(),
  previousScan: z.nullable(scan),
  columns: z.object({ found: z.array(z.object({ header: z.string(), stat: z.string() })), ignored: z.array(z.string()) }),
  governors: z.object({ new: z.array(governorChange), renamed: z.array(governorChange), changedAlliance: z.array(governorChange) }),
  errors: z.array(scanIssue),
  warnings: z.array(scanIssue),
});
export type ScanPreview = z.infer<typeof scanPreview>;

/** takenAt as the preview and apply calls take it: ISO date-time or epoch ms (text, from a form), within 2017..2100. */
export const MIN_TAKEN_AT = Date.UTC(2017, 0, 1);
export const MAX_TAKEN_AT = Date.UTC(2100, 0, 1);
export function parseTakenAt(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  let ms: number;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string' && /^\d+$/.test(value.trim())) ms = Number(value.trim());
  else if (typeof value === 'string') ms = Date.parse(value.trim());
  else return Number.NaN;
  return Number.isSafeInteger(ms) && ms >= MIN_TAKEN_AT && ms <= MAX_TAKEN_AT ? ms : Number.NaN;
}

const takenAtField = z.optional(
  z.union([z.string().check(z.maxLength(40, SCAN_ERRORS.badTakenAt)), z.number({ error: SCAN_ERRORS.badTakenAt })], { error: SCAN_ERRORS.badTakenAt }),
);

export const scanApplyBody = z.object({
  token: z.string({ error: SCAN_ERRORS.tokenRequired }).check(z.minLength(1, SCAN_ERRORS.tokenRequired), z.maxLength(100, SCAN_ERRORS.tokenUnknown)),
  takenAt: takenAtField,
  skipInvalid: z.optional(z.boolean()),
});
export type ScanApplyBody = z.input<typeof scanApplyBody>;

/** PATCH scans/:scanId (admin): a scan's date corrected; `confirm` saves it even when paid automatic points would overlap. */
export const scanRedateBody = z.object({
  takenAt: z.union([z.string().check(z.maxLength(40, SCAN_ERRORS.badTakenAt)), z.number({ error: SCAN_ERRORS.badTakenAt })], { error: SCAN_ERRORS.badTakenAt }),
  confirm: z.optional(z.boolean({ error: SCAN_ERRORS.badConfirm })),
});
export type ScanRedateBody = z.input<typeof scanRedateBody>;

/** POST scans/preview/compare: the preview's time changed; it is compared again with the scan before that time. */
export const scanCompareBody = z.object({
  token: scanApplyBody.shape.token,
  takenAt: z.union([z.string().check(z.maxLength(40, SCAN_ERRORS.badTakenAt)), z.number({ error: SCAN_ERRORS.badTakenAt })], { error: SCAN_ERRORS.badTakenAt }),
});
export type ScanCompareBody = z.input<typeof scanCompareBody>;

export const scansQuery = z.object({ page: queryInt(SCAN_ERRORS.badPage) });

/** Columns the governors table sorts by. */
export const GOVERNOR_SORTS = ['governorId', 'name', 'alliance', ...STATS] as const;
export type GovernorSort = (typeof GOVERNOR_SORTS)[number];

export const governorsQuery = z.object({
  scan: queryInt(SCAN_ERRORS.badScanId),
  compare: queryInt(SCAN_ERRORS.badScanId),
  alliance: z.optional(z.string().check(z.maxLength(64, SCAN_ERRORS.badQuery))),
  q: z.optional(z.string().check(z.maxLength(64, SCAN_ERRORS.badQuery))),
  sort: z.optional(
    z.pipe(
      z.string({ error: SCAN_ERRORS.badSort }),
      z.pipe(z.transform((v: string) => (v === '' ? undefined : v)), z.optional(z.enum(GOVERNOR_SORTS, { error: SCAN_ERRORS.badSort }))),
    ),
  ),
  order: z.optional(
    z.pipe(z.string({ error: SCAN_ERRORS.badOrder }), z.pipe(z.transform((v: string) => (v === '' ? undefined : v)), z.optional(z.enum(['asc', 'desc'], { error: SCAN_ERRORS.badOrder })))),
  ),
  /** `1`: sort by the change of the sort column since `compare` (top gains), not by its value. */
  gain: z.optional(
    z.pipe(
      z.string({ error: SCAN_ERRORS.badGain }),
      z.pipe(z.transform((v: string) => (v === '1' ? true : v === '0' || v === '' ? false : undefined)), z.boolean({ error: SCAN_ERRORS.badGain })),
    ),
  ),
  page: queryInt(SCAN_ERRORS.badPage),
  pageSize: queryInt(SCAN_ERRORS.badPageSize, 1, GOVERNORS_MAX_PAGE_SIZE),
});
export type GovernorsQuery = z.input<typeof governorsQuery>;
/** The governors table's filters and order as both sides use them (parsed: gain is a boolean); `page` and `pageSize` choose the page. */
export type GovernorsFilter = z.output<typeof governorsQuery>;

export const summaryQuery = z.object({ scan: queryInt(SCAN_ERRORS.badScanId), compare: queryInt(SCAN_ERRORS.badScanId) });

const totalsShape = Object.fromEntries(['governors', ...TOTAL_STATS].map((s) => [s, nullableInt])) as Record<'governors' | (typeof TOTAL_STATS)[number], typeof nullableInt>;
export const totals = z.object(totalsShape);
export type Totals = z.infer<typeof totals>;

export const kingdomSummary = z.object({ scan: z.nullable(scan), compare: z.nullable(scan), totals: z.nullable(totals), change: z.nullable(totals) });
export type KingdomSummary = z.infer<typeof kingdomSummary>;

const changeShape = z.partial(z.object(statShape));
export const governorRow = z.object({
  governorId: z.int(),
  name: z.string(),
  alliance: z.string(),
  kingdom: z.nullable(z.int()),
  ...statShape,
  change: z.optional(z.nullable(changeShape)),
});
export type GovernorRow = z.infer<typeof governorRow>;

export const historyEntry = z.object({ scanId: z.int(), takenAt: z.int(), name: z.string(), alliance: z.string(), kingdom: z.nullable(z.int()), ...statShape });
export type HistoryEntry = z.infer<typeof historyEntry>;

export const governorDetail = z.object({
  governorId: z.int(),
  name: z.string(),
  alliance: z.string(),
  account: z.nullable(z.object({ username: z.string() })),
  names: z.array(z.string()),
  alliances: z.array(z.string()),
  history: z.array(historyEntry),
});
export type GovernorDetail = z.infer<typeof governorDetail>;
