import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { pathId, plainName } from './http';
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

export type Column = 'governorId' | 'name' | 'alliance' | 'kingdom' | Stat;

/**
 * Header names seen in the wild (RokTracker v4 to v6 and other scanners), compared with case,
 * spaces and punctuation removed: `Kills (T4+)` is `killst4`, `Governor ID` is `governorid`.
 */
export const HEADER_ALIASES: Record<Column, readonly string[]> = {
  governorId: ['id', 'governorid', 'govid', 'playerid'],
  name: ['name', 'governorname', 'governor'],
  alliance: ['alliance', 'alliancetag', 'tag'],
  kingdom: ['kingdom', 'homekingdom'],
  power: ['power'],
  killpoints: ['killpoints', 'totalkillpts', 'kp', 'killpts'],
  deads: ['deads', 'deaths', 'dead'],
  t1Kills: ['t1kills', 't1', 'tier1kills'],
  t2Kills: ['t2kills', 't2', 'tier2kills'],
  t3Kills: ['t3kills', 't3', 'tier3kills'],
  t4Kills: ['t4kills', 't4', 'tier4kills'],
  t5Kills: ['t5kills', 't5', 'tier5kills'],
  totalKills: ['totalkills', 'kills'],
  t45Kills: ['t45kills', 'killst4', 't4t5kills'],
  ranged: ['ranged', 'rangedpoints'],
  rssGathered: ['rssgathered', 'resourcesgathered'],
  rssAssistance: ['rssassistance', 'resourceassistance', 'resourcesgiven'],
  helps: ['helps', 'helpsgiven'],
  acclaim: ['acclaim'],
  highestAcclaim: ['highestacclaim'],
};

/** Columns of RokTracker's quick ("seed") mode: a file with nothing more is a seed scan. */
export const SEED_COLUMNS: readonly Column[] = ['governorId', 'name', 'power', 'killpoints', 'alliance', 'kingdom'];

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
/** Scanner sentinels (RokTracker): -1 unknown, -2 skipped, -3 not a number. */
export const SENTINEL_TEXTS = { unknown: 'unknown', skipped: 'skipped', notANumber: 'not a number' } as const;
export const SENTINELS: Record<number, string> = { [-1]: SENTINEL_TEXTS.unknown, [-2]: SENTINEL_TEXTS.skipped, [-3]: SENTINEL_TEXTS.notANumber };

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

/** Texts of a row that cannot be used, and of a warning; `{meaning}` is one of SENTINELS. */
export const SCAN_ROW_TEMPLATES = {
  badGovernorId: 'The governor id must be a whole number from 1.',
  duplicate: 'The same governor id is already on row {firstRow}.',
  sentinel: '{column}: the scanner wrote {value} ({meaning}), kept as not scanned.',
  notNumber: '{column}: not a whole number, kept as not scanned.',
  killpointsMismatch: 'Kill points {found} do not match the kills by tier ({expected}): a likely misread.',
  wentDown: '{column} went down from {before} to {now} since the previous scan: a likely misread.',
} as const;

const count = (n: number) => n.toLocaleString('en');
export const SCAN_ROW_TEXTS = {
  badGovernorId: SCAN_ROW_TEMPLATES.badGovernorId,
  duplicate: (firstRow: number) => fill(SCAN_ROW_TEMPLATES.duplicate, { firstRow }),
  sentinel: (column: string, value: number) => fill(SCAN_ROW_TEMPLATES.sentinel, { column, value, meaning: SENTINELS[value] }),
  notNumber: (column: string) => fill(SCAN_ROW_TEMPLATES.notNumber, { column }),
  killpointsMismatch: (expected: number, found: number) => fill(SCAN_ROW_TEMPLATES.killpointsMismatch, { found: count(found), expected: count(expected) }),
  wentDown: (column: string, before: number, now: number) => fill(SCAN_ROW_TEMPLATES.wentDown, { column, before: count(before), now: count(now) }),
} as const;

/** How the game counts kill points from kills by tier: a scan whose kill points differ was likely misread. */
export function killpointsFromTiers(t: { t1Kills: number; t2Kills: number; t3Kills: number; t4Kills: number; t5Kills: number }): number {
  return Math.floor(t.t1Kills * 0.2) + t.t2Kills * 2 + t.t3Kills * 4 + t.t4Kills * 10 + t.t5Kills * 20;
}

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

/** A query-string whole number from `min` (query values arrive as text; an empty one counts as absent). */
const queryInt = (error: string, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z.optional(
    z.pipe(
      z.string({ error }),
      z.pipe(z.transform((v: string) => (v.trim() === '' ? undefined : Number(v))), z.optional(z.int({ error }).check(z.gte(min, error), z.lte(max, error)))),
    ),
  );

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

// ── alliances, metrics and player ids ─────────────────────────────────────────────────────────

export const ALLIANCE_ERRORS = {
  badTag: 'An alliance is named by its tag (1 to 64 characters).',
  nameTooLong: 'The alliance name may have at most 64 characters.',
  ours: 'Say whether the alliance belongs to the kingdom (true or false).',
} as const;

/** An alliance seen in a scan, with leadership's name for it and whether it belongs to the kingdom; its members and sums in that scan. */
export const allianceRow = z.object({
  tag: z.string(),
  name: z.string(),
  ours: z.boolean(),
  members: z.int(),
  power: z.nullable(z.number()),
  killpoints: z.nullable(z.number()),
  deads: z.nullable(z.number()),
  t4Kills: z.nullable(z.number()),
  t5Kills: z.nullable(z.number()),
});
export type AllianceRow = z.infer<typeof allianceRow>;

export const alliancesQuery = z.object({ scan: queryInt(SCAN_ERRORS.badScanId) });

/** PUT alliances/:tag (admin): its name and whether it is the kingdom's. */
export const allianceBody = z.object({
  name: z.optional(z.string({ error: ALLIANCE_ERRORS.nameTooLong }).check(z.maxLength(64, ALLIANCE_ERRORS.nameTooLong), plainName())),
  ours: z.optional(z.boolean({ error: ALLIANCE_ERRORS.ours })),
});

export const METRIC_SCOPES = ['kingdom', 'alliance', 'governor'] as const;
export type MetricScope = (typeof METRIC_SCOPES)[number];
export const METRIC_ERRORS = {
  scope: 'The scope must be kingdom, alliance or governor.',
  key: 'Name the alliance (its tag) or the governor (its id) of the series.',
  stats: `The stats must be a comma-separated list of: ${STATS.join(', ')}.`,
} as const;

/**
 * GET metrics/series?scope=&key=&stats=: one point per scan (oldest first) with the chosen stats:
 * the kingdom's totals, an alliance's (key = tag) or one governor's (key = governor id). A stat
 * that scan did not hold is null.
 */
export const seriesQuery = z.object({
  scope: z.enum(METRIC_SCOPES, { error: METRIC_ERRORS.scope }),
  key: z.optional(z.string().check(z.maxLength(64, METRIC_ERRORS.key))),
  stats: z.optional(z.string().check(z.maxLength(400, METRIC_ERRORS.stats))),
});
export const seriesPoint = z.object({ scanId: z.int(), takenAt: z.int(), members: z.nullable(z.int()), values: z.record(z.string(), z.nullable(z.number())) });
export type SeriesPoint = z.infer<typeof seriesPoint>;
export const series = z.object({ scope: z.enum(METRIC_SCOPES), key: z.nullable(z.string()), stats: z.array(z.string()), points: z.array(seriesPoint) });
export type Series = z.infer<typeof series>;

export const PLAYER_ID_ERRORS = {
  unknownUser: 'No account has this username.',
  usernameRequired: 'Name the account to link this governor to.',
  verified: 'Say whether the link is verified (true or false).',
  unknownLink: 'This governor is linked to no account.',
  badQuery: 'The search text may have at most 64 characters.',
} as const;

/** An account's link to a governor: its claimed main (the sign-up's player id) or a farm an admin linked; verified by an admin. */
export const playerLink = z.object({ governorId: z.int(), username: z.string(), verified: z.boolean(), main: z.boolean(), name: z.nullable(z.string()) });
export type PlayerLink = z.infer<typeof playerLink>;
/** GET governors/mine: the caller's own governors (its sign-up's claim and those an admin linked), main first; name null when no scan has seen it. */
export const ownGovernor = z.object({ governorId: z.int(), name: z.nullable(z.string()), main: z.boolean(), verified: z.boolean() });
export type OwnGovernor = z.infer<typeof ownGovernor>;
/** The most governors GET governors/mine answers (a main and its farms are a handful). */
export const OWN_GOVERNORS_MAX = 50;
export const playerIdsQuery = z.object({ q: z.optional(z.string().check(z.maxLength(64, PLAYER_ID_ERRORS.badQuery))), page: queryInt(SCAN_ERRORS.badPage) });
export const playerLinkBody = z.object({
  username: z.string({ error: PLAYER_ID_ERRORS.usernameRequired }).check(z.minLength(1, PLAYER_ID_ERRORS.usernameRequired), z.maxLength(64, PLAYER_ID_ERRORS.unknownUser)),
  verified: z.optional(z.boolean({ error: PLAYER_ID_ERRORS.verified })),
});

/** A malformed path id is a 400 with its own text (the contract of these routes). */
const scanIdParams = { scanId: pathId(SCAN_ERRORS.badScanId) };
const governorIdParams = { governorId: pathId(SCAN_ERRORS.badGovernorId) };
/** A saved alliance's name and whether it is the kingdom's. */
export const savedAlliance = z.object({ tag: z.string(), name: z.string(), ours: z.boolean() });

/**
 * Governors' and scans' JSON endpoints. Route-owned, not here: the preview (a multipart upload),
 * its compare at another time (both answer a preview encoded and written a slice at a time; their
 * answer is `scanPreviewAnswer`), and the governors' CSV and XLSX downloads.
 */
export const scanPreviewAnswer = resultTrue({ preview: scanPreview });
export const SCANS_API = {
  apply: endpoint({
    method: 'POST',
    path: 'scans/apply',
    body: scanApplyBody,
    answer: resultTrue({ scan }),
    errors: [400, 401, 403, 409],
    tag: 'scans',
    summary:
      'Apply a previewed scan in one transaction (all of it or nothing). Rows the preview could not use are left out only with skipInvalid: true; takenAt may correct the time. The same file twice is refused (409), naming its scan.',
  }),
  list: endpoint({
    method: 'GET',
    path: 'scans',
    query: scansQuery,
    answer: resultTrue({ scans: z.array(scan), total: z.int(), page: z.int(), pageSize: z.int() }),
    errors: [400, 401, 403],
    tag: 'scans',
    summary: 'Scans, newest first (by when they were taken), 50 a page',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'scans/:scanId',
    params: scanIdParams,
    answer: okAnswer,
    errors: [400, 401, 403, 404, 409],
    tag: 'scans',
    summary: 'Delete a scan and every row of it',
  }),
  redate: endpoint({
    method: 'PATCH',
    path: 'scans/:scanId',
    params: scanIdParams,
    body: scanRedateBody,
    answer: resultTrue({ scan }),
    errors: [400, 401, 403, 404, 409],
    tag: 'scans',
    summary:
      "Correct when a scan was taken (takenAt: ISO date-time or epoch ms, 2017..2100). Its new place in time counts everywhere at once: the latest scan, compares, migrants, series, KvK periods, the rules that run by themselves. " +
      'When the new date would make automatic points already paid overlap (a run over this scan would count time another run of its rule paid for), nothing changes and the 409 names the runs; confirm: true saves it anyway. Audited.',
  }),
  summary: endpoint({
    method: 'GET',
    path: 'kingdom/summary',
    query: summaryQuery,
    answer: resultTrue(kingdomSummary.shape),
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary: "The kingdom's totals in a scan (the latest by default) and their change since another (the scan before it by default); nulls where nothing was scanned",
  }),
  governors: endpoint({
    method: 'GET',
    path: 'governors',
    query: governorsQuery,
    answer: resultTrue({ scan: z.nullable(scan), compare: z.nullable(scan), total: z.int(), page: z.int(), pageSize: z.int(), governors: z.array(governorRow) }),
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary:
      "A page of a scan's governors (the latest by default): filter by alliance (tag) and q (name contains, or governor id starts with), sort by any column (default power, high first), with each stat's change since `compare` when given",
  }),
  ownGovernors: endpoint({
    method: 'GET',
    path: 'governors/mine',
    answer: resultTrue({ governors: z.array(ownGovernor) }),
    errors: [401],
    tag: 'scans',
    summary:
      "The caller's own governors: its sign-up's claim (main) and the governors an admin linked (farms), main first, with each one's name in the latest scan that saw it (null: never scanned yet) and whether the link is verified",
  }),
  governor: endpoint({
    method: 'GET',
    path: 'governors/:governorId',
    params: governorIdParams,
    answer: resultTrue({ governor: governorDetail }),
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary: "A governor's history over every scan (oldest first), the names and alliances seen; council and admin see any governor, a player the one their account claims",
  }),
  alliances: endpoint({
    method: 'GET',
    path: 'alliances',
    query: alliancesQuery,
    answer: resultTrue({ scan: z.nullable(scan), alliances: z.array(allianceRow), unaffiliated: z.nullable(allianceRow) }),
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary:
      "The alliances of a scan (the latest by default), by power: members and sums in that scan, leadership's name for each and whether it is the kingdom's; unaffiliated: the same sums for the governors in no alliance (null when there are none)",
  }),
  saveAlliance: endpoint({
    method: 'PUT',
    path: 'alliances/:tag',
    params: { tag: z.string() },
    body: allianceBody,
    answer: resultTrue({ alliance: savedAlliance }),
    errors: [400, 401, 403],
    tag: 'scans',
    summary: 'Name an alliance (by its tag) and say whether it belongs to the kingdom',
  }),
  series: endpoint({
    method: 'GET',
    path: 'metrics/series',
    query: seriesQuery,
    answer: resultTrue(series.shape),
    errors: [400, 401, 403],
    tag: 'scans',
    summary:
      "One point per scan, oldest first, with the chosen stats (comma-separated; power and killpoints by default): the kingdom's totals, an alliance's (key = tag) or a governor's (key = governor id). Council and admin read any; a player their own governors.",
  }),
  playerIds: endpoint({
    method: 'GET',
    path: 'player-ids',
    query: playerIdsQuery,
    answer: resultTrue({ total: z.int(), page: z.int(), pageSize: z.int(), links: z.array(playerLink) }),
    errors: [400, 401, 403],
    tag: 'scans',
    summary: "Accounts and their governors (the sign-up's claim and linked farms), verified or not, with the governor's name in the latest scan; q is a username or a governor id",
  }),
  link: endpoint({
    method: 'PUT',
    path: 'player-ids/:governorId',
    params: governorIdParams,
    body: playerLinkBody,
    answer: resultTrue({ link: playerLink }),
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary: 'Link a governor to an account (moving it from another), and verify or unverify the link',
  }),
  unlink: endpoint({
    method: 'DELETE',
    path: 'player-ids/:governorId',
    params: governorIdParams,
    answer: okAnswer,
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary: 'Unlink a governor from its account',
  }),
} as const;
