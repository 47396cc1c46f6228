import { likeOperator, nocase } from '../db/dialect';
import { sql } from 'kysely';
import {
  GOVERNORS_PAGE_SIZE,
  SCAN_ERRORS,
  STATS,
  TOTAL_STATS,
  type GovernorDetail,
  type GovernorRow,
  type GovernorSort,
  type GovernorsFilter,
  type HistoryEntry,
  type KingdomSummary,
  type Scan,
  type Stat,
  type Totals,
} from '../../src/protocol/scans';
import type { Db } from '../db/open';
import type { ScanRowRow } from '../db/schema';
import { Invalid, NotFound } from '../errors';
import { columnOf, findScan, scanBefore, statsOf } from './scans';

// What the stats pages read of the scans: the kingdom's totals and their change, the governors table, a governor's history.

/** The scan asked for (404 when unknown), or the latest; and the one to compare with: asked for, or the scan before it. */
async function scanPair(db: Db, scanId?: number, compareId?: number): Promise<{ scan: Scan | null; compare: Scan | null }> {
  const scan = scanId !== undefined ? await findScan(db, scanId) : await scanBefore(db, null);
  if (!scan) return { scan: null, compare: null };
  const compare = compareId !== undefined ? await findScan(db, compareId) : await scanBefore(db, scan.takenAt, scan.id);
  return { scan, compare };
}

async function totalsOf(db: Db, scanId: number): Promise<Totals> {
  const row = await db.selectFrom('scan_totals').selectAll().where('scan_id', '=', scanId).executeTakeFirst();
  const totals = { governors: row?.governors ?? 0 } as Totals;
  for (const stat of TOTAL_STATS) totals[stat] = (row?.[columnOf(stat) as keyof typeof row] as number | null | undefined) ?? null;
  return totals;
}

/** GET kingdom/summary: the totals of a scan (the latest by default) and their change since another (the one before by default). */
export async function kingdomSummary(db: Db, scanId?: number, compareId?: number): Promise<KingdomSummary> {
  const { scan, compare } = await scanPair(db, scanId, compareId);
  if (!scan) return { scan: null, compare: null, totals: null, change: null };
  const totals = await totalsOf(db, scan.id);
  if (!compare) return { scan, compare: null, totals, change: null };
  const before = await totalsOf(db, compare.id);
  const change = Object.fromEntries(
    Object.entries(totals).map(([k, v]) => {
      const was = before[k as keyof Totals];
      return [k, v === null || was === null ? null : v - was];
    }),
  ) as Totals;
  return { scan, compare, totals, change };
}

const SORT_COLUMNS: Record<GovernorSort, string> = {
  governorId: 'r.governor_id',
  name: 'r.name',
  alliance: 'r.alliance',
  ...(Object.fromEntries(STATS.map((s) => [s, `r.${columnOf(s)}`])) as Record<Stat, string>),
};

/** A LIKE pattern for text containing `text` (its own % _ and \\ escaped; used with `escape '\\'`). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * GET governors: one page of a scan's governors (the latest by default), filtered by alliance (the
 * scan's alliance with that tag whatever its case, exactly; with none, every alliance containing it), by q (a name containing it, any case, or a governor id starting with it), sorted by
 * any column (nulls last, then by governor id), with each stat's change since `compare` when asked.
 */
export async function listGovernors(db: Db, filter: GovernorsFilter): Promise<{ scan: Scan | null; compare: Scan | null; total: number; governors: GovernorRow[]; page: number; pageSize: number }> {
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? GOVERNORS_PAGE_SIZE;
  const scan = filter.scan !== undefined ? await findScan(db, filter.scan) : await scanBefore(db, null);
  const compare = filter.compare !== undefined ? await findScan(db, filter.compare) : null;
  if (!scan) return { scan: null, compare, total: 0, governors: [], page, pageSize };

  let query = db.selectFrom('scan_rows as r').where('r.scan_id', '=', scan.id);
  const alliance = filter.alliance?.trim();
  if (alliance) {
    // an alliance of the scan with that tag, whatever its case, exactly (K1, not K10 too); else every alliance containing it
    const exact = await db.selectFrom('scan_alliances').select('alliance').where('scan_id', '=', scan.id).where(nocase(db, sql`alliance`), '=', nocase(db, sql`${alliance}`)).executeTakeFirst();
    query = exact ? query.where('r.alliance', '=', exact.alliance) : query.where(sql`r.alliance`, likeOperator(db), sql`${containing(alliance)} escape '\\'`);
  }
  const q = filter.q?.trim();
  if (q) {
    const like = containing(q);
    query = /^\d+$/.test(q)
      ? query.where((eb) => eb.or([eb(sql`cast(r.governor_id as text)`, 'like', `${q}%`), eb(sql`r.name`, likeOperator(db), sql`${like} escape '\\'`)]))
      : query.where(sql`r.name`, likeOperator(db), sql`${like} escape '\\'`);
  }
  // unfiltered, the count is the scan's own
  const filtered = !!alliance || !!q;
  const total = filtered ? (await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total : scan.rows;

  const sort = filter.sort ?? 'power';
  const order = filter.order ?? (sort === 'name' || sort === 'alliance' || sort === 'governorId' ? 'asc' : 'desc');
  let key = sort === 'name' || sort === 'alliance' ? sql`${nocase(db, sql.ref(SORT_COLUMNS[sort]))}` : sql`${sql.ref(SORT_COLUMNS[sort])}`;
  let sorted = query;
  if (filter.gain) {
    // top gains: the change since `compare`; a governor not in that scan has none and comes last
    if (!compare || !(STATS as readonly string[]).includes(sort)) throw new Invalid(SCAN_ERRORS.badGain);
    const column = columnOf(sort as Stat);
    sorted = sorted.leftJoin('scan_rows as c', (join) => join.onRef('c.governor_id', '=', 'r.governor_id').on('c.scan_id', '=', compare.id));
    key = sql`(${sql.ref(`r.${column}`)} - ${sql.ref(`c.${column}`)})`;
  }
  const rows = await sorted
    .selectAll('r')
    .orderBy(sql`${key} is null`)
    .orderBy(sql`${key} ${sql.raw(order)}`)
    .orderBy('r.governor_id', 'asc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();

  let before = new Map<number, ScanRowRow>();
  if (compare && rows.length) {
    const old = await db
      .selectFrom('scan_rows')
      .selectAll()
      .where('scan_id', '=', compare.id)
      .where(
        'governor_id',
        'in',
        rows.map((r) => r.governor_id),
      )
      .execute();
    before = new Map(old.map((r) => [r.governor_id, r]));
  }
  const governors = rows.map((r): GovernorRow => {
    const stats = statsOf(r);
    const row: GovernorRow = { governorId: r.governor_id, name: r.name, alliance: r.alliance, kingdom: r.kingdom, ...stats };
    if (compare) {
      const old = before.get(r.governor_id);
      row.change = old
        ? (Object.fromEntries(
            STATS.map((s) => {
              const was = old[columnOf(s)] as number | null;
              return [s, stats[s] === null || was === null ? null : (stats[s] as number) - was];
            }),
          ) as GovernorRow['change'])
        : null;
    }
    return row;
  });
  return { scan, compare, total: Number(total), governors, page, pageSize };
}

/** Every governor of a scan matching the filters, in the table's order, for the CSV export (read a page at a time). */
export async function* allGovernors(db: Db, filter: GovernorsFilter): AsyncGenerator<GovernorRow[]> {
  for (let page = 1; ; page++) {
    const { governors } = await listGovernors(db, { ...filter, page, pageSize: 500 });
    if (governors.length) yield governors;
    if (governors.length < 500) return;
  }
}

/** A governor's row in every scan that saw it, with the scan's time, by when the scans were taken (404 when no scan did). */
export async function governorScanRows(db: Db, governorId: number, order: 'asc' | 'desc') {
  const rows = await db
    .selectFrom('scan_rows as r')
    .innerJoin('scans as s', 's.id', 'r.scan_id')
    .selectAll('r')
    .select('s.taken_at')
    .where('r.governor_id', '=', governorId)
    .orderBy('s.taken_at', order)
    .orderBy('s.id', order)
    .execute();
  if (rows.length === 0) throw new NotFound(SCAN_ERRORS.unknownGovernor);
  return rows;
}

/** GET governors/:governorId: its history over every scan (oldest first), the names and alliances seen, and the account that claims it. */
export async function governorDetail(db: Db, governorId: number): Promise<GovernorDetail> {
  const rows = await governorScanRows(db, governorId, 'asc');
  const history: HistoryEntry[] = rows.map((r) => ({ scanId: r.scan_id, takenAt: r.taken_at, name: r.name, alliance: r.alliance, kingdom: r.kingdom, ...statsOf(r) }));
  const latest = rows[rows.length - 1];
  const account = await db.selectFrom('governor_links as l').innerJoin('users as u', 'u.id', 'l.user_id').select('u.username').where('l.governor_id', '=', governorId).executeTakeFirst();
  return {
    governorId,
    name: latest.name,
    alliance: latest.alliance,
    account: account ? { username: account.username } : null,
    names: [...new Set(rows.map((r) => r.name).filter((n) => n !== ''))],
    alliances: [...new Set(rows.map((r) => r.alliance).filter((a) => a !== ''))],
    history,
  };
}
