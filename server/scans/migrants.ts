import { MIGRANT_ERRORS, MIGRANT_SERIES_MAX_SCANS, MIGRANTS_MAX_LIST, type Leaver, type Migrant, type MigrantPoint, type Migrants } from '../../src/protocol/migrants';
import { Invalid } from '../errors';
import type { Scan } from '../../src/protocol/scans';
import { isPostgres, jsonArrayOfObjects } from '../db/dialect';
import { sql } from 'kysely';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import { findScan, latestScan, scanBefore } from './scans';

/**
 * Migrants: between two scans, who arrived and who left, and for who left
 * the likely reason. One diff (`diffScans`) serves the pair the page asks for and every point of the
 * series, so the chart and the lists always agree.
 *
 * The kingdom's members in a scan are its rows, except those whose kingdom column names another
 * kingdom than the kingdom's own (the settings' kingdom number, else the kingdom most rows of that
 * scan name): a governor seen in another kingdom has left it. Reasons for who left:
 * - `kingdom-changed`: the later scan's kingdom column shows them in another kingdom;
 * - `below-cutoff`: their power in the earlier scan is below the later scan's lowest power (scans
 *   are the top N by power: they likely fell out of the list, not out of the kingdom);
 * - `unknown` otherwise.
 */

/** Each scan's own kingdom (the one most of its rows name): scans never change once applied. */
const modeCache = new WeakMap<Queryable, Map<number, number | null>>();

/** The kingdom a scan is of: the settings' number when set, else the kingdom most of its rows name (null: the scan has no kingdom column). */
async function kingdomOf(db: Queryable, scanId: number, own: number | null): Promise<number | null> {
  if (own !== null) return own;
  let cache = modeCache.get(db);
  if (!cache || cache.size > 1_000) modeCache.set(db, (cache = new Map()));
  if (cache.has(scanId)) return cache.get(scanId) ?? null;
  const row = await sql<{ kingdom: number }>`select kingdom from scan_rows where scan_id = ${scanId} and kingdom is not null
    group by kingdom order by count(*) desc, kingdom asc limit 1`.execute(db);
  const kingdom = row.rows[0]?.kingdom ?? null;
  cache.set(scanId, kingdom);
  return kingdom;
}

/** The governor ids of a scan's members of kingdom `k` (a scan without a kingdom column: everyone). */
const members = (scanId: number, k: number | null) =>
  k === null ? sql`select governor_id from scan_rows where scan_id = ${scanId}` : sql`select governor_id from scan_rows where scan_id = ${scanId} and (kingdom is null or kingdom = ${k})`;

export interface Diff {
  /** The largest first, at most `limit`; the counts and sums below cover every migrant. */
  arrived: Migrant[];
  left: Leaver[];
  counts: { arrived: number; left: number };
  powerIn: number;
  powerOut: number;
  reasons: Record<Leaver['reason'], number>;
}

/**
 * Who arrived in scan `later` and who left since scan `earlier`, with reasons. SQLite sets the two
 * scans' members against each other (EXCEPT, both read in primary key order) and reads each
 * migrant's row by primary key once (a materialized CTE), counts and sums them all, and hands back
 * only the `limit` largest (a bounded sort) as one JSON text, already in the answer's shape.
 */
export async function diffScans(db: Queryable, earlier: number, later: number, ownKingdom: number | null, limit = MIGRANTS_MAX_LIST): Promise<Diff> {
  const kb = await kingdomOf(db, earlier, ownKingdom);
  const ka = await kingdomOf(db, later, ownKingdom);
  const { cutoff } = (await sql<{ cutoff: number | null }>`select min(power) as cutoff from scan_rows where scan_id = ${later}`.execute(db)).rows[0] ?? { cutoff: null };
  // the set difference first, then each migrant's row by primary key (CROSS JOIN keeps that order)
  // (PostgreSQL plans the join order itself: a plain join)
  const join = isPostgres(db) ? sql`join` : sql`cross join`;
  const arrivedFrom = sql`with ids(g) as (${members(later, ka)} except ${members(earlier, kb)})
    select a.governor_id as governorId, a.name, a.alliance, a.power, a.kingdom from ids ${join} scan_rows a on a.scan_id = ${later} and a.governor_id = ids.g`;
  // still in the later scan, but not a member: its kingdom column names another kingdom, the one
  // shown (where they went); the others show the kingdom they were seen in
  const leftFrom = sql`with ids(g) as (${members(earlier, kb)} except ${members(later, ka)})
    select b.governor_id as governorId, b.name, b.alliance, b.power, coalesce(x.kingdom, b.kingdom) as kingdom,
      case when x.governor_id is not null then 'kingdom-changed'
           when b.power < ${cutoff} then 'below-cutoff' else 'unknown' end as reason
    from ids ${join} scan_rows b on b.scan_id = ${earlier} and b.governor_id = ids.g
    left join scan_rows x on x.scan_id = ${later} and x.governor_id = b.governor_id`;
  // each direction in one query: its migrants' rows read once (materialized), counted and summed,
  // and the `limit` largest as one JSON text in the answer's shape (one parse, not 1,000 row objects)
  const order = sql`power is null, power desc, governorId`;
  const direction = async <T extends Migrant>(from: typeof arrivedFrom, reason: boolean) => {
    const fields = sql`'governorId', governorId, 'name', name, 'alliance', alliance, 'power', power, 'kingdom', kingdom${reason ? sql`, 'reason', reason` : sql``}`;
    const list = limit > 0 ? sql`(select ${jsonArrayOfObjects(db, fields, order)} from (select * from m order by ${order} limit ${limit}) as top)` : sql`'[]'`;
    const { rows } = await sql<{ n: number; pw: number | null; nk: number; nb: number; list: string }>`with m as materialized (${from})
      select count(*) as n, sum(power) as pw, ${reason ? sql`coalesce(sum(case when reason = 'kingdom-changed' then 1 else 0 end), 0) as nk, coalesce(sum(case when reason = 'below-cutoff' then 1 else 0 end), 0) as nb` : sql`0 as nk, 0 as nb`},
        ${list} as list from m`.execute(db);
    const row = rows[0];
    return { n: row.n, pw: row.pw, nk: row.nk, nb: row.nb, list: JSON.parse(row.list) as T[] };
  };
  const arrived = await direction<Migrant>(arrivedFrom, false);
  const left = await direction<Leaver>(leftFrom, true);
  return {
    arrived: arrived.list,
    left: left.list,
    counts: { arrived: arrived.n, left: left.n },
    powerIn: arrived.pw ?? 0,
    powerOut: left.pw ?? 0,
    reasons: { 'kingdom-changed': left.nk, 'below-cutoff': left.nb, unknown: left.n - left.nk - left.nb },
  };
}

async function ownKingdom(db: Queryable): Promise<number | null> {
  const row = await db.selectFrom('kingdom_settings').select('kingdom_number').where('id', '=', 1).executeTakeFirst();
  return row?.kingdom_number ?? null;
}

const ordered = (a: Scan, b: Scan) => a.takenAt - b.takenAt || a.id - b.id;

/** GET migrants: `to` defaults to the latest scan (by takenAt), `from` to the scan taken before `to`. */
export async function migrants(db: Db, query: { from?: number; to?: number }): Promise<Migrants> {
  const to = query.to !== undefined ? await findScan(db, query.to) : await latestScan(db);
  const from = query.from !== undefined ? await findScan(db, query.from) : to ? await scanBefore(db, to.takenAt, to.id) : null;
  const empty: Migrants = { from, to, arrived: [], left: [], counts: { arrived: 0, left: 0 }, power: { arrived: 0, left: 0 }, reasons: { 'kingdom-changed': 0, 'below-cutoff': 0, unknown: 0 } };
  if (!to || !from) return empty;
  if (from.id === to.id) throw new Invalid(MIGRANT_ERRORS.sameScan);
  if (ordered(from, to) > 0) throw new Invalid(MIGRANT_ERRORS.fromAfterTo);
  const diff = await diffScans(db, from.id, to.id, await ownKingdom(db));
  return { from, to, arrived: diff.arrived, left: diff.left, counts: diff.counts, power: { arrived: diff.powerIn, left: diff.powerOut }, reasons: diff.reasons };
}

/**
 * Each pair's counts, by (earlier id, later id, own kingdom): scans never change once applied, so a
 * pair's diff stays true; a deleted scan's pairs are simply no longer asked for. Bounded: the series
 * asks for at most MIGRANT_SERIES_MAX_SCANS pairs, and the cache is cleared past twice that.
 */
const seriesCache = new WeakMap<Db, Map<string, Omit<MigrantPoint, 'takenAt'>>>();

/** GET migrants/series: for each of the latest scans (oldest first), arrivals and departures since the scan before it. */
export async function migrantSeries(db: Db): Promise<MigrantPoint[]> {
  const scans = await db
    .selectFrom('scans')
    .select(['id', 'taken_at'])
    .orderBy('taken_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MIGRANT_SERIES_MAX_SCANS + 1)
    .execute();
  scans.reverse();
  const own = await ownKingdom(db);
  let cache = seriesCache.get(db);
  if (!cache || cache.size > MIGRANT_SERIES_MAX_SCANS * 2) seriesCache.set(db, (cache = new Map()));
  const points: MigrantPoint[] = [];
  for (let i = 1; i < scans.length; i++) {
    const key = `${scans[i - 1].id}:${scans[i].id}:${own}`;
    let known = cache.get(key);
    if (!known) {
      const diff = await diffScans(db, scans[i - 1].id, scans[i].id, own, 0);
      known = { scanId: scans[i].id, previousScanId: scans[i - 1].id, arrived: diff.counts.arrived, left: diff.counts.left, powerIn: diff.powerIn, powerOut: diff.powerOut };
      cache.set(key, known);
    }
    points.push({ ...known, takenAt: scans[i].taken_at });
  }
  return points;
}
