import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { pathId, plainName } from './http';
import { queryInt } from './http';
import { governorDetail, governorRow, governorsQuery, kingdomSummary, scan, SCAN_ERRORS, STATS, scanApplyBody, scanPreview, scanRedateBody, scansQuery, summaryQuery } from './scans';

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
