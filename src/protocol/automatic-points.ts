import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { pathId, plainName, queryPageOf } from './http';
import { fill } from './texts';
import { MAX_POINTS_DELTA } from './points';

/**
 * Automatic points on the wire: a rule pays kingdom points for a
 * cumulative stat's gain between two scans, or for a season's DKP over them. A run is one rule over
 * one pair of scans: previewed, then applied as ledger entries of kind `automatic`, at most once ever.
 */

/** Stats a rule may pay for: every cumulative stat's gain (they only grow in the game), or a season's DKP. */
export const RULE_STATS = ['killpoints', 'deads', 't1Kills', 't2Kills', 't3Kills', 't4Kills', 't5Kills', 'totalKills', 't45Kills', 'helps', 'rssAssistance', 'rssGathered', 'dkp'] as const;
export type RuleStat = (typeof RULE_STATS)[number];

/** The database's spelling is accepted too (`t4_kills`, `rss_assistance`): answers use the names above. */
const snakeToCamel = (v: string) => v.trim().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

export const RULE_NAME_MAX = 60;
/** A unit no scanner exceeds (kill points of a whole kingdom stay far below it). */
export const RULE_PER_MAX = 1_000_000_000_000;
/** At most this many rules (deleted ones aside): a kingdom has a handful. */
export const RULES_MAX = 100;
export const RULE_TOKEN_TTL_MS = 10 * 60_000;
export const RUNS_PAGE_SIZE = 50;

export const RULE_ERRORS = {
  name: `Please give the rule a name (1 to ${RULE_NAME_MAX} characters).`,
  stat: `The stat must be one of: ${RULE_STATS.join(', ')}.`,
  per: 'Per must be a whole number from 1: the gain that earns the points once (e.g. 1000000 kill points).',
  points: `Points must be a whole number from 1 to ${MAX_POINTS_DELTA.toLocaleString('en')}: the points paid for each "per" of gain.`,
  cap: `The cap must be a whole number of points from 1 to ${MAX_POINTS_DELTA.toLocaleString('en')}, or none.`,
  auto: 'Auto must be true (run whenever a scan arrives) or false.',
  seasonRequired: 'A rule that pays DKP must name its KvK season.',
  seasonNotDkp: 'Only a rule that pays DKP names a KvK season.',
  badSeasonId: 'A KvK season is named by its id, a whole number from 1.',
  unknownSeason: 'There is no KvK season with this id.',
  unknownRule: 'There is no automatic points rule with this id.',
  badRuleId: 'A rule is named by its id, a whole number from 1.',
  tooManyRules: `A kingdom may keep at most ${RULES_MAX} rules: delete one first.`,
  badScanId: 'Name both scans by their ids (fromScanId and toScanId, whole numbers from 1).',
  unknownScan: 'There is no such scan.',
  sameScan: 'Choose two different scans: the run pays for the gain between them.',
  fromAfterTo: 'The "from" scan must be taken before the "to" scan.',
  tokenRequired: 'Please send the token of the preview to apply.',
  tokenUnknown: 'This preview has expired or does not exist: preview the run again.',
  tokenUsed: 'This preview has already been applied.',
  ruleChanged: 'The rule was changed or deleted since this preview: preview the run again. Nothing was applied.',
  scanChanged: 'A scan of this run was deleted or replaced since this preview: preview the run again. Nothing was applied.',
  nothingToApply: 'This run pays no points to any account: there is nothing to apply.',
  tooManyPreviews: 'Too many previews in a minute: wait a moment and try again.',
  badPage: 'The page must be a whole number from 1.',
} as const;

/** Texts that name a value (src/protocol/texts.ts: the client reads the values back to translate). */
export const RULE_TEMPLATES = {
  /** The refusal of a second run of one rule over one pair of scans. */
  alreadyApplied: 'This rule was already applied to these two scans (run #{runId}): a run is applied at most once. Nothing was applied.',
  /** The ledger entry's reason: names the rule and the scans (and the governor, when an account has several). */
  reason: 'Automatic points: rule #{ruleId} "{rule}", scans #{from} → #{to}, governor {governorId}',
} as const;

export const alreadyAppliedText = (runId: number) => fill(RULE_TEMPLATES.alreadyApplied, { runId });

export function automaticReason(rule: { id: number; name: string }, fromScanId: number, toScanId: number, governorId: number): string {
  return fill(RULE_TEMPLATES.reason, { ruleId: rule.id, rule: rule.name, from: fromScanId, to: toScanId, governorId });
}

const wholeIn = (min: number, max: number, error: string) => z.int({ error }).check(z.gte(min, error), z.lte(max, error));

export const ruleBody = z.object({
  name: z.pipe(
    z.string({ error: RULE_ERRORS.name }),
    z.pipe(z.transform((v: string) => v.trim()), z.string().check(z.minLength(1, RULE_ERRORS.name), z.maxLength(RULE_NAME_MAX, RULE_ERRORS.name), plainName())),
  ),
  stat: z.pipe(z.string({ error: RULE_ERRORS.stat }), z.pipe(z.transform(snakeToCamel), z.enum(RULE_STATS, { error: RULE_ERRORS.stat }))),
  per: wholeIn(1, RULE_PER_MAX, RULE_ERRORS.per),
  points: wholeIn(1, MAX_POINTS_DELTA, RULE_ERRORS.points),
  cap: z.optional(z.nullable(wholeIn(1, MAX_POINTS_DELTA, RULE_ERRORS.cap))),
  auto: z.optional(z.boolean({ error: RULE_ERRORS.auto })),
  seasonId: z.optional(z.nullable(wholeIn(1, Number.MAX_SAFE_INTEGER, RULE_ERRORS.badSeasonId))),
});
export type RuleBody = z.input<typeof ruleBody>;

/** A rule's own checks beyond each field: a DKP rule names its season, another rule none. */
export function ruleShapeError(body: { stat: RuleStat; seasonId?: number | null }): string | null {
  if (body.stat === 'dkp' && (body.seasonId === undefined || body.seasonId === null)) return RULE_ERRORS.seasonRequired;
  if (body.stat !== 'dkp' && body.seasonId !== undefined && body.seasonId !== null) return RULE_ERRORS.seasonNotDkp;
  return null;
}

export const rule = z.object({
  id: z.int(),
  name: z.string(),
  stat: z.enum(RULE_STATS),
  per: z.int(),
  points: z.int(),
  cap: z.nullable(z.int()),
  auto: z.boolean(),
  seasonId: z.nullable(z.int()),
  /** The season's name, for a DKP rule. */
  seasonName: z.nullable(z.string()),
  updatedAt: z.int(),
  updatedBy: z.nullable(z.string()),
});
export type Rule = z.infer<typeof rule>;

/**
 * Points of a gain: floor(gain / per) × points, at most the cap (per governor) and at most the
 * ledger's largest single change; nothing for a gain of 0 or less. The one formula: the server pays
 * it, the rule form's example shows it.
 */
export function rulePoints(r: { per: number; points: number; cap: number | null }, gain: number): number {
  if (!(gain > 0)) return 0;
  const units = Math.floor(gain / r.per);
  const points = units * r.points;
  return Math.min(points, r.cap ?? MAX_POINTS_DELTA, MAX_POINTS_DELTA);
}

export const previewBody = z.object({
  fromScanId: wholeIn(1, Number.MAX_SAFE_INTEGER, RULE_ERRORS.badScanId),
  toScanId: wholeIn(1, Number.MAX_SAFE_INTEGER, RULE_ERRORS.badScanId),
});
export type PreviewBody = z.input<typeof previewBody>;

export const award = z.object({
  username: z.string(),
  governorId: z.int(),
  name: z.string(),
  gain: z.number(),
  points: z.int(),
  /** false: the link is the account's sign-up claim (or a link) an admin has not verified yet. */
  verified: z.boolean(),
});
export type Award = z.infer<typeof award>;

export const unlinked = z.object({ governorId: z.int(), name: z.string(), gain: z.number(), points: z.int() });
export type Unlinked = z.infer<typeof unlinked>;

export const runSummary = z.object({
  id: z.int(),
  ruleId: z.int(),
  ruleName: z.string(),
  fromScanId: z.int(),
  toScanId: z.int(),
  entries: z.int(),
  total: z.int(),
  /** Who applied it; null for a run that ran by itself when a scan arrived. */
  appliedBy: z.nullable(z.string()),
  auto: z.boolean(),
  at: z.int(),
});
export type RunSummary = z.infer<typeof runSummary>;

export const rulePreview = z.object({
  token: z.string(),
  ruleId: z.int(),
  fromScanId: z.int(),
  toScanId: z.int(),
  awards: z.array(award),
  unlinked: z.array(unlinked),
  /** Points to accounts (unlinked governors are not paid). */
  total: z.int(),
  /** Points the unlinked governors would earn once linked. */
  unlinkedTotal: z.int(),
  /** Earlier runs of this rule whose scans overlap these (the same gain would be paid twice). */
  overlaps: z.array(z.object({ id: z.int(), fromScanId: z.int(), toScanId: z.int() })),
});
export type RulePreview = z.infer<typeof rulePreview>;

export const applyBody = z.object({
  token: z.string({ error: RULE_ERRORS.tokenRequired }).check(z.minLength(1, RULE_ERRORS.tokenRequired), z.maxLength(100, RULE_ERRORS.tokenUnknown)),
});

/** GET /points/runs: `page` a whole number from 1 to 1,000,000 (absent or empty: the first). */
export const runsQuery = z.object({ page: queryPageOf(RULE_ERRORS.badPage) });

export const appliedRun = z.object({ id: z.int(), entries: z.int(), total: z.int() });
export type AppliedRun = z.infer<typeof appliedRun>;

/** A malformed rule id is a 400 with its text. */
const ruleIdParams = { id: pathId(RULE_ERRORS.badRuleId) };
const ruleAnswer = resultTrue({ rule });
export const runsAnswer = resultTrue({ runs: z.array(runSummary), total: z.int(), page: z.int(), pageSize: z.int() });

/** Automatic points' endpoints: the rules, a run's preview and apply, the runs so far. */
export const AUTOMATIC_POINTS_API = {
  rules: endpoint({ method: 'GET', path: 'points/rules', answer: resultTrue({ rules: z.array(rule) }), errors: [401, 403], tag: 'points', summary: 'The automatic points rules' }),
  create: endpoint({
    method: 'POST',
    path: 'points/rules',
    body: ruleBody,
    answer: ruleAnswer,
    errors: [400, 401, 403, 409],
    tag: 'points',
    summary: `A rule: points paid per "per" of a stat's gain between two scans (stat: ${RULE_STATS.join(', ')}; dkp names its KvK season), capped per governor when cap is set; auto: run whenever a scan arrives`,
  }),
  update: endpoint({
    method: 'PUT',
    path: 'points/rules/:id',
    params: ruleIdParams,
    body: ruleBody,
    answer: ruleAnswer,
    errors: [400, 401, 403, 404],
    tag: 'points',
    summary: 'Change a rule (previews made before no longer apply)',
  }),
  remove: endpoint({ method: 'DELETE', path: 'points/rules/:id', params: ruleIdParams, answer: okAnswer, errors: [400, 401, 403, 404], tag: 'points', summary: 'Delete a rule (its runs and ledger entries stay)' }),
  preview: endpoint({
    method: 'POST',
    path: 'points/rules/:id/preview',
    params: ruleIdParams,
    body: previewBody,
    answer: resultTrue({ preview: rulePreview }),
    errors: [400, 401, 403, 404, 409, 429],
    tag: 'points',
    summary:
      'Preview a run of the rule over two scans: points per governor and the account linked to it (verified or only claimed), governors with no account apart, the total. Nothing is booked; the token applies it within 10 minutes, once, for the account that made it. A run already applied is refused (409).',
  }),
  apply: endpoint({
    method: 'POST',
    path: 'points/rules/:id/apply',
    params: ruleIdParams,
    body: applyBody,
    answer: resultTrue({ run: appliedRun }),
    errors: [400, 401, 403, 404, 409],
    tag: 'points',
    summary:
      'Apply a previewed run: one ledger entry of kind automatic per governor paid (naming the rule and the scans), all or nothing, and each paid player hears VIRTUAL_BALANCE_UPDATE. One rule over one pair of scans applies at most once, ever: a second apply is refused (409).',
  }),
  runs: endpoint({ method: 'GET', path: 'points/runs', query: runsQuery, answer: runsAnswer, errors: [400, 401, 403], tag: 'points', summary: 'Runs of automatic points rules, newest first, 50 a page' }),
} as const;
