import { jsonArrayOfArrays, jsonArrayOfObjects } from '../db/dialect';
import { sql } from 'kysely';
import { NotFound } from '../errors';
import {
  KVK_ERRORS,
  KVK_PAGE_SIZE,
  STATUSES,
  ZEROED_SUGGESTION,
  type AllianceTotal,
  type Arrival,
  type Bracket,
  type Gains,
  type KvkStatus,
  type Mark,
  type MyKvk,
  type ScanRef,
  type Season,
  type Standing,
  type StandingSort,
  type StandingsAnswer,
  type StandingsFilter,
} from '../../src/protocol/kvk';
import type { Db } from '../db/open';
import { dkp } from './dkp';
import { checkMayRead, findSeasonRow, latestScanRef, readsAll, seasonVersion, runningSeason, toSeason } from './seasons';

/**
 * KvK standings: the one place gains, DKP, requirements, progress and status are
 * computed. Every governor of the season's start scan, with the requirement of its bracket (by power
 * at the start scan), its gains between the two scans of the period (the whole season, or a named
 * window), DKP by the season's weights, progress (0–100, capped) and a status; governors in the end
 * scan but not in the start scan are arrivals, listed apart. A season's standings for one period are
 * computed once and kept until a scan, the season or a mark changes (scans never change in place:
 * a new scan has a new id), so sorting, filtering and paging cost a sort of 5,000 rows, not a read.
 */

interface StatRow {
  governor_id: number;
  name: string;
  alliance: string;
  power: number | null;
  killpoints: number | null;
  deads: number | null;
  t4_kills: number | null;
  t5_kills: number | null;
}

/**
 * What the standings read of the scans, for one (start scan, period's first scan, period's last
 * scan): per governor of the start scan, in governor order, one array (`Joined`), and the rows of
 * the last scan's governors the start scan lacks (the arrivals). SQLite joins the three scans by
 * their rows' key (scan, governor) and hands the figures back as one JSON text, so 5,000 governors
 * cost one parse, not 10,000 row objects. Scans never change once applied (a new scan has a new id,
 * never reused), so a mark's change or an edit recomputes the standings without reading the scans
 * again. Kept for the last few periods, per database (tests open several in one process).
 */
type Joined = [
  governorId: number,
  name: string,
  alliance: string,
  startPower: number | null,
  /** The last scan's row: name, alliance and power, and whether there is one. */
  toName: string | null,
  toAlliance: string | null,
  toPower: number | null,
  inEnd: 0 | 1 | boolean,
  /** Gains over the period (null when either row or figure is missing). */
  t4Kills: number | null,
  t5Kills: number | null,
  deads: number | null,
  killpoints: number | null,
  power: number | null,
  /** Power and deads gained from the start scan to the last (the zeroed suggestion). */
  powerSinceStart: number | null,
  deadsSinceStart: number | null,
];
interface PeriodRows {
  joined: Joined[];
  /** Rows of the last scan whose governor is not in the start scan. */
  arrivals: StatRow[];
}

const ROWS_CACHE_SIZE = 6;
const rowCaches = new WeakMap<Db, Map<string, Promise<PeriodRows>>>();

/** A scan id no scan has (a running season without an end yet joins nothing). */
const NO_SCAN = -1;

function periodRowsOf(db: Db, startId: number, fromId: number, toId: number | null): Promise<PeriodRows> {
  let mine = rowCaches.get(db);
  if (!mine) rowCaches.set(db, (mine = new Map()));
  const key = `${startId}|${fromId}|${toId}`;
  let rows = mine.get(key);
  if (rows) {
    mine.delete(key); // most recently used last
    mine.set(key, rows);
    return rows;
  }
  const to = toId ?? NO_SCAN;
  // the whole season's period starts at the start scan: its rows are the start rows (no second join)
  const f = sql.raw(fromId === startId ? 's' : 'f');
  const fromJoin = fromId === startId ? sql`` : sql`left join scan_rows f on f.scan_id = ${fromId} and f.governor_id = s.governor_id`;
  rows = (async (): Promise<PeriodRows> => {
    const values = sql`s.governor_id, s.name, s.alliance, s.power,
        t.name, t.alliance, t.power, t.governor_id is not null,
        t.t4_kills - ${f}.t4_kills, t.t5_kills - ${f}.t5_kills, t.deads - ${f}.deads, t.killpoints - ${f}.killpoints, t.power - ${f}.power,
        t.power - s.power, t.deads - s.deads`;
    const { rows: found } = await sql<{ joined: string }>`select ${jsonArrayOfArrays(db, values, sql`s.governor_id`)} as joined
      from (select * from scan_rows where scan_id = ${startId} order by governor_id) s
      ${fromJoin}
      left join scan_rows t on t.scan_id = ${to} and t.governor_id = s.governor_id`.execute(db);
    const joined = JSON.parse(found[0]?.joined ?? '[]') as Joined[];
    const arrivals =
      toId === null
        ? []
        : await db
            .selectFrom('scan_rows as t')
            .select(['t.governor_id', 't.name', 't.alliance', 't.power', 't.killpoints', 't.deads', 't.t4_kills', 't.t5_kills'])
            .where('t.scan_id', '=', toId)
            .where(({ not, exists, selectFrom }) => not(exists(selectFrom('scan_rows as s').select('s.governor_id').where('s.scan_id', '=', startId).whereRef('s.governor_id', '=', 't.governor_id'))))
            .orderBy('t.governor_id')
            .execute();
    return { joined, arrivals };
  })();
  mine.set(key, rows);
  const cache = mine;
  rows.catch(() => cache.delete(key));
  while (mine.size > ROWS_CACHE_SIZE) mine.delete(mine.keys().next().value as string);
  return rows;
}

const diff = (now: number | null | undefined, was: number | null | undefined) => (now === null || now === undefined || was === null || was === undefined ? null : now - was);

/** Gains between two rows of one governor; all null when the later row is missing. */
export function gainsBetween(from: StatRow | undefined, to: StatRow | undefined): Gains {
  return {
    t4Kills: diff(to?.t4_kills, from?.t4_kills),
    t5Kills: diff(to?.t5_kills, from?.t5_kills),
    deads: diff(to?.deads, from?.deads),
    killpoints: diff(to?.killpoints, from?.killpoints),
    power: diff(to?.power, from?.power),
  };
}

/** DKP of some gains (a stat not scanned counts as no gain), by the one formula. */
export const dkpOf = (season: Pick<Season, 'weights'>, g: Gains) => dkp(season.weights, { t4Kills: g.t4Kills ?? 0, t5Kills: g.t5Kills ?? 0, deads: g.deads ?? 0 });

/** The bracket of a power at the start scan: the last whose minPower it reaches; none below the lowest (no requirement). */
export function bracketOf(brackets: readonly Bracket[], power: number | null): Bracket | null {
  if (power === null) return null;
  let found: Bracket | null = null;
  for (const b of brackets) if (power >= b.minPower) found = b;
  return found;
}

/** A gain as a share of a requirement, 0–100, whole (floored: 99.6% is not shown as met), capped; no requirement is 100. */
export function progressOf(gain: number | null, required: number): number {
  if (required <= 0) return 100;
  if (gain === null || gain <= 0) return 0;
  return Math.min(100, Math.floor((gain / required) * 100));
}

/** Power fell by at least 25% of the start power while deads rose by at least 10,000 (ZEROED_SUGGESTION). */
export function looksZeroed(startPower: number | null, g: Gains): boolean {
  if (startPower === null || startPower <= 0 || g.power === null || g.deads === null) return false;
  return -g.power >= startPower * ZEROED_SUGGESTION.minPowerDropShare && g.deads >= ZEROED_SUGGESTION.minDeadsGain;
}

export interface Computed {
  standings: Standing[];
  arrivals: Arrival[];
  alliances: AllianceTotal[];
  /** The standings in each order asked for so far (by "sort|order"): a page is then a filter and a slice. */
  sorted: Map<string, Standing[]>;
}

/** One governor's standing, from its joined figures over the period (`Joined`) and its mark. */
function standingOfJoined(season: Pick<Season, 'weights' | 'brackets'>, j: Joined, mark: { mark: Mark; reason: string } | undefined): Standing {
  const gains: Gains = { t4Kills: j[8], t5Kills: j[9], deads: j[10], killpoints: j[11], power: j[12] };
  const startPower = j[3];
  const b = bracketOf(season.brackets, startPower);
  const required = { kills: b?.kills ?? 0, deads: b?.deads ?? 0 };
  const kills = gains.t4Kills === null && gains.t5Kills === null ? null : (gains.t4Kills ?? 0) + (gains.t5Kills ?? 0);
  const progress = { kills: progressOf(kills, required.kills), deads: progressOf(gains.deads, required.deads) };
  const met = progress.kills >= 100 && progress.deads >= 100;
  const status: KvkStatus = mark ? mark.mark : met ? 'met' : 'not-met';
  const inEnd = j[7] === 1 || j[7] === true; // SQLite's 1, PostgreSQL's true
  return {
    governorId: j[0],
    name: j[4] || j[1],
    alliance: inEnd ? (j[5] as string) : j[2],
    startPower,
    power: j[6],
    inEndScan: inEnd,
    gains,
    dkp: dkpOf(season, gains),
    required,
    progress,
    status,
    reason: mark?.reason ?? null,
    suggestedZeroed: !mark && looksZeroed(startPower, { t4Kills: null, t5Kills: null, deads: j[14], killpoints: null, power: j[13] }),
  };
}

type FirstRow = StatRow & { scan_id: number; taken_at: number };

/** Each arrival's first row in a period, kept by the period's scans and the scans' times (a scan's date corrected moves it in or out of a period). */
const firstRowCaches = new WeakMap<Db, Map<string, Promise<Map<number, FirstRow>>>>();

function firstRowsOf(db: Db, startScanId: number, ids: number[], from: ScanRef, to: ScanRef, times: string): Promise<Map<number, FirstRow>> {
  let mine = firstRowCaches.get(db);
  if (!mine) firstRowCaches.set(db, (mine = new Map()));
  const key = `${startScanId}|${from.id}|${to.id}|${times}`;
  let found = mine.get(key);
  if (found) return found;
  found = (async () => {
    // the first scan of the period that saw each arrival (from its start to its end, by takenAt):
    // point lookups by the rows' key (scan, governor), the period's scans oldest first
    const scans = await db.selectFrom('scans').select(['id', 'taken_at']).where('taken_at', '>=', from.takenAt).where('taken_at', '<=', to.takenAt).orderBy('taken_at').orderBy('id').execute();
    const order = new Map(scans.map((sc, i) => [sc.id, i]));
    const takenAt = new Map(scans.map((sc) => [sc.id, sc.taken_at]));
    const first = new Map<number, FirstRow>();
    const scanIds = scans.map((sc) => sc.id).filter((sid) => sid !== to.id);
    for (let at = 0; at < ids.length && scanIds.length > 0; at += 500) {
      // as one JSON text (up to one row per arrival and scan: thousands of rows, one parse)
      const fields = sql`'governor_id', governor_id, 'name', name, 'alliance', alliance,
          'power', power, 'killpoints', killpoints, 'deads', deads, 't4_kills', t4_kills, 't5_kills', t5_kills, 'scan_id', scan_id`;
      const { rows: found } = await sql<{ rows: string }>`select ${jsonArrayOfObjects(db, fields)} as rows
        from scan_rows where scan_id in (${sql.join(scanIds)}) and governor_id in (${sql.join(ids.slice(at, at + 500))})`.execute(db);
      const rows = JSON.parse(found[0]?.rows ?? '[]') as (StatRow & { scan_id: number })[];
      for (const r of rows) {
        const known = first.get(r.governor_id);
        if (!known || (order.get(r.scan_id) as number) < (order.get(known.scan_id) as number)) first.set(r.governor_id, { ...r, taken_at: takenAt.get(r.scan_id) as number });
      }
    }
    return first;
  })();
  mine.set(key, found);
  const cache = mine;
  found.catch(() => cache.delete(key));
  while (mine.size > ROWS_CACHE_SIZE) mine.delete(mine.keys().next().value as string);
  return found;
}

async function arrivalsOf(db: Db, season: Pick<Season, 'weights' | 'startScan'>, rows: StatRow[], from: ScanRef, to: ScanRef, times: string): Promise<Arrival[]> {
  if (rows.length === 0) return [];
  const first = await firstRowsOf(
    db,
    season.startScan.id,
    rows.map((r) => r.governor_id),
    from,
    to,
    times,
  );
  return rows.map((now) => {
    const id = now.governor_id;
    const was = first.get(id) ?? { ...now, scan_id: to.id, taken_at: to.takenAt };
    const gains = gainsBetween(was, now);
    return { governorId: id, name: now.name, alliance: now.alliance, firstScan: { id: was.scan_id, takenAt: was.taken_at }, firstPower: was.power, power: now.power, gains, dkp: dkpOf(season, gains) };
  });
}

function allianceTotals(standings: Standing[]): AllianceTotal[] {
  const by = new Map<string, AllianceTotal>();
  for (const s of standings) {
    let t = by.get(s.alliance);
    if (!t) by.set(s.alliance, (t = { alliance: s.alliance, governors: 0, met: 0, startPower: 0, gains: { t4Kills: 0, t5Kills: 0, deads: 0, killpoints: 0, power: 0 }, dkp: 0 }));
    t.governors += 1;
    if (s.status === 'met') t.met += 1;
    t.startPower += s.startPower ?? 0;
    for (const k of ['t4Kills', 't5Kills', 'deads', 'killpoints', 'power'] as const) t.gains[k] += s.gains[k] ?? 0;
    t.dkp += s.dkp;
  }
  return [...by.values()].sort((a, b) => b.dkp - a.dkp || (a.alliance < b.alliance ? -1 : a.alliance > b.alliance ? 1 : 0));
}

/** The period of the standings: the whole season (start → end, or the latest), or a named window. */
export function periodOf(season: Season, windowName: string | undefined): { window: string | null; from: ScanRef; to: ScanRef | null; fromId: number; toId: number | null } {
  if (windowName === undefined || windowName.trim() === '') return { window: null, from: season.startScan, to: season.endScan, fromId: season.startScan.id, toId: season.endScan?.id ?? null };
  const w = season.windows.find((x) => x.name.toLowerCase() === windowName.trim().toLowerCase());
  if (!w) throw new NotFound(KVK_ERRORS.unknownWindow);
  return { window: w.name, from: { id: w.fromScanId, takenAt: 0 }, to: { id: w.toScanId, takenAt: 0 }, fromId: w.fromScanId, toId: w.toScanId };
}

/**
 * The scans' times in one short text: it changes when a scan is imported, deleted or its date
 * corrected, on any process, so a standing computed before is not served after (read from the
 * database each time: one aggregate over the scans table, a few hundred rows).
 */
async function scanTimes(db: Db): Promise<string> {
  const row = await sql<{ n: number | string; t: number | string | null; h: number | string | null }>`select count(*) as n, sum(taken_at) as t, sum(id * (taken_at / 1000)) as h from scans`.execute(db);
  const r = row.rows[0];
  return `${r?.n ?? 0}:${r?.t ?? 0}:${r?.h ?? 0}`;
}

/** Computed standings kept by season, period, season edit, mark version and the scans' times: a few periods at once. */
const CACHE_SIZE = 8;
const caches = new WeakMap<Db, Map<string, Promise<Computed & { from: ScanRef; to: ScanRef | null }>>>();

/** Forgets every computed standing (the benchmark measures a computation from the database this way). */
export function clearStandingsCache(db: Db, rows = false): void {
  caches.get(db)?.clear();
  if (rows) {
    rowCaches.get(db)?.clear();
    firstRowCaches.get(db)?.clear();
  }
}

async function scanRefOf(db: Db, id: number): Promise<ScanRef> {
  const row = await db.selectFrom('scans').select(['id', 'taken_at']).where('id', '=', id).executeTakeFirst();
  // a window's scan deleted since (deleting a scan a season uses is refused; this is belt and braces)
  if (!row) throw new NotFound(KVK_ERRORS.unknownWindowScan);
  return { id: row.id, takenAt: row.taken_at };
}

/** Every standing, arrival and alliance total of a season over a period, computed (or taken from the cache). */
export async function computeStandings(db: Db, season: Season, windowName: string | undefined): Promise<Computed & { window: string | null; from: ScanRef; to: ScanRef | null }> {
  const period = periodOf(season, windowName);
  const times = await scanTimes(db);
  const key = `${season.id}|${season.updatedAt}|${seasonVersion(db, season.id)}|${period.fromId}|${period.toId}|${times}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let entry = cache.get(key);
  if (!entry) {
    entry = (async () => {
      const from = period.window === null ? period.from : await scanRefOf(db, period.fromId);
      const to = period.toId === null ? null : period.window === null ? period.to : await scanRefOf(db, period.toId);
      const rows = await periodRowsOf(db, season.startScan.id, from.id, to === null ? null : to.id);
      const marks = new Map(
        (await db.selectFrom('kvk_marks').select(['governor_id', 'mark', 'reason']).where('season_id', '=', season.id).execute()).map((m) => [m.governor_id, { mark: m.mark, reason: m.reason }]),
      );
      const standings = rows.joined.map((j) => standingOfJoined(season, j, marks.get(j[0])));
      const arrivals = to === null ? [] : await arrivalsOf(db, season, rows.arrivals, from, to, times);
      arrivals.sort((a, b) => (b.power ?? -1) - (a.power ?? -1) || a.governorId - b.governorId);
      return { standings, arrivals, alliances: allianceTotals(standings), sorted: new Map<string, Standing[]>(), from, to };
    })();
    cache.set(key, entry);
    const mine = cache;
    entry.catch(() => mine.delete(key));
    while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  return { window: period.window, ...(await entry) };
}

const STATUS_ORDER: Record<KvkStatus, number> = Object.fromEntries(STATUSES.map((s, i) => [s, i])) as Record<KvkStatus, number>;

/** The value a standing is sorted by: a number, a text, or null (always last). */
function sortValue(s: Standing, sort: StandingSort): number | string | null {
  switch (sort) {
    case 'governorId':
      return s.governorId;
    case 'name':
      return s.name;
    case 'alliance':
      return s.alliance;
    case 'startPower':
      return s.startPower;
    case 'power':
      return s.power;
    case 'powerGain':
      return s.gains.power;
    case 't4Kills':
    case 't5Kills':
    case 'deads':
    case 'killpoints':
      return s.gains[sort];
    case 'dkp':
      return s.dkp;
    case 'requiredKills':
      return s.required.kills;
    case 'requiredDeads':
      return s.required.deads;
    case 'killsProgress':
      return s.progress.kills;
    case 'deadsProgress':
      return s.progress.deads;
    case 'status':
      return STATUS_ORDER[s.status];
  }
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Sorted by any column (nulls last, then by governor id); texts ascending and numbers descending by default. */
export function sortStandings(list: Standing[], sort: StandingSort = 'dkp', order?: 'asc' | 'desc'): Standing[] {
  const textual = sort === 'name' || sort === 'alliance' || sort === 'governorId' || sort === 'status';
  const dir = (order ?? (textual ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  const keyed = list.map((s) => ({ s, v: sortValue(s, sort) }));
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? a.s.governorId - b.s.governorId : a.v === null ? 1 : -1;
    const c = typeof a.v === 'string' ? collator.compare(a.v, b.v as string) : a.v - (b.v as number);
    return c !== 0 ? c * dir : a.s.governorId - b.s.governorId;
  });
  return keyed.map((k) => k.s);
}

/** The standings in the asked order, sorted once per order and kept with the computed standings (a filter keeps the order). */
function sortedOnce(computed: Computed, filter: Pick<StandingsFilter, 'sort' | 'order'>): Standing[] {
  const key = `${filter.sort ?? ''}|${filter.order ?? ''}`;
  let list = computed.sorted.get(key);
  if (!list) computed.sorted.set(key, (list = sortStandings(computed.standings, filter.sort, filter.order)));
  return list;
}

/**
 * The filters of the standings: alliance (an alliance with that tag, whatever its case, exactly when
 * there is one, K1 and not K10 too; else every alliance containing it, as the governors' table does),
 * q (a name containing it, or an id starting with it) and status.
 */
export function filterStandings(list: Standing[], filter: Pick<StandingsFilter, 'alliance' | 'q' | 'status'>): Standing[] {
  const typed = filter.alliance?.trim().toLowerCase();
  const exact = typed ? list.some((s) => s.alliance.toLowerCase() === typed) : false;
  const inAlliance = (tag: string) => !typed || (exact ? tag.toLowerCase() === typed : tag.toLowerCase().includes(typed));
  const q = filter.q?.trim().toLowerCase();
  return list.filter(
    (s) =>
      inAlliance(s.alliance) &&
      (!filter.status || s.status === filter.status) &&
      (!q || s.name.toLowerCase().includes(q) || (/^\d+$/.test(q) && String(s.governorId).startsWith(q))),
  );
}

/** A standing as a player reads a published season: its status, but not leadership's reason nor a suggestion. */
const forPlayers = (s: Standing): Standing => ({ ...s, reason: null, suggestedZeroed: false });

/**
 * GET kvk/seasons/:id/standings: a page of the sorted, filtered standings with counts, suggestions, alliance totals and arrivals.
 * Leadership reads every season; another rank only a published one (403 otherwise), without marks' reasons or suggestions.
 */
export async function seasonStandings(db: Db, seasonId: number, filter: StandingsFilter, rank: string): Promise<Omit<StandingsAnswer, 'result'>> {
  const row = await findSeasonRow(db, seasonId);
  checkMayRead(row, rank);
  const leadership = readsAll(rank);
  const season = await toSeason(db, row);
  const computed = await computeStandings(db, season, filter.window);
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? KVK_PAGE_SIZE;
  const matching = filterStandings(sortedOnce(computed, filter), filter);
  const counts = { governors: computed.standings.length, met: 0, 'not-met': 0, exempt: 0, zeroed: 0, suggested: 0 };
  for (const s of computed.standings) {
    counts[s.status] += 1;
    if (s.suggestedZeroed && leadership) counts.suggested += 1;
  }
  const drop = (s: Standing) => (s.startPower && s.power !== null ? (s.startPower - s.power) / s.startPower : 0);
  const suggested = computed.standings.filter((s) => s.suggestedZeroed && leadership).sort((a, b) => drop(b) - drop(a) || a.governorId - b.governorId).slice(0, 200);
  return {
    season,
    window: computed.window,
    from: computed.from,
    to: computed.to,
    total: matching.length,
    page,
    pageSize,
    counts,
    standings: matching.slice((page - 1) * pageSize, page * pageSize).map((s) => (leadership ? s : forPlayers(s))),
    suggested,
    alliances: computed.alliances,
    arrivals: computed.arrivals.slice(0, 1000),
  };
}

/** Every standing the filters match, in order (the CSV export). */
export async function allStandings(db: Db, seasonId: number, filter: StandingsFilter): Promise<{ season: Season; standings: Standing[] }> {
  const season = await toSeason(db, await findSeasonRow(db, seasonId));
  const computed = await computeStandings(db, season, filter.window);
  return { season, standings: filterStandings(sortedOnce(computed, filter), filter) };
}

/** GET kvk/me: the caller's governors (main first) in the running season, or no season. */
export async function myStandings(db: Db, governorIds: number[]): Promise<Omit<MyKvk, 'result'>> {
  const row = await runningSeason(db);
  if (!row) return { season: null, to: null, governors: [] };
  const season = await toSeason(db, row, await latestScanRef(db));
  const computed = await computeStandings(db, season, undefined);
  const byId = new Map(computed.standings.map((s) => [s.governorId, s]));
  return { season, to: computed.to, governors: governorIds.flatMap((id) => byId.get(id) ?? []) };
}

/**
 * After a scan arrives, the running seasons' standings (whose end is the latest scan) are computed
 * at once, off the request that applied the scan, so the first person to open the dashboard or their
 * profile does not wait for two scans to be read.
 */
export async function warmRunningSeasons(db: Db): Promise<void> {
  const rows = await db.selectFrom('kvk_seasons').selectAll().where('end_scan_id', 'is', null).execute();
  const latest = await latestScanRef(db);
  for (const row of rows) await computeStandings(db, await toSeason(db, row, latest), undefined);
}
