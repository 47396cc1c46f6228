import { actorOf, emit } from '../events/events';
import { Conflict, Invalid, NotFound } from '../errors';
import {
  alreadyAppliedText,
  automaticReason,
  RULE_ERRORS,
  RULE_TOKEN_TTL_MS,
  rulePoints,
  RULES_MAX,
  RUNS_PAGE_SIZE,
  type AppliedRun,
  type Award,
  type Rule,
  type RuleStat,
  type RulePreview,
  type RunSummary,
  type Unlinked,
} from '../../src/protocol/automatic-points';
import type { Scan } from '../../src/protocol/scans';
import { recordAudit, type AuditEntry } from '../audit/audit';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { isDatabaseError, writeTransaction, type Queryable } from '../db/write';
import { dkp, type DkpWeights } from '../kvk/dkp';
import { columnOf, findScan, latestScan, scanBefore } from '../scans/scans';
import { bookManyIn } from './ledger';
import type { PreviewRules, PreviewStore } from '../previews/store';
import type { PointsService } from './service';

/**
 * Automatic points: rules that pay kingdom points for a stat's gain
 * between two scans, or for a season's DKP over them. A run is previewed (points per governor and
 * its account; governors without an account apart), then applied as ledger entries of kind
 * `automatic`, one per governor paid, in one write transaction with the run's row, whose unique key
 * (rule, from, to) makes it apply at most once, ever.
 */

export type Actor = AuditEntry['actor'];
export const SYSTEM: Actor = { id: null, name: 'system' };

export interface RuleInput {
  name: string;
  stat: RuleStat;
  per: number;
  points: number;
  cap?: number | null;
  auto?: boolean;
  seasonId?: number | null;
}

function selectRules(db: Queryable) {
  return db
    .selectFrom('points_rules as r')
    .leftJoin('users as u', 'u.id', 'r.updated_by')
    .leftJoin('kvk_seasons as k', 'k.id', 'r.season_id')
    .select(['r.id', 'r.name', 'r.stat', 'r.per', 'r.points', 'r.cap', 'r.auto', 'r.season_id', 'r.updated_at', 'u.username as updated_by_name', 'k.name as season_name'])
    .where('r.deleted_at', 'is', null);
}

/** A rule's row as selectRules reads it (its types are the tables', joins made nullable). */
type RuleRow = Awaited<ReturnType<ReturnType<typeof selectRules>['executeTakeFirstOrThrow']>>;

const toRule = (r: RuleRow): Rule => ({
  id: r.id,
  name: r.name,
  stat: r.stat as RuleStat,
  per: r.per,
  points: r.points,
  cap: r.cap,
  auto: r.auto === 1,
  seasonId: r.season_id,
  seasonName: r.season_name,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by_name,
});

export async function listRules(db: Queryable): Promise<Rule[]> {
  return (await selectRules(db).orderBy('r.id').execute()).map(toRule);
}

export async function findRule(db: Queryable, id: number): Promise<Rule> {
  const row = await selectRules(db).where('r.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound(RULE_ERRORS.unknownRule);
  return toRule(row);
}

async function checkSeason(db: Queryable, input: RuleInput): Promise<void> {
  if (input.stat !== 'dkp') return;
  const season = await db.selectFrom('kvk_seasons').select('id').where('id', '=', input.seasonId ?? 0).executeTakeFirst();
  if (!season) throw new Invalid(RULE_ERRORS.unknownSeason);
}

const ruleValues = (input: RuleInput) => ({
  name: input.name,
  stat: input.stat,
  per: input.per,
  points: input.points,
  cap: input.cap ?? null,
  auto: input.auto ? 1 : 0,
  season_id: input.stat === 'dkp' ? (input.seasonId ?? null) : null,
});

export async function createRule(db: Db, input: RuleInput, actor: Actor, now: number): Promise<Rule> {
  return writeTransaction(db, async (trx) => {
    const { n } = await trx.selectFrom('points_rules').select((eb) => eb.fn.countAll<number>().as('n')).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    if (Number(n) >= RULES_MAX) throw new Conflict(RULE_ERRORS.tooManyRules);
    await checkSeason(trx, input);
    const { id } = await trx
      .insertInto('points_rules')
      .values({ ...ruleValues(input), created_at: now, updated_at: now, updated_by: actor.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actor, action: 'rule.create', target: `rule #${id} "${input.name}"`, detail: ruleValues(input) }, now);
    return findRule(trx, id);
  });
}

export async function updateRule(db: Db, id: number, input: RuleInput, actor: Actor, now: number): Promise<Rule> {
  return writeTransaction(db, async (trx) => {
    const before = await findRule(trx, id);
    await checkSeason(trx, input);
    await trx
      .updateTable('points_rules')
      .set({ ...ruleValues(input), updated_at: Math.max(now, before.updatedAt + 1), updated_by: actor.id })
      .where('id', '=', id)
      .execute();
    const after = ruleValues(input);
    const was = ruleValues({ ...before, seasonId: before.seasonId });
    const changed = Object.fromEntries(Object.entries(after).filter(([k, v]) => was[k as keyof typeof was] !== v).map(([k, v]) => [k, { from: was[k as keyof typeof was], to: v }]));
    await recordAudit(trx, { actor, action: 'rule.edit', target: `rule #${id} "${input.name}"`, detail: changed }, now);
    return findRule(trx, id);
  });
}

/** A deleted rule stops (and no longer runs by itself); its row stays, as its runs and ledger entries name it. */
export async function deleteRule(db: Db, id: number, actor: Actor, now: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const rule = await findRule(trx, id);
    await trx.updateTable('points_rules').set({ deleted_at: now, auto: 0 }).where('id', '=', id).execute();
    await recordAudit(trx, { actor, action: 'rule.delete', target: `rule #${id} "${rule.name}"`, detail: { stat: rule.stat, per: rule.per, points: rule.points } }, now);
  });
}

// ── a run: computed, previewed, applied ─────────────────────────────────────────────────────

/** A run ready to apply: what the preview showed, with the accounts' ids. */
export interface Plan {
  rule: Rule;
  from: Scan;
  to: Scan;
  awards: (Award & { userId: number })[];
  unlinked: Unlinked[];
  total: number;
  unlinkedTotal: number;
}

interface GainRow {
  governor_id: number;
  name: string;
  a: number | null;
  b: number | null;
  c: number | null;
}

/** Each governor's gain of one stat (or of t4Kills, t5Kills and deads for DKP) between two scans: governors in both. */
async function gains(db: Queryable, rule: Rule, from: Scan, to: Scan): Promise<{ governorId: number; name: string; gain: number }[]> {
  const columns = rule.stat === 'dkp' ? (['t4_kills', 't5_kills', 'deads'] as const) : ([columnOf(rule.stat as Exclude<RuleStat, 'dkp'>)] as const);
  const pick = (table: 'f' | 't') => columns.map((c, i) => `${table}.${c} as ${'abc'[i]}`);
  const read = async (scanId: number) =>
    (await db
      .selectFrom('scan_rows as f')
      .select(['f.governor_id', 'f.name', ...pick('f')] as never)
      .where('f.scan_id', '=', scanId)
      .execute()) as unknown as GainRow[];
  const [before, after] = await Promise.all([read(from.id), read(to.id)]);
  const earlier = new Map(before.map((r) => [r.governor_id, r]));
  let weights: DkpWeights | null = null;
  if (rule.stat === 'dkp') {
    const season = await db.selectFrom('kvk_seasons').select('weights').where('id', '=', rule.seasonId ?? 0).executeTakeFirst();
    if (!season) throw new Invalid(RULE_ERRORS.unknownSeason);
    const w = JSON.parse(season.weights) as Partial<DkpWeights>;
    weights = { t4Kills: Number(w.t4Kills) || 0, t5Kills: Number(w.t5Kills) || 0, deads: Number(w.deads) || 0 };
  }
  const diff = (now: number | null, was: number | null | undefined) => (now === null || was === null || was === undefined ? null : now - was);
  const out: { governorId: number; name: string; gain: number }[] = [];
  for (const r of after) {
    const old = earlier.get(r.governor_id);
    if (!old) continue; // arrived since: no gain to measure
    let gain: number | null;
    // a stat not scanned counts as no gain in DKP (server/kvk/dkp.ts)
    if (weights) gain = dkp(weights, { t4Kills: diff(r.a, old.a) ?? 0, t5Kills: diff(r.b, old.b) ?? 0, deads: diff(r.c, old.c) ?? 0 });
    else gain = diff(r.a, old.a);
    if (gain !== null && gain > 0) out.push({ governorId: r.governor_id, name: r.name, gain });
  }
  return out;
}

/** The two scans of a run, the earlier first (by takenAt, then id). */
async function scanPair(db: Queryable, fromScanId: number, toScanId: number): Promise<{ from: Scan; to: Scan }> {
  if (fromScanId === toScanId) throw new Invalid(RULE_ERRORS.sameScan);
  const lookup = async (id: number) => {
    try {
      return await findScan(db, id);
    } catch {
      throw new NotFound(RULE_ERRORS.unknownScan);
    }
  };
  const [from, to] = await Promise.all([lookup(fromScanId), lookup(toScanId)]);
  if (from.takenAt > to.takenAt || (from.takenAt === to.takenAt && from.id > to.id)) throw new Invalid(RULE_ERRORS.fromAfterTo);
  return { from, to };
}

async function existingRun(db: Queryable, ruleId: number, fromScanId: number, toScanId: number): Promise<number | null> {
  const row = await db.selectFrom('points_runs').select('id').where('rule_id', '=', ruleId).where('from_scan_id', '=', fromScanId).where('to_scan_id', '=', toScanId).executeTakeFirst();
  return row?.id ?? null;
}

/** What a run of the rule over the two scans would pay: per governor, to the account linked to it. */
export async function planRun(db: Queryable, rule: Rule, from: Scan, to: Scan): Promise<Plan> {
  const [earned, links] = await Promise.all([
    gains(db, rule, from, to),
    db.selectFrom('governor_links as l').innerJoin('users as u', 'u.id', 'l.user_id').select(['l.governor_id', 'l.verified', 'u.id as user_id', 'u.username']).execute(),
  ]);
  const linked = new Map(links.map((l) => [l.governor_id, l]));
  const awards: Plan['awards'] = [];
  const unlinked: Unlinked[] = [];
  let total = 0;
  let unlinkedTotal = 0;
  for (const g of earned) {
    const points = rulePoints(rule, g.gain);
    if (points <= 0) continue;
    const link = linked.get(g.governorId);
    if (!link) {
      unlinked.push({ governorId: g.governorId, name: g.name, gain: g.gain, points });
      unlinkedTotal += points;
      continue;
    }
    awards.push({ userId: link.user_id, username: link.username, governorId: g.governorId, name: g.name, gain: g.gain, points, verified: link.verified === 1 });
    total += points;
  }
  const byPoints = (a: { points: number; governorId: number }, b: { points: number; governorId: number }) => b.points - a.points || a.governorId - b.governorId;
  awards.sort(byPoints);
  unlinked.sort(byPoints);
  return { rule, from, to, awards, unlinked, total, unlinkedTotal };
}

/**
 * Earlier runs of the rule whose scans overlap [from, to] in time: the same gain would be paid twice.
 * A run keeps its scans' times, so it still counts after a scan of it is deleted or imported again.
 */
async function overlapping(db: Queryable, rule: Rule, from: Scan, to: Scan): Promise<{ id: number; fromScanId: number; toScanId: number }[]> {
  const rows = await db
    .selectFrom('points_runs as r')
    .select(['r.id', 'r.from_scan_id', 'r.to_scan_id'])
    .where('r.rule_id', '=', rule.id)
    .where('r.from_taken_at', '<', to.takenAt)
    .where('r.to_taken_at', '>', from.takenAt)
    .orderBy('r.id')
    .limit(20)
    .execute();
  return rows.map((r) => ({ id: r.id, fromScanId: r.from_scan_id, toScanId: r.to_scan_id }));
}

/**
 * Books a run in one write transaction: the run's row first (its unique key refuses a second run
 * of the rule over the same scans, whoever got there first), then one `automatic` ledger entry per
 * governor paid, and the audit entry. Answers the run and every account it paid, as committed.
 * The rule and its two scans must still be as previewed (not edited, deleted nor replaced since);
 * `claim` (the preview's) runs first in the transaction.
 */
export async function bookRun(db: Db, plan: Plan, actor: Actor, auto: boolean, now: number, claim?: (trx: Queryable) => Promise<void>): Promise<{ run: AppliedRun; touched: Map<number, UserRow> }> {
  const { rule, from, to } = plan;
  try {
    return await writeTransaction(db, async (trx) => {
      // first: the preview it comes from, marked applied with the run (a throw below undoes it)
      await claim?.(trx);
      const current = await trx.selectFrom('points_rules').select(['updated_at', 'deleted_at']).where('id', '=', rule.id).executeTakeFirst();
      if (!current || current.deleted_at !== null || current.updated_at !== rule.updatedAt) throw new Conflict(RULE_ERRORS.ruleChanged);
      // and its two scans must be the ones previewed: not deleted, nor replaced by another import under the same id
      const scans = await trx.selectFrom('scans').select(['id', 'created_at', 'taken_at', 'rows']).where('id', 'in', [from.id, to.id]).execute();
      const same = (scan: Scan) => scans.some((s) => s.id === scan.id && s.created_at === scan.createdAt && s.taken_at === scan.takenAt && s.rows === scan.rows);
      if (!same(from) || !same(to)) throw new Conflict(RULE_ERRORS.scanChanged);
      const already = await existingRun(trx, rule.id, from.id, to.id);
      if (already !== null) throw new Conflict(alreadyAppliedText(already));
      const { id } = await trx
        .insertInto('points_runs')
        .values({ rule_id: rule.id, from_scan_id: from.id, to_scan_id: to.id, from_taken_at: from.takenAt, to_taken_at: to.takenAt, entries: plan.awards.length, total: plan.total, actor_id: actor.id, auto: auto ? 1 : 0, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      // the ledger entries this run books are those after the last one now (the write transaction is exclusive)
      const before = await lastLedgerId(trx);
      const touched = await bookManyIn(
        trx,
        plan.awards.map((a) => ({ userId: a.userId, delta: a.points, kind: 'automatic' as const, reason: automaticReason(rule, from.id, to.id, a.governorId), actorId: actor.id })),
        now,
      );
      await recordAudit(
        trx,
        { actor, action: 'rule.apply', target: `rule #${rule.id} "${rule.name}"`, detail: { run: id, fromScanId: from.id, toScanId: to.id, entries: plan.awards.length, total: plan.total, auto } },
        now,
      );
      const actorName = actorOf(actor.id);
      await emit(trx, 'rule.applied', { ruleId: rule.id, runId: id, fromScanId: from.id, toScanId: to.id, entries: plan.awards.length, total: plan.total, auto }, actorName, now);
      const last = await lastLedgerId(trx);
      await emit(trx, 'points.booked', { entries: plan.awards.length, users: [...touched.keys()], total: plan.total, ...(last > before ? { ledger: [before + 1, last] as [number, number] } : {}) }, actorName, now);
      return { run: { id, entries: plan.awards.length, total: plan.total }, touched };
    });
  } catch (error) {
    // the unique key: another apply of the same run committed first (another process, or a retry)
    if (isDatabaseError(error) && String((error as Error).message).includes('points_runs')) {
      const already = await existingRun(db, rule.id, from.id, to.id);
      if (already !== null) throw new Conflict(alreadyAppliedText(already));
    }
    throw error;
  }
}

export async function listRuns(db: Db, page = 1): Promise<{ runs: RunSummary[]; total: number; page: number; pageSize: number }> {
  const rows = await db
    .selectFrom('points_runs as r')
    .innerJoin('points_rules as p', 'p.id', 'r.rule_id')
    .leftJoin('users as u', 'u.id', 'r.actor_id')
    .select(['r.id', 'r.rule_id', 'p.name', 'r.from_scan_id', 'r.to_scan_id', 'r.entries', 'r.total', 'u.username', 'r.auto', 'r.created_at'])
    .orderBy('r.id', 'desc')
    .limit(RUNS_PAGE_SIZE)
    .offset((page - 1) * RUNS_PAGE_SIZE)
    .execute();
  const { n } = await db.selectFrom('points_runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return {
    runs: rows.map((r) => ({
      id: r.id,
      ruleId: r.rule_id,
      ruleName: r.name,
      fromScanId: r.from_scan_id,
      toScanId: r.to_scan_id,
      entries: r.entries,
      total: r.total,
      appliedBy: r.username ?? null,
      auto: r.auto === 1,
      at: r.created_at,
    })),
    total: Number(n),
    page,
    pageSize: RUNS_PAGE_SIZE,
  };
}

// ── previews waiting to be applied ──────────────────────────────────────────────────────────

/** Previews one account keeps at once (each up to a kingdom's governors); its oldest goes first, never another's. */
export const MAX_RULE_PREVIEWS_PER_USER = 10;

const RULE_PREVIEWS: PreviewRules = { kind: 'rule', ttlMs: RULE_TOKEN_TTL_MS, perOwner: MAX_RULE_PREVIEWS_PER_USER };

/** A rule preview's small part (the previews table's payload); its body is the plan. */
interface RuleHead {
  ruleId: number;
}

/**
 * Rule previews by token, kept in the database (PreviewStore) so the apply may reach any process:
 * for the account that made them, 10 minutes and one apply (as bulk awards' are).
 */
export class RulePreviews {
  constructor(private readonly store: PreviewStore) {}

  async add(actorId: number, plan: Plan, overlaps: RulePreview['overlaps']): Promise<RulePreview> {
    const token = await this.store.keep<RuleHead, Plan>(RULE_PREVIEWS, actorId, { ruleId: plan.rule.id }, plan);
    return {
      token,
      ruleId: plan.rule.id,
      fromScanId: plan.from.id,
      toScanId: plan.to.id,
      awards: plan.awards.map(({ userId: _userId, ...a }) => a),
      unlinked: plan.unlinked,
      total: plan.total,
      unlinkedTotal: plan.unlinkedTotal,
      overlaps,
    };
  }

  /** The plan to apply: another account's, another rule's, an expired or unknown token is a 400, an applied one a 409. */
  async take(token: string, actorId: number, ruleId: number): Promise<Plan> {
    const found = await this.store.find<RuleHead>('rule', actorId, token);
    if (!found || found.payload.ruleId !== ruleId) throw new Invalid(RULE_ERRORS.tokenUnknown);
    if (found.applied) throw new Conflict(RULE_ERRORS.tokenUsed);
    const plan = await this.store.body<Plan>('rule', actorId, token);
    // applied (or gone) since it was found
    if (!plan) throw new Conflict(RULE_ERRORS.tokenUsed);
    return plan;
  }

  /** Marks it applied in the run's write transaction: a second apply of the same token, on any process, is refused, not raced. */
  async claim(trx: Queryable, token: string, actorId: number): Promise<void> {
    const claim = await this.store.claim(trx, 'rule', actorId, token);
    if (claim === 'applied') throw new Conflict(RULE_ERRORS.tokenUsed);
    if (claim === 'unknown') throw new Invalid(RULE_ERRORS.tokenUnknown);
  }
}

// ── the service: previews, applies through the engine's queue, runs by itself ─────────────────

/**
 * How a run's balances are booked: through the auction engine's serial queue (so they keep their
 * place among the bids'), then each paid account's open pages are told its new balance. The one
 * place this module touches the engine: the grant route does the same today.
 */
export type Booker = Pick<PointsService, 'bookWith'>;

export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export class AutomaticPoints {
  readonly previews: RulePreviews;

  constructor(
    private readonly db: Db,
    private readonly booker: Booker,
    store: PreviewStore,
    private readonly log: Log,
  ) {
    this.previews = new RulePreviews(store);
  }

  async preview(ruleId: number, fromScanId: number, toScanId: number, actorId: number): Promise<RulePreview> {
    const rule = await findRule(this.db, ruleId);
    const { from, to } = await scanPair(this.db, fromScanId, toScanId);
    const already = await existingRun(this.db, rule.id, from.id, to.id);
    if (already !== null) throw new Conflict(alreadyAppliedText(already));
    const plan = await planRun(this.db, rule, from, to);
    return this.previews.add(actorId, plan, await overlapping(this.db, rule, from, to));
  }

  async apply(ruleId: number, token: string, actor: { id: number; name: string }): Promise<AppliedRun> {
    const plan = await this.previews.take(token, actor.id, ruleId);
    if (plan.awards.length === 0) throw new Invalid(RULE_ERRORS.nothingToApply);
    // refused as a whole (rolled back with its claim): the same preview may be tried again
    const run = await this.book(plan, actor, false, (trx) => this.previews.claim(trx, token, actor.id));
    this.log.info({ by: actor.id, rule: ruleId, run: run.id, entries: run.entries, total: run.total }, 'automatic points applied');
    return run;
  }

  private book(plan: Plan, actor: Actor, auto: boolean, claim?: (trx: Queryable) => Promise<void>): Promise<AppliedRun> {
    // in the engine's queue; once committed, the paid players' open pages hear of it
    return this.booker.bookWith(async (at) => {
      const { run, touched } = await bookRun(this.db, plan, actor, auto, at, claim);
      return { value: run, users: touched.values() };
    });
  }

  /**
   * A scan was applied (a reaction to `scan.applied`, after its commit): every rule with auto on
   * runs over it and the scan before it (by takenAt), one run at a time. Only for the newest scan: a
   * scan filed in the past would overlap runs already paid. A run already applied, or that pays no
   * account, is skipped; so is one whose time overlaps a run of the rule already paid (the newest
   * scan replaced a deleted one, say): paying it again is a person's decision, made on the preview
   * that names the overlap. Safe to run twice for one scan: a run applies once, ever (its unique key).
   */
  async runAfterScan(scanId: number): Promise<void> {
    const scan = await findScan(this.db, scanId).catch((error: unknown) => {
      if (error instanceof NotFound) return null;
      throw error;
    });
    // deleted since: nothing to run over
    if (scan) await this.runAuto(scan);
  }

  private async runAuto(scan: Scan): Promise<void> {
    const latest = await latestScan(this.db);
    if (!latest || latest.id !== scan.id) return;
    const previous = await scanBefore(this.db, scan.takenAt, scan.id);
    if (!previous) return;
    const rules = (await listRules(this.db)).filter((r) => r.auto);
    for (const rule of rules) {
      try {
        if ((await existingRun(this.db, rule.id, previous.id, scan.id)) !== null) continue;
        const overlaps = await overlapping(this.db, rule, previous, scan);
        if (overlaps.length) {
          this.log.warn({ rule: rule.id, from: previous.id, to: scan.id, overlaps: overlaps.map((o) => o.id) }, 'automatic points did not run by themselves: the time overlaps a run already paid');
          continue;
        }
        const plan = await planRun(this.db, rule, previous, scan);
        if (plan.awards.length === 0) continue;
        const run = await this.book(plan, SYSTEM, true);
        this.log.info({ rule: rule.id, run: run.id, entries: run.entries, total: run.total, from: previous.id, to: scan.id }, 'automatic points ran by themselves');
      } catch (error) {
        // one rule's failure (edited meanwhile, a season deleted) does not stop the others
        if (error instanceof Conflict) continue;
        this.log.error({ err: error, rule: rule.id, scan: scan.id }, 'an automatic points rule failed to run');
      }
    }
  }
}

/** The id of the newest ledger entry (0: none). */
async function lastLedgerId(trx: Queryable): Promise<number> {
  const { last } = await trx.selectFrom('points_transactions').select((eb) => eb.fn.max('id').as('last')).executeTakeFirstOrThrow();
  return Number(last ?? 0);
}
