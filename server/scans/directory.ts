import { sql } from 'kysely';
import { SCAN_ERRORS, STATS, type Scan, type Stat } from '../../src/protocol/scans';
import {
  METRIC_ERRORS,
  PLAYER_ID_ERRORS,
  type AllianceRow,
  type MetricScope,
  OWN_GOVERNORS_MAX,
  type OwnGovernor,
  type PlayerLink,
  type Series,
} from '../../src/protocol/scans-api';
import type { Db } from '../db/open';
import { writeTransaction } from '../db/write';
import { recordAuditBy } from '../audit/audit';
import { findUserByUsername } from '../users/users';
import { columnOf, findScan, latestScan } from './scans';
import { Invalid, NotFound } from '../errors';

/** Alliances, metric series and the links between accounts and governors: what the scans say, read for the dashboards and the admin pages. */

// ── alliances ──────────────────────────────────────────────────────────────────────────────

/** The alliances of a scan (the latest by default) by power, with leadership's name for each and whether it is the kingdom's; apart, the sums of the governors in none. */
export async function listAlliances(db: Db, scanId?: number): Promise<{ scan: Scan | null; alliances: AllianceRow[]; unaffiliated: AllianceRow | null }> {
  const scan = scanId !== undefined ? await findScan(db, scanId) : await latestScan(db);
  if (!scan) return { scan: null, alliances: [], unaffiliated: null };
  const all = await db
    .selectFrom('scan_alliances as a')
    .leftJoin('alliances as n', 'n.tag', 'a.alliance')
    .select(['a.alliance', 'a.members', 'a.power', 'a.killpoints', 'a.deads', 'a.t4_kills', 'a.t5_kills', 'n.name', 'n.ours'])
    .where('a.scan_id', '=', scan.id)
    .orderBy(sql`a.power is null`)
    .orderBy('a.power', 'desc')
    .orderBy('a.alliance')
    .execute();
  const row = (r: (typeof all)[number]): AllianceRow => ({
    tag: r.alliance,
    name: r.name ?? '',
    ours: r.ours === 1,
    members: r.members,
    power: r.power,
    killpoints: r.killpoints,
    deads: r.deads,
    t4Kills: r.t4_kills,
    t5Kills: r.t5_kills,
  });
  // governors in no alliance are summed apart (the empty tag): a row of their own, never an alliance
  const none = all.find((r) => r.alliance === '');
  return { scan, alliances: all.filter((r) => r.alliance !== '').map(row), unaffiliated: none ? row(none) : null };
}

/** Leadership names an alliance and says whether it is the kingdom's (any tag: one not yet scanned may be named ahead). */
export async function saveAlliance(db: Db, tag: string, change: { name?: string; ours?: boolean }, actorId: number, now: number): Promise<{ tag: string; name: string; ours: boolean }> {
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom('alliances').selectAll().where('tag', '=', tag).executeTakeFirst();
    const name = change.name?.trim() ?? current?.name ?? '';
    const ours = change.ours ?? current?.ours === 1;
    await trx
      .insertInto('alliances')
      .values({ tag, name, ours: ours ? 1 : 0, updated_at: now, updated_by: actorId })
      .onConflict((oc) => oc.column('tag').doUpdateSet({ name, ours: ours ? 1 : 0, updated_at: now, updated_by: actorId }))
      .execute();
    await recordAuditBy(trx, actorId, 'alliance.change', tag, { name, ours, ...(current ? { was: { name: current.name, ours: current.ours === 1 } } : {}) }, now);
    return { tag, name, ours };
  });
}

// ── metrics ────────────────────────────────────────────────────────────────────────────────

/** The stats a series asks for: a comma-separated list of known stats (power and kill points when none). */
export function parseStats(text: string | undefined): Stat[] {
  if (text === undefined || text.trim() === '') return ['power', 'killpoints'];
  const stats = [...new Set(text.split(',').map((s) => s.trim()))];
  if (stats.some((s) => !(STATS as readonly string[]).includes(s))) throw new Invalid(METRIC_ERRORS.stats);
  return stats as Stat[];
}

/** One point per scan, oldest first: the kingdom's totals, an alliance's (by tag) or a governor's (by id). */
export async function metricSeries(db: Db, scope: MetricScope, key: string | undefined, stats: Stat[]): Promise<Series> {
  const columns = stats.map(columnOf);
  const pick = (row: Record<string, unknown>) => Object.fromEntries(stats.map((s, i) => [s, (row[columns[i]] as number | null) ?? null]));
  if (scope === 'kingdom') {
    const rows = await db.selectFrom('scan_totals as t').innerJoin('scans as s', 's.id', 't.scan_id').selectAll('t').select('s.taken_at').orderBy('s.taken_at').orderBy('s.id').execute();
    return { scope, key: null, stats, points: rows.map((r) => ({ scanId: r.scan_id, takenAt: r.taken_at, members: r.governors, values: pick(r) })) };
  }
  if (key === undefined || key.trim() === '') throw new Invalid(METRIC_ERRORS.key);
  if (scope === 'alliance') {
    const rows = await db
      .selectFrom('scan_alliances as a')
      .innerJoin('scans as s', 's.id', 'a.scan_id')
      .selectAll('a')
      .select('s.taken_at')
      .where('a.alliance', '=', key)
      .orderBy('s.taken_at')
      .orderBy('s.id')
      .execute();
    return { scope, key, stats, points: rows.map((r) => ({ scanId: r.scan_id, takenAt: r.taken_at, members: r.members, values: pick(r) })) };
  }
  if (!/^\d{1,15}$/.test(key) || Number(key) < 1) throw new Invalid(SCAN_ERRORS.badGovernorId);
  const rows = await db
    .selectFrom('scan_rows as r')
    .innerJoin('scans as s', 's.id', 'r.scan_id')
    .selectAll('r')
    .select('s.taken_at')
    .where('r.governor_id', '=', Number(key))
    .orderBy('s.taken_at')
    .orderBy('s.id')
    .execute();
  return { scope, key, stats, points: rows.map((r) => ({ scanId: r.scan_id, takenAt: r.taken_at, members: null, values: pick(r) })) };
}

// ── player ids: accounts and their governors ──────────────────────────────────────────────────

export const PLAYER_IDS_PAGE_SIZE = 50;

/** Whether the account is linked to the governor (its own claim or a farm): a player may read its own governors' statistics. */
export async function ownsGovernor(db: Db, userId: number, governorId: number): Promise<boolean> {
  const link = await db.selectFrom('governor_links').select('user_id').where('governor_id', '=', governorId).executeTakeFirst();
  return link?.user_id === userId;
}

/** Links between accounts and governors, with the account's row. */
const links = (db: Db) => db.selectFrom('governor_links as l').innerJoin('users as u', 'u.id', 'l.user_id');

/** Whether a link's governor is its account's main one (the sign-up's claim). */
const isMain = (row: { governor_id: number; playerid: string }) => String(row.governor_id) === row.playerid;

/** Links sorted main first, in their order otherwise (the sort is stable). */
const mainFirst = <R extends { governor_id: number; playerid: string }>(rows: R[]): R[] => rows.sort((a, b) => Number(isMain(b)) - Number(isMain(a)));

/** The account's governors, its main (the sign-up's claim) first. */
export async function governorsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await links(db).select(['l.governor_id', 'u.playerid']).where('l.user_id', '=', userId).orderBy('l.governor_id').execute();
  return mainFirst(rows).map((r) => r.governor_id);
}

/** Each link's governor, account and whether verified, with the governor's name in the latest scan that saw it (null: never scanned). */
function namedLinks(query: ReturnType<typeof links>) {
  return query
    .select(['l.governor_id', 'l.verified', 'u.username', 'u.playerid'])
    .select((eb) =>
      eb
        .selectFrom('scan_rows as r')
        .innerJoin('scans as s', 's.id', 'r.scan_id')
        .select('r.name')
        .whereRef('r.governor_id', '=', 'l.governor_id')
        .orderBy('s.taken_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(1)
        .as('name'),
    );
}

/** GET governors/mine: the account's governors, main (its sign-up's claim) first, each with its name in the latest scan that saw it. */
export async function ownGovernors(db: Db, userId: number): Promise<OwnGovernor[]> {
  const rows = await namedLinks(links(db).where('l.user_id', '=', userId))
    .orderBy('l.governor_id')
    .limit(OWN_GOVERNORS_MAX)
    .execute();
  return mainFirst(rows).map((r) => ({ governorId: r.governor_id, name: r.name ?? null, main: isMain(r), verified: r.verified === 1 }));
}

/**
 * GET player-ids: every link, newest account first, with the governor's name in the latest scan
 * that saw it; q is a username (contains, any case) or a governor id (starts with).
 */
export async function listPlayerLinks(db: Db, q: string | undefined, page = 1): Promise<{ links: PlayerLink[]; total: number; page: number; pageSize: number }> {
  let query = links(db);
  const text = q?.trim();
  if (text) {
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = /^\d+$/.test(text)
      ? query.where((eb) => eb.or([eb(sql`cast(l.governor_id as text)`, 'like', `${text}%`), eb(sql`u.username`, 'like', sql`${like} escape '\\'`)]))
      : query.where(sql`u.username`, 'like', sql`${like} escape '\\'`);
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await namedLinks(query)
    .orderBy('l.user_id', 'desc')
    .orderBy('l.governor_id')
    .limit(PLAYER_IDS_PAGE_SIZE)
    .offset((page - 1) * PLAYER_IDS_PAGE_SIZE)
    .execute();
  return {
    links: rows.map((r) => ({ governorId: r.governor_id, username: r.username, verified: r.verified === 1, main: isMain(r), name: r.name ?? null })),
    total: Number(total),
    page,
    pageSize: PLAYER_IDS_PAGE_SIZE,
  };
}

/** Links a governor to an account (moving it from another one), verified or not. */
export async function linkGovernor(db: Db, governorId: number, username: string, verified: boolean | undefined, actorId: number, now: number): Promise<PlayerLink> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new NotFound(PLAYER_ID_ERRORS.unknownUser);
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom('governor_links').selectAll().where('governor_id', '=', governorId).executeTakeFirst();
    // a link moved to another account is not verified unless the admin says so
    const isVerified = verified ?? (current?.user_id === user.id ? current.verified === 1 : false);
    await trx
      .insertInto('governor_links')
      .values({ governor_id: governorId, user_id: user.id, verified: isVerified ? 1 : 0, created_at: now, updated_by: actorId })
      .onConflict((oc) => oc.column('governor_id').doUpdateSet({ user_id: user.id, verified: isVerified ? 1 : 0, updated_by: actorId }))
      .execute();
    const named = await trx
      .selectFrom('scan_rows as r')
      .innerJoin('scans as s', 's.id', 'r.scan_id')
      .select('r.name')
      .where('r.governor_id', '=', governorId)
      .orderBy('s.taken_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const previous = current && current.user_id !== user.id ? await trx.selectFrom('users').select('username').where('id', '=', current.user_id).executeTakeFirst() : undefined;
    await recordAuditBy(trx, actorId, 'player-id.link', String(governorId), { username: user.username, verified: isVerified, ...(previous ? { from: previous.username } : {}) }, now);
    return { governorId, username: user.username, verified: isVerified, main: String(governorId) === user.playerid, name: named?.name ?? null };
  });
}

export async function unlinkGovernor(db: Db, governorId: number, actorId: number | null = null, now = Date.now()): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const link = await trx
      .selectFrom('governor_links as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select('u.username')
      .where('g.governor_id', '=', governorId)
      .executeTakeFirst();
    if (!link) throw new NotFound(PLAYER_ID_ERRORS.unknownLink);
    await trx.deleteFrom('governor_links').where('governor_id', '=', governorId).execute();
    await recordAuditBy(trx, actorId, 'player-id.unlink', String(governorId), { username: link.username }, now);
  });
}

/** A new account's claim on its governor (the sign-up's player id), unverified; a governor already linked keeps its account. */
export async function claimGovernor(db: Pick<Db, 'insertInto'>, userId: number, playerid: string, now: number): Promise<void> {
  if (!/^[1-9]\d{0,14}$/.test(playerid)) return;
  await db
    .insertInto('governor_links')
    .values({ governor_id: Number(playerid), user_id: userId, verified: 0, created_at: now, updated_by: null })
    .onConflict((oc) => oc.column('governor_id').doNothing())
    .execute();
}
