import * as z from 'zod/mini';
import { endpoint, resultTrue } from './endpoint';
import { scan } from './scans';
import { PLAYER_ID_ERRORS } from './scans-api';

/**
 * Migrants on the wire: between two scans, who arrived (in the later, not
 * the earlier) and who left, each who left with a likely reason. "Latest" and "the scan before" are
 * by takenAt, never by upload order.
 */
export const MIGRANT_REASONS = ['kingdom-changed', 'below-cutoff', 'unknown'] as const;
export type MigrantReason = (typeof MIGRANT_REASONS)[number];

/** The most governors each list carries (the largest first); the counts and power totals cover all. */
export const MIGRANTS_MAX_LIST = 1_000;
/** The series covers at most this many of the latest scans (each point is one scan against the one before it). */
export const MIGRANT_SERIES_MAX_SCANS = 200;

export const MIGRANT_ERRORS = {
  badScanId: 'A scan must be named by its id, a whole number from 1.',
  sameScan: 'Choose two different scans to compare.',
  fromAfterTo: 'The first scan must be taken before the second: choose an earlier "from" scan.',
} as const;

const queryScanId = z.optional(
  z.pipe(
    z.string({ error: MIGRANT_ERRORS.badScanId }),
    z.pipe(
      z.transform((v: string) => (v.trim() === '' ? undefined : Number(v))),
      z.optional(z.int({ error: MIGRANT_ERRORS.badScanId }).check(z.gte(1, MIGRANT_ERRORS.badScanId), z.lte(Number.MAX_SAFE_INTEGER, MIGRANT_ERRORS.badScanId))),
    ),
  ),
);

/** GET migrants?from=&to=: both optional (to: the latest scan; from: the scan before `to`). */
export const migrantsQuery = z.object({ from: queryScanId, to: queryScanId });
export type MigrantsQuery = z.input<typeof migrantsQuery>;
/** The two lists, each downloadable (GET migrants/arrived.csv, migrants/left.xlsx…). */
export const MIGRANT_LISTS = ['arrived', 'left'] as const;
export type MigrantList = (typeof MIGRANT_LISTS)[number];
/** A list's export: the same scans, and `q` as the page's search (name or alliance contains it, or the governor id starts with it). */
export const migrantsExportQuery = z.object({ ...migrantsQuery.shape, q: z.optional(z.string().check(z.maxLength(64, PLAYER_ID_ERRORS.badQuery))) });

export const migrant = z.object({
  governorId: z.int(),
  name: z.string(),
  alliance: z.string(),
  power: z.nullable(z.number()),
  /** The home kingdom the scan's kingdom column gives (null: not scanned). */
  kingdom: z.nullable(z.int()),
});
export type Migrant = z.infer<typeof migrant>;

export const leaver = z.object({ ...migrant.shape, reason: z.enum(MIGRANT_REASONS) });
export type Leaver = z.infer<typeof leaver>;

export const migrantsAnswer = z.object({
  from: z.nullable(scan),
  to: z.nullable(scan),
  arrived: z.array(migrant),
  left: z.array(leaver),
  counts: z.object({ arrived: z.int(), left: z.int() }),
  /** Total power of who arrived (in) and who left (out); a power not scanned counts as 0. */
  power: z.object({ arrived: z.number(), left: z.number() }),
  reasons: z.object({ 'kingdom-changed': z.int(), 'below-cutoff': z.int(), unknown: z.int() }),
});
export type Migrants = z.infer<typeof migrantsAnswer>;

/** One point of GET migrants/series: a scan against the one taken before it. */
export const migrantPoint = z.object({ scanId: z.int(), takenAt: z.int(), previousScanId: z.int(), arrived: z.int(), left: z.int(), powerIn: z.number(), powerOut: z.number() });
export type MigrantPoint = z.infer<typeof migrantPoint>;
export const migrantSeries = z.object({ points: z.array(migrantPoint) });
export type MigrantSeries = z.infer<typeof migrantSeries>;

/** The migrants' JSON endpoints (the lists' CSV and XLSX downloads, files rather than JSON, stay the route file's own). */
export const MIGRANTS_API = {
  diff: endpoint({
    method: 'GET',
    path: 'migrants',
    query: migrantsQuery,
    answer: resultTrue(migrantsAnswer.shape),
    errors: [400, 401, 403, 404],
    tag: 'scans',
    summary:
      'Who arrived (in `to`, not in `from`) and who left between two scans (to: the latest by takenAt; from: the scan taken before `to`), with power and alliance, and for who left the likely reason: ' +
      "kingdom-changed (the later scan's kingdom column shows them in another kingdom), below-cutoff (their power is below the later scan's lowest) or unknown. Counts and total power in and out; each list at most 1,000, largest first (the counts and totals cover all).",
  }),
  series: endpoint({
    method: 'GET',
    path: 'migrants/series',
    answer: resultTrue(migrantSeries.shape),
    errors: [401, 403],
    tag: 'scans',
    summary: 'Arrivals and departures (counts and power) of each of the latest 200 scans against the scan taken before it, oldest first',
  }),
} as const;
