import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { pathId, plainName, queryInt } from './http';

/**
 * KvK seasons on the wire: a season (start scan, end scan or the latest while it
 * runs, named windows, DKP weights, requirements by power bracket) and its standings. DKP, gains,
 * progress and status are computed once, on the server (server/kvk/); the client only shows them.
 */

export const KVK_MAX_BRACKETS = 50;
export const KVK_MAX_WINDOWS = 20;
export const KVK_MAX_SEASONS = 200;
export const KVK_NAME_MAX = 80;
export const KVK_WINDOW_NAME_MAX = 40;
export const KVK_REASON_MAX = 200;
export const KVK_PAGE_SIZE = 100;
export const KVK_MAX_PAGE_SIZE = 500;
/** A weight above this is surely a typing slip (the common weights are 4, 10 and 15). */
export const KVK_MAX_WEIGHT = 1_000_000;
/** Powers and requirements: whole numbers up to a trillion (a governor's power is at most a few billion). */
const KVK_MAX_NUMBER = 1_000_000_000_000;

/**
 * A governor the standings SUGGEST as zeroed (never marked by itself: leadership confirms): its power
 * fell by at least this share of its start power while its deads rose by at least this many. A
 * zeroed governor loses most of its troops as deads, so its power falls sharply as its deads climb;
 * a governor who only dropped troops from the infirmary or dismissed them shows no deads.
 */
export const ZEROED_SUGGESTION = { minPowerDropShare: 0.25, minDeadsGain: 10_000 } as const;

export const KVK_ERRORS = {
  nameRequired: `Give the season a name (1 to ${KVK_NAME_MAX} characters).`,
  startScanRequired: 'Choose the start scan of the season (its id).',
  badScanId: 'A scan must be named by its id, a whole number from 1.',
  unknownStartScan: 'The start scan does not exist.',
  unknownEndScan: 'The end scan does not exist.',
  unknownWindowScan: 'A window names a scan that does not exist.',
  endBeforeStart: 'The end scan must be taken after the start scan.',
  weights: 'The DKP weights (T4 kills, T5 kills, deads) must be numbers from 0.',
  weightTooLarge: `A DKP weight may be at most ${KVK_MAX_WEIGHT.toLocaleString('en')}.`,
  bracketsRequired: 'Give at least one requirement bracket.',
  tooManyBrackets: `A season may have at most ${KVK_MAX_BRACKETS} requirement brackets.`,
  bracketNumbers: 'Each bracket needs a from-power, kills (T4+T5) and deads, whole numbers from 0.',
  bracketsOrder: 'The brackets must go up by power, each starting above the one before (no two may overlap).',
  windowName: `Each window needs a name (1 to ${KVK_WINDOW_NAME_MAX} characters).`,
  windowNamesUnique: 'Two windows may not have the same name.',
  tooManyWindows: `A season may have at most ${KVK_MAX_WINDOWS} windows.`,
  windowBackwards: 'A window must end after it starts: its end scan is taken before its start scan.',
  unknownSeason: 'There is no such KvK season.',
  badSeasonId: 'A season is named by its id, a whole number from 1.',
  unknownWindow: 'This season has no window of that name.',
  badSort: 'The sort must be a column of the standings.',
  badOrder: 'The order must be asc or desc.',
  badStatus: 'The status must be met, not-met, exempt or zeroed.',
  badPage: 'The page must be a whole number from 1.',
  badPageSize: `The page size must be a whole number from 1 to ${KVK_MAX_PAGE_SIZE}.`,
  badQuery: 'The search text may have at most 64 characters.',
  markRequired: 'The mark must be zeroed or exempt.',
  reasonRequired: `Give a reason for the mark (1 to ${KVK_REASON_MAX} characters).`,
  badGovernorId: 'A governor id is a whole number from 1.',
  notInSeason: 'This governor is not in the start scan of the season.',
  noMark: 'This governor has no mark in this season.',
  tooManySeasons: `There may be at most ${KVK_MAX_SEASONS} seasons.`,
  scanInUse: 'This scan is used by a KvK season (as its start, its end or a window): change the season first.',
  badPublished: 'Published must be true or false.',
  notPublished: 'The standings of this season are not published.',
} as const;

/** A refusal that names a value (src/protocol/texts.ts). */
export const KVK_TEMPLATES = {
  windowBackwardsIn: `${KVK_ERRORS.windowBackwards} ({window})`,
} as const;

export const weights = z.object(
  {
    t4Kills: z.number({ error: KVK_ERRORS.weights }).check(z.gte(0, KVK_ERRORS.weights), z.lte(KVK_MAX_WEIGHT, KVK_ERRORS.weightTooLarge)),
    t5Kills: z.number({ error: KVK_ERRORS.weights }).check(z.gte(0, KVK_ERRORS.weights), z.lte(KVK_MAX_WEIGHT, KVK_ERRORS.weightTooLarge)),
    deads: z.number({ error: KVK_ERRORS.weights }).check(z.gte(0, KVK_ERRORS.weights), z.lte(KVK_MAX_WEIGHT, KVK_ERRORS.weightTooLarge)),
  },
  { error: KVK_ERRORS.weights },
);
export type Weights = z.infer<typeof weights>;

const wholeFrom0 = (error: string) => z.int({ error }).check(z.gte(0, error), z.lte(KVK_MAX_NUMBER, error));

/** A requirement bracket: governors whose power at the start scan is at least minPower (and below the next bracket's). */
export const bracket = z.object(
  { minPower: wholeFrom0(KVK_ERRORS.bracketNumbers), kills: wholeFrom0(KVK_ERRORS.bracketNumbers), deads: wholeFrom0(KVK_ERRORS.bracketNumbers) },
  { error: KVK_ERRORS.bracketNumbers },
);
export type Bracket = z.infer<typeof bracket>;

export const brackets = z
  .array(bracket, { error: KVK_ERRORS.bracketsRequired })
  .check(
    z.minLength(1, KVK_ERRORS.bracketsRequired),
    z.maxLength(KVK_MAX_BRACKETS, KVK_ERRORS.tooManyBrackets),
    z.refine((list) => list.every((b, i) => i === 0 || b.minPower > list[i - 1].minPower), KVK_ERRORS.bracketsOrder),
  );

const scanIdField = (error: string) => z.int({ error }).check(z.gte(1, error), z.lte(Number.MAX_SAFE_INTEGER, error));

/** A named window: a pair of scans ("Pass 4", "Kingsland"); its order by takenAt is checked on the server. */
export const kvkWindow = z.object({
  name: z.string({ error: KVK_ERRORS.windowName }).check(z.trim(), z.minLength(1, KVK_ERRORS.windowName), z.maxLength(KVK_WINDOW_NAME_MAX, KVK_ERRORS.windowName), plainName()),
  fromScanId: scanIdField(KVK_ERRORS.badScanId),
  toScanId: scanIdField(KVK_ERRORS.badScanId),
});
export type KvkWindow = z.infer<typeof kvkWindow>;

export const kvkWindows = z
  .array(kvkWindow, { error: KVK_ERRORS.windowName })
  .check(
    z.maxLength(KVK_MAX_WINDOWS, KVK_ERRORS.tooManyWindows),
    z.refine((list) => new Set(list.map((w) => w.name.toLowerCase())).size === list.length, KVK_ERRORS.windowNamesUnique),
  );

/** POST kvk/seasons, PUT kvk/seasons/:id (admin). An absent or null endScanId: the season runs (the latest scan counts). */
export const seasonBody = z.object({
  name: z.string({ error: KVK_ERRORS.nameRequired }).check(z.trim(), z.minLength(1, KVK_ERRORS.nameRequired), z.maxLength(KVK_NAME_MAX, KVK_ERRORS.nameRequired), plainName()),
  startScanId: scanIdField(KVK_ERRORS.startScanRequired),
  endScanId: z.optional(z.nullable(scanIdField(KVK_ERRORS.badScanId))),
  weights,
  brackets,
  windows: z.optional(kvkWindows),
  /** Every signed-in player may read the standings (absent: unchanged on PUT, not published on POST). */
  published: z.optional(z.boolean({ error: KVK_ERRORS.badPublished })),
});
export type SeasonBody = z.input<typeof seasonBody>;

/** A scan as a season names it: its id and when it was taken. */
export const scanRef = z.object({ id: z.int(), takenAt: z.int() });
export type ScanRef = z.infer<typeof scanRef>;

export const season = z.object({
  id: z.int(),
  name: z.string(),
  startScanId: z.int(),
  endScanId: z.nullable(z.int()),
  /** True while the end scan is not fixed: the latest scan counts. */
  running: z.boolean(),
  startScan: scanRef,
  /** The fixed end scan, or (while it runs) the latest scan; null when no scan is after the start. */
  endScan: z.nullable(scanRef),
  weights,
  brackets: z.array(bracket),
  windows: z.array(kvkWindow),
  marks: z.int(),
  /** Every signed-in player may read its standings (without marks' reasons); otherwise leadership only. */
  published: z.boolean(),
  createdAt: z.int(),
  updatedAt: z.int(),
});
export type Season = z.infer<typeof season>;

export const MARKS = ['zeroed', 'exempt'] as const;
export type Mark = (typeof MARKS)[number];
export const STATUSES = ['met', 'not-met', 'exempt', 'zeroed'] as const;
export type KvkStatus = (typeof STATUSES)[number];

/** PUT kvk/seasons/:id/marks/:governorId (council, admin). */
export const markBody = z.object({
  mark: z.enum(MARKS, { error: KVK_ERRORS.markRequired }),
  reason: z.string({ error: KVK_ERRORS.reasonRequired }).check(z.trim(), z.minLength(1, KVK_ERRORS.reasonRequired), z.maxLength(KVK_REASON_MAX, KVK_ERRORS.reasonRequired), plainName()),
});
export type MarkBody = z.input<typeof markBody>;

export const markRow = z.object({
  governorId: z.int(),
  name: z.string(),
  mark: z.enum(MARKS),
  reason: z.string(),
  markedBy: z.nullable(z.string()),
  markedAt: z.int(),
});
export type MarkRow = z.infer<typeof markRow>;

const nullableNumber = z.nullable(z.number());
/** Gains between the two scans of the standings; null where either scan did not hold the stat (or the governor is not in the end scan). */
export const gains = z.object({ t4Kills: nullableNumber, t5Kills: nullableNumber, deads: nullableNumber, killpoints: nullableNumber, power: nullableNumber });
export type Gains = z.infer<typeof gains>;

export const standing = z.object({
  governorId: z.int(),
  name: z.string(),
  alliance: z.string(),
  startPower: nullableNumber,
  /** Power in the end scan (null when the governor is not in it). */
  power: nullableNumber,
  /** False when the governor is not in the end scan (left, or fell below the scan's cutoff). */
  inEndScan: z.boolean(),
  gains,
  dkp: z.number(),
  /** The requirement of the governor's bracket (by power at the season's start scan); 0 and 0 below the lowest bracket. */
  required: z.object({ kills: z.number(), deads: z.number() }),
  /** Kills (T4+T5) and deads gained as a share of the requirement, 0 to 100, capped. */
  progress: z.object({ kills: z.number(), deads: z.number() }),
  status: z.enum(STATUSES),
  /** Leadership's reason when the governor is marked zeroed or exempt. */
  reason: z.nullable(z.string()),
  /** Power fell sharply while deads rose (ZEROED_SUGGESTION) and no mark yet: leadership may confirm. */
  suggestedZeroed: z.boolean(),
});
export type Standing = z.infer<typeof standing>;

/** A governor in the end scan who was not in the start scan: listed apart, with gains since the first scan that saw them in the period. */
export const arrival = z.object({
  governorId: z.int(),
  name: z.string(),
  alliance: z.string(),
  firstScan: scanRef,
  firstPower: nullableNumber,
  power: nullableNumber,
  gains,
  dkp: z.number(),
});
export type Arrival = z.infer<typeof arrival>;

export const allianceTotal = z.object({
  alliance: z.string(),
  governors: z.int(),
  met: z.int(),
  startPower: z.number(),
  gains: z.object({ t4Kills: z.number(), t5Kills: z.number(), deads: z.number(), killpoints: z.number(), power: z.number() }),
  dkp: z.number(),
});
export type AllianceTotal = z.infer<typeof allianceTotal>;

export const STANDING_SORTS = [
  'governorId',
  'name',
  'alliance',
  'startPower',
  'power',
  't4Kills',
  't5Kills',
  'deads',
  'killpoints',
  'powerGain',
  'dkp',
  'requiredKills',
  'requiredDeads',
  'killsProgress',
  'deadsProgress',
  'status',
] as const;
export type StandingSort = (typeof STANDING_SORTS)[number];

const queryText = z.optional(z.string().check(z.maxLength(64, KVK_ERRORS.badQuery)));
const queryEnum = <T extends readonly [string, ...string[]]>(values: T, error: string) =>
  z.optional(z.pipe(z.string({ error }), z.pipe(z.transform((v: string) => (v === '' ? undefined : v)), z.optional(z.enum(values, { error })))));

/** GET kvk/seasons/:id/standings (and .csv): window (its name; the whole season when absent), filters, sort and page. */
export const standingsQuery = z.object({
  window: z.optional(z.string().check(z.maxLength(KVK_WINDOW_NAME_MAX, KVK_ERRORS.unknownWindow))),
  alliance: queryText,
  q: queryText,
  status: queryEnum(STATUSES, KVK_ERRORS.badStatus),
  sort: queryEnum(STANDING_SORTS, KVK_ERRORS.badSort),
  order: queryEnum(['asc', 'desc'] as const, KVK_ERRORS.badOrder),
  page: queryInt(KVK_ERRORS.badPage),
  pageSize: queryInt(KVK_ERRORS.badPageSize, 1, KVK_MAX_PAGE_SIZE),
});
export type StandingsQuery = z.input<typeof standingsQuery>;
export type StandingsFilter = z.output<typeof standingsQuery>;

export const standingsAnswer = z.object({
  result: z.literal(true),
  season,
  /** The window shown: null for the whole season. */
  window: z.nullable(z.string()),
  from: scanRef,
  /** The scan the gains run to; null when no scan is after the start yet (every gain is then null). */
  to: z.nullable(scanRef),
  total: z.int(),
  page: z.int(),
  pageSize: z.int(),
  counts: z.object({ governors: z.int(), met: z.int(), 'not-met': z.int(), exempt: z.int(), zeroed: z.int(), suggested: z.int() }),
  standings: z.array(standing),
  /** Every governor suggested as zeroed (no mark yet), power drop first. */
  suggested: z.array(standing),
  alliances: z.array(allianceTotal),
  arrivals: z.array(arrival),
});
export type StandingsAnswer = z.infer<typeof standingsAnswer>;

/** GET kvk/me: the caller's own governors in the running season (none when no season runs). */
export const myKvkAnswer = z.object({ result: z.literal(true), season: z.nullable(season), to: z.nullable(scanRef), governors: z.array(standing) });
export type MyKvk = z.infer<typeof myKvkAnswer>;

/** A malformed path id is a 400 with its own text. */
const seasonParams = { id: pathId(KVK_ERRORS.badSeasonId) };
const markParams = { id: pathId(KVK_ERRORS.badSeasonId), governorId: pathId(KVK_ERRORS.badGovernorId) };
const seasonAnswer = resultTrue({ season });

/** KvK's JSON endpoints (the standings' CSV and XLSX downloads, files rather than JSON, stay the route file's own). */
export const KVK_API = {
  seasons: endpoint({
    method: 'GET',
    path: 'kvk/seasons',
    answer: resultTrue({ seasons: z.array(season) }),
    errors: [401, 403],
    tag: 'kvk',
    summary: 'Every KvK season (council, admin; any other signed-in player only the published ones), running ones first, then by start scan (newest first)',
  }),
  create: endpoint({
    method: 'POST',
    path: 'kvk/seasons',
    body: seasonBody,
    answer: seasonAnswer,
    errors: [400, 401, 403, 409],
    tag: 'kvk',
    summary:
      'Create a season: name, start scan, end scan (absent or null: it runs, the latest scan counts), DKP weights {t4Kills, t5Kills, deads}, requirement brackets [{minPower, kills, deads}] by increasing power, windows [{name, fromScanId, toScanId}], published (every signed-in player may read its standings; default false). Audited.',
  }),
  update: endpoint({
    method: 'PUT',
    path: 'kvk/seasons/:id',
    params: seasonParams,
    body: seasonBody,
    answer: seasonAnswer,
    errors: [400, 401, 403, 404],
    tag: 'kvk',
    summary: 'Replace a season (same body as POST). Fixing endScanId closes it; null reopens it; published (absent: unchanged) lets every signed-in player read its standings. Audited.',
  }),
  standings: endpoint({
    method: 'GET',
    path: 'kvk/seasons/:id/standings',
    params: seasonParams,
    query: standingsQuery,
    answer: standingsAnswer,
    errors: [400, 401, 403, 404],
    tag: 'kvk',
    summary:
      "Council and admin, or any signed-in player while the season is published (403 otherwise; then without marks' reasons and suggestions). A page of a season's standings (the whole season, or a window by name): every governor of the start scan with start power, gains, DKP, its bracket's requirement, progress (0–100) and status; filter by alliance, q (name or id) and status; sort by any column. With counts, suggested zeroed governors, totals per alliance and arrivals after the start.",
  }),
  marks: endpoint({
    method: 'GET',
    path: 'kvk/seasons/:id/marks',
    params: seasonParams,
    answer: resultTrue({ marks: z.array(markRow) }),
    errors: [400, 401, 403, 404],
    tag: 'kvk',
    summary: "A season's governors marked zeroed or exempt, with the reason, who marked them and when (newest first)",
  }),
  mark: endpoint({
    method: 'PUT',
    path: 'kvk/seasons/:id/marks/:governorId',
    params: markParams,
    body: markBody,
    answer: resultTrue({ mark: markRow }),
    errors: [400, 401, 403, 404],
    tag: 'kvk',
    summary: 'Mark a governor of the start scan zeroed or exempt, with a reason (replaces its mark). Leadership confirms a suggestion this way; nothing is marked by itself. Audited.',
  }),
  unmark: endpoint({
    method: 'DELETE',
    path: 'kvk/seasons/:id/marks/:governorId',
    params: markParams,
    answer: okAnswer,
    errors: [400, 401, 403, 404],
    tag: 'kvk',
    summary: "Take back a governor's mark. Audited.",
  }),
  me: endpoint({
    method: 'GET',
    path: 'kvk/me',
    answer: myKvkAnswer,
    errors: [401],
    tag: 'kvk',
    summary: "The caller's own governors (the account's claim and linked farms, main first) in the running season: DKP, requirement, progress and status; season null when none runs",
  }),
} as const;
