import { MIGRANT_ERRORS, MIGRANT_SERIES_MAX_SCANS, MIGRANTS_MAX_LIST, type Leaver, type Migrant, type MigrantPoint, type Migrants } from '../../src/protocol/migrants';
import type { Scan } from '../../src/protocol/scans';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import { HttpError } from '../http/errors';
import { findScan, latestScan, scanBefore } from './scans';

/**
 * Migrants (DESIGN.md, "Migrants"): between two scans, who arrived and who left, and for who left
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
interface Row {
  governor_id: number;
  name: string;
  alliance: string;
  power: number | null;
  kingdom: number | null;
}

async function rowsOf(db: Queryable, scanId: number): Promise<Row[]> {
  return db.selectFrom('scan_rows').select(['governor_id', 'name', 'alliance', 'power', 'kingdom']).where('scan_id', '=', scanId).execute();
}

/** The kingdom a scan is of: the settings' number when set, else the kingdom most of its rows name (null: the scan has no kingdom column). */
function kingdomOf(rows: Row[], own: number | null): number | null {
  if (own !== null) return own;
  const counts = new Map<number, number>();
  let best: number | null = null;
  let bestCount = 0;
  for (const r of rows) {
    if (r.kingdom === null) continue;
    const n = (counts.get(r.kingdom) ?? 0) + 1;
    counts.set(r.kingdom, n);
    if (n > bestCount || (n === bestCount && best !== null && r.kingdom < best)) {
      best = r.kingdom;
      bestCount = n;
    }
  }
  return best;
}

const member = (r: Row, kingdom: number | null) => kingdom === null || r.kingdom === null || r.kingdom === kingdom;
const toMigrant = (r: Row): Migrant => ({ governorId: r.governor_id, name: r.name, alliance: r.alliance, power: r.power, kingdom: r.kingdom });
const byPower = (a: Migrant, b: Migrant) => (b.power ?? -1) - (a.power ?? -1) || a.governorId - b.governorId;

export interface Diff {
  arrived: Migrant[];
  left: Leaver[];
  powerIn: number;
  powerOut: number;
}

/** Who arrived in `later` and who left since `earlier` (both a scan's rows), with reasons. */
export function diffScans(earlier: Row[], later: Row[], ownKingdom: number | null): Diff {
  const kingdomBefore = kingdomOf(earlier, ownKingdom);
  const kingdomAfter = kingdomOf(later, ownKingdom);
  const before = new Map<number, Row>();
  for (const r of earlier) if (member(r, kingdomBefore)) before.set(r.governor_id, r);
  const after = new Map<number, Row>();
  const elsewhere = new Set<number>();
  let cutoff: number | null = null;
  for (const r of later) {
    if (r.power !== null && (cutoff === null || r.power < cutoff)) cutoff = r.power;
    if (member(r, kingdomAfter)) after.set(r.governor_id, r);
    else elsewhere.add(r.governor_id);
  }
  const arrived: Migrant[] = [];
  let powerIn = 0;
  for (const [id, r] of after) {
    if (before.has(id)) continue;
    arrived.push(toMigrant(r));
    powerIn += r.power ?? 0;
  }
  const left: Leaver[] = [];
  let powerOut = 0;
  for (const [id, r] of before) {
    if (after.has(id)) continue;
    const reason = elsewhere.has(id) ? 'kingdom-changed' : cutoff !== null && r.power !== null && r.power < cutoff ? 'below-cutoff' : 'unknown';
    left.push({ ...toMigrant(r), reason });
    powerOut += r.power ?? 0;
  }
  return { arrived, left, powerIn, powerOut };
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
  if (from.id === to.id) throw new HttpError(400, MIGRANT_ERRORS.sameScan);
  if (ordered(from, to) > 0) throw new HttpError(400, MIGRANT_ERRORS.fromAfterTo);
  const [earlier, later, own] = await Promise.all([rowsOf(db, from.id), rowsOf(db, to.id), ownKingdom(db)]);
  const diff = diffScans(earlier, later, own);
  const reasons = { ...empty.reasons };
  for (const l of diff.left) reasons[l.reason] += 1;
  return {
    from,
    to,
    arrived: diff.arrived.sort(byPower).slice(0, MIGRANTS_MAX_LIST),
    left: diff.left.sort(byPower).slice(0, MIGRANTS_MAX_LIST),
    counts: { arrived: diff.arrived.length, left: diff.left.length },
    power: { arrived: diff.powerIn, left: diff.powerOut },
    reasons,
  };
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
  let previousRows: Row[] | null = null;
  for (let i = 1; i < scans.length; i++) {
    const key = `${scans[i - 1].id}:${scans[i].id}:${own}`;
    let known = cache.get(key);
    if (!known) {
      const earlier: Row[] = previousRows ?? (await rowsOf(db, scans[i - 1].id));
      const later = await rowsOf(db, scans[i].id);
      const diff = diffScans(earlier, later, own);
      known = { scanId: scans[i].id, previousScanId: scans[i - 1].id, arrived: diff.arrived.length, left: diff.left.length, powerIn: diff.powerIn, powerOut: diff.powerOut };
      cache.set(key, known);
      previousRows = later;
    } else previousRows = null;
    points.push({ ...known, takenAt: scans[i].taken_at });
  }
  return points;
}
