import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import { rankAllows } from '../auth/access';
import { actorOf, emit } from '../events/events';
import { sql } from 'kysely';
import {
  KVK_TEMPLATES,
  bracket as bracketSchema,
  KVK_ERRORS,
  KVK_MAX_SEASONS,
  kvkWindow,
  weights as weightsSchema,
  type Bracket,
  type KvkWindow,
  type Mark,
  type MarkRow,
  type ScanRef,
  type Season,
  type Weights,
} from '../../src/protocol/kvk';
import { fill } from '../../src/protocol/texts';
import * as z from 'zod/mini';
import { recordAudit } from '../audit/audit';
import type { Db } from '../db/open';
import type { KvkSeasonsTable } from '../db/schema-stats';
import { writeTransaction, type Queryable } from '../db/write';
import type { Selectable } from 'kysely';

/**
 * KvK seasons: created and edited by an admin, closed by fixing the end scan;
 * governors marked zeroed or exempt by leadership. Every change records an audit entry in its own
 * write transaction. The standings are computed in ./standings.ts.
 */

export type SeasonRow = Selectable<KvkSeasonsTable>;
export interface Actor {
  id: number;
  name: string;
}

/** What a season is after the body was validated: its scans exist and are in order (checked here, by takenAt). */
export interface SeasonInput {
  name: string;
  startScanId: number;
  endScanId?: number | null;
  weights: Weights;
  brackets: Bracket[];
  windows?: KvkWindow[];
  /** Absent: unchanged on an edit, not published on a new season. */
  published?: boolean;
}

/** Who reads the seasons: leadership reads every season with its marks' reasons; another rank only published seasons, without them. */
export const readsAll = (rank: string) => rankAllows(rank, 'council+admin');

/** A reader who is not leadership may read a season's standings only while it is published (403 otherwise). */
export function checkMayRead(row: SeasonRow, rank: string): void {
  if (!readsAll(rank) && row.published_at === null) throw new Forbidden(KVK_ERRORS.notPublished);
}

/** An edit or a mark's change bumps this, so cached standings of the season are computed anew (two edits may share a millisecond); kept per database, as several may be open in one process (tests). */
const versions = new WeakMap<Db, Map<number, number>>();
export const seasonVersion = (db: Db, seasonId: number) => versions.get(db)?.get(seasonId) ?? 0;
function bump(db: Db, seasonId: number): void {
  let mine = versions.get(db);
  if (!mine) versions.set(db, (mine = new Map()));
  mine.set(seasonId, seasonVersion(db, seasonId) + 1);
}

/** `a` is taken strictly after `b`: by takenAt, then by id (two scans of the same second keep their upload order). */
export const after = (a: ScanRef, b: ScanRef) => a.takenAt > b.takenAt || (a.takenAt === b.takenAt && a.id > b.id);

async function scanRef(db: Queryable, id: number): Promise<ScanRef | null> {
  const row = await db.selectFrom('scans').select(['id', 'taken_at']).where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, takenAt: row.taken_at } : null;
}

/** The latest scan by takenAt (then id), or null. */
export async function latestScanRef(db: Queryable): Promise<ScanRef | null> {
  const row = await db.selectFrom('scans').select(['id', 'taken_at']).orderBy('taken_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? { id: row.id, takenAt: row.taken_at } : null;
}

/** Parses stored JSON with the protocol's schema; a row written by this code always parses. */
function stored<T extends z.ZodMiniType>(schema: T, text: string): z.infer<T> {
  return z.parse(schema, JSON.parse(text));
}

/** A season as the wire shows it: its scans resolved (the latest standing in for the end while it runs, when it is after the start). */
export async function toSeason(db: Queryable, row: SeasonRow, latest?: ScanRef | null): Promise<Season> {
  const start = (await scanRef(db, row.start_scan_id)) as ScanRef;
  let end: ScanRef | null;
  if (row.end_scan_id !== null) end = await scanRef(db, row.end_scan_id);
  else {
    const last = latest === undefined ? await latestScanRef(db) : latest;
    end = last && after(last, start) ? last : null;
  }
  const { marks } = await db
    .selectFrom('kvk_marks')
    .select((eb) => eb.fn.countAll<number>().as('marks'))
    .where('season_id', '=', row.id)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    name: row.name,
    startScanId: row.start_scan_id,
    endScanId: row.end_scan_id,
    running: row.end_scan_id === null,
    startScan: start,
    endScan: end,
    weights: stored(weightsSchema, row.weights),
    brackets: stored(z.array(bracketSchema), row.brackets),
    windows: stored(z.array(kvkWindow), row.windows),
    marks: Number(marks),
    published: row.published_at !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findSeasonRow(db: Queryable, id: number): Promise<SeasonRow> {
  const row = await db.selectFrom('kvk_seasons').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound(KVK_ERRORS.unknownSeason);
  return row;
}

/** Every season the rank may read (see readsAll), the latest start first (running ones before closed ones of the same start). */
export async function listSeasons(db: Db, rank: string): Promise<Season[]> {
  const rows = await db
    .selectFrom('kvk_seasons as k')
    .$if(!readsAll(rank), (q) => q.where('k.published_at', 'is not', null))
    .innerJoin('scans as s', 's.id', 'k.start_scan_id')
    .selectAll('k')
    .orderBy(sql`k.end_scan_id is null`, 'desc')
    .orderBy('s.taken_at', 'desc')
    .orderBy('k.id', 'desc')
    .limit(KVK_MAX_SEASONS)
    .execute();
  const latest = await latestScanRef(db);
  return Promise.all(rows.map((r) => toSeason(db, r, latest)));
}

/** The running season (no end scan) that started last, or null. */
export async function runningSeason(db: Queryable): Promise<SeasonRow | null> {
  const row = await db
    .selectFrom('kvk_seasons as k')
    .innerJoin('scans as s', 's.id', 'k.start_scan_id')
    .selectAll('k')
    .where('k.end_scan_id', 'is', null)
    .orderBy('s.taken_at', 'desc')
    .orderBy('k.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** Scans exist, the end is after the start, each window ends after it starts (by takenAt); a 400 with a clear text otherwise. */
async function checkScans(db: Queryable, input: SeasonInput): Promise<void> {
  const start = await scanRef(db, input.startScanId);
  if (!start) throw new Invalid(KVK_ERRORS.unknownStartScan);
  if (input.endScanId !== undefined && input.endScanId !== null) {
    const end = await scanRef(db, input.endScanId);
    if (!end) throw new Invalid(KVK_ERRORS.unknownEndScan);
    if (!after(end, start)) throw new Invalid(KVK_ERRORS.endBeforeStart);
  }
  for (const w of input.windows ?? []) {
    const from = await scanRef(db, w.fromScanId);
    const to = await scanRef(db, w.toScanId);
    if (!from || !to) throw new Invalid(KVK_ERRORS.unknownWindowScan);
    if (!after(to, from)) throw new Invalid(fill(KVK_TEMPLATES.windowBackwardsIn, { window: w.name }));
  }
}

const columns = (input: SeasonInput) => ({
  name: input.name,
  start_scan_id: input.startScanId,
  end_scan_id: input.endScanId ?? null,
  weights: JSON.stringify({ t4Kills: input.weights.t4Kills, t5Kills: input.weights.t5Kills, deads: input.weights.deads }),
  brackets: JSON.stringify(input.brackets.map((b) => ({ minPower: b.minPower, kills: b.kills, deads: b.deads }))),
  windows: JSON.stringify((input.windows ?? []).map((w) => ({ name: w.name, fromScanId: w.fromScanId, toScanId: w.toScanId }))),
});

/** POST kvk/seasons: a new season; audited as season.create. */
export async function createSeason(db: Db, input: SeasonInput, actor: Actor, now: number): Promise<Season> {
  return writeTransaction(db, async (trx) => {
    await checkScans(trx, input);
    const { count } = await trx.selectFrom('kvk_seasons').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    if (Number(count) >= KVK_MAX_SEASONS) throw new Conflict(KVK_ERRORS.tooManySeasons);
    const row = await trx
      .insertInto('kvk_seasons')
      .values({ ...columns(input), published_at: input.published ? now : null, created_at: now, updated_at: now, updated_by: actor.id })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actor, action: 'season.create', target: input.name, detail: { season: row.id, startScanId: input.startScanId, endScanId: input.endScanId ?? null } }, now);
    await emit(trx, 'season.changed', { seasonId: row.id, change: 'created' }, actorOf(actor.id), now);
    return toSeason(trx, row);
  });
}

/** PUT kvk/seasons/:id: the whole season replaced (fixing the end scan closes it; null reopens it); audited as season.edit (or season.close), unless nothing changed. */
export async function updateSeason(db: Db, id: number, input: SeasonInput, actor: Actor, now: number): Promise<Season> {
  return writeTransaction(db, async (trx) => {
    const before = await findSeasonRow(trx, id);
    await checkScans(trx, input);
    const after = columns(input);
    // every column the input writes, compared (columns() is the one list of them)
    const changed: string[] = (Object.keys(after) as (keyof typeof after)[]).filter((k) => before[k] !== after[k]);
    // published: kept when the body leaves it out; a season published again keeps its first time
    const publishedAt = input.published === undefined ? before.published_at : input.published ? (before.published_at ?? now) : null;
    if ((publishedAt === null) !== (before.published_at === null)) changed.push('published');
    // a save with nothing changed writes nothing and leaves no empty entry in the audit log
    if (changed.length === 0) return toSeason(trx, before);
    const row = await trx
      .updateTable('kvk_seasons')
      .set({ ...after, published_at: publishedAt, updated_at: now, updated_by: actor.id })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const closed = before.end_scan_id === null && row.end_scan_id !== null;
    await recordAudit(trx, { actor, action: closed ? 'season.close' : 'season.edit', target: row.name, detail: { season: id, changed, endScanId: row.end_scan_id, published: row.published_at !== null } }, now);
    await emit(trx, 'season.changed', { seasonId: id, change: closed ? 'closed' : 'edited' }, actorOf(actor.id), now);
    return toSeason(trx, row);
  }).finally(() => bump(db, id));
}

/** Marks of a season, with each governor's name as the season's start scan saw it. */
export async function listMarks(db: Db, seasonId: number): Promise<MarkRow[]> {
  const season = await findSeasonRow(db, seasonId);
  const rows = await db
    .selectFrom('kvk_marks as m')
    .leftJoin('scan_rows as r', (j) => j.onRef('r.governor_id', '=', 'm.governor_id').on('r.scan_id', '=', season.start_scan_id))
    .leftJoin('users as u', 'u.id', 'm.marked_by')
    .select(['m.governor_id', 'm.mark', 'm.reason', 'm.marked_at', 'r.name', 'u.username'])
    .where('m.season_id', '=', seasonId)
    .orderBy('m.marked_at', 'desc')
    .orderBy('m.governor_id')
    .execute();
  return rows.map((r) => ({ governorId: r.governor_id, name: r.name ?? '', mark: r.mark, reason: r.reason, markedBy: r.username ?? null, markedAt: r.marked_at }));
}


/** PUT kvk/seasons/:id/marks/:governorId: a governor of the start scan marked zeroed or exempt (replacing its mark); audited as season.mark. */
export async function markGovernor(db: Db, seasonId: number, governorId: number, mark: { mark: Mark; reason: string }, actor: Actor, now: number): Promise<MarkRow> {
  const saved = await writeTransaction(db, async (trx) => {
    const season = await findSeasonRow(trx, seasonId);
    const row = await trx.selectFrom('scan_rows').select('name').where('scan_id', '=', season.start_scan_id).where('governor_id', '=', governorId).executeTakeFirst();
    if (!row) throw new NotFound(KVK_ERRORS.notInSeason);
    await trx
      .insertInto('kvk_marks')
      .values({ season_id: seasonId, governor_id: governorId, mark: mark.mark, reason: mark.reason, marked_by: actor.id, marked_at: now })
      .onConflict((oc) => oc.columns(['season_id', 'governor_id']).doUpdateSet({ mark: mark.mark, reason: mark.reason, marked_by: actor.id, marked_at: now }))
      .execute();
    await recordAudit(trx, { actor, action: 'season.mark', target: `${row.name || governorId} (${governorId})`, detail: { season: seasonId, governorId, mark: mark.mark, reason: mark.reason } }, now);
    await emit(trx, 'season.changed', { seasonId, change: 'marks' }, actorOf(actor.id), now);
    return { governorId, name: row.name, mark: mark.mark, reason: mark.reason, markedBy: actor.name, markedAt: now };
  });
  bump(db, seasonId);
  return saved;
}

/** DELETE kvk/seasons/:id/marks/:governorId: the mark taken back; audited as season.unmark. */
export async function unmarkGovernor(db: Db, seasonId: number, governorId: number, actor: Actor, now: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    await findSeasonRow(trx, seasonId);
    const old = await trx.selectFrom('kvk_marks').selectAll().where('season_id', '=', seasonId).where('governor_id', '=', governorId).executeTakeFirst();
    if (!old) throw new NotFound(KVK_ERRORS.noMark);
    await trx.deleteFrom('kvk_marks').where('season_id', '=', seasonId).where('governor_id', '=', governorId).execute();
    await recordAudit(trx, { actor, action: 'season.unmark', target: String(governorId), detail: { season: seasonId, governorId, was: old.mark } }, now);
    await emit(trx, 'season.changed', { seasonId, change: 'marks' }, actorOf(actor.id), now);
  });
  bump(db, seasonId);
}

/** Whether a season uses a scan (as start, end or in a window): such a scan may not be deleted. */
export async function seasonUsesScan(db: Queryable, scanId: number): Promise<boolean> {
  const rows = await db.selectFrom('kvk_seasons').select(['start_scan_id', 'end_scan_id', 'windows']).execute();
  return rows.some((r) => r.start_scan_id === scanId || r.end_scan_id === scanId || stored(z.array(kvkWindow), r.windows).some((w) => w.fromScanId === scanId || w.toScanId === scanId));
}
