import { sql } from 'kysely';
import { CARD_ERRORS, CARD_TOPS, governorCardQuery, itemCardQuery, kvkCardQuery, type CardTheme } from '../../src/protocol/cards';
import { SCAN_ERRORS } from '../../src/protocol/scans';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import type { KvkStatus } from '../../src/protocol/kvk';
import { DEFAULT_LOCALE, type Locale } from '../../src/protocol/locales';
import { rankAllows } from '../auth/access';
import type { Db } from '../db/open';
import { readSettings } from '../kingdom/settings';
import { ownsGovernor } from '../scans/directory';
import { columnOf } from '../scans/scans';
import { governorScanRows } from '../scans/kingdom-view';
import { findSeasonRow, latestScanRef, runningSeason, toSeason } from '../kvk/seasons';
import { computeStandings, filterStandings, sortStandings } from '../kvk/standings';
import { Forbidden, Invalid, NotFound } from '../errors';

/**
 * What a card shows, read from the database: plain JSON (it crosses to the drawing worker and its
 * hash is the card's ETag, so the same data draws the same bytes). A stat nobody scanned is null,
 * and the card says "not scanned", never 0.
 */
export const CARD_STATS = ['power', 'killpoints', 'deads', 't4Kills', 't5Kills'] as const;
export type CardStat = (typeof CARD_STATS)[number];

export interface GovernorCardData {
  kind: 'governor';
  kingdom: string;
  governorId: number;
  name: string;
  alliance: string;
  takenAt: number;
  stats: Record<CardStat, number | null>;
  /** Since the governor's scan before this one; null when there is none or either value was not scanned. */
  change: Record<CardStat, number | null>;
  /** Place in the kingdom in that scan (1 = first); null when the stat was not scanned. */
  rank: { power: number | null; killpoints: number | null };
  /** While a KvK season runs (the card's scan is its latest). */
  kvk: { season: string; dkp: number; required: { kills: number; deads: number }; progress: { kills: number; deads: number }; status: KvkStatus } | null;
}

export interface KvkCardRow {
  place: number;
  name: string;
  alliance: string;
  dkp: number;
  progress: { kills: number; deads: number };
  status: KvkStatus;
}

export interface KvkCardData {
  kind: 'kvk';
  kingdom: string;
  season: string;
  window: string | null;
  alliance: string | null;
  running: boolean;
  from: number;
  to: number | null;
  rows: KvkCardRow[];
  /** The season's (or window's, or alliance's) totals over every governor, not only the rows shown. */
  totals: { governors: number; met: number; dkp: number; t4Kills: number; t5Kills: number; deads: number };
}

export interface SaleCardData {
  kind: 'sale';
  kingdom: string;
  itemName: string;
  /** The item's uploaded image (`/uploads/…`), read by the worker from the uploads folder; null without one. */
  image: string | null;
  winner: string;
  amount: number;
  at: number;
}

export type CardData = GovernorCardData | KvkCardData | SaleCardData;

/** What is asked for: which card, in which language and theme. */
export type CardRequest = { lang: Locale; theme: CardTheme } & (
  | { kind: 'governor'; governorId: number; scan?: number }
  | { kind: 'kvk'; seasonId: number; window?: string; alliance?: string; top: number }
  | { kind: 'items'; itemId: number }
);

/** Who reads a card: a signed-in account, or (through a share link) the link's creator as they are now. */
export interface Viewer {
  id: number;
  rank: string;
}

const idOf = (text: string, error: string): number => {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new Invalid(error);
  return Number(text);
};

const firstIssue = (error: { issues: readonly { message: string }[] }) => new Invalid(error.issues[0]?.message ?? CARD_ERRORS.badPath);

/** A card request from a route's id and query (already the strings of the URL). */
export function cardRequestOf(kind: 'governor' | 'kvk' | 'items', id: string, query: Record<string, unknown>): CardRequest {
  switch (kind) {
    case 'governor': {
      const q = governorCardQuery.safeParse(query);
      if (!q.success) throw firstIssue(q.error);
      return { kind, governorId: idOf(id, CARD_ERRORS.badGovernorId), ...(q.data.scan ? { scan: Number(q.data.scan) } : {}), lang: q.data.lang ?? DEFAULT_LOCALE, theme: q.data.theme ?? 'light' };
    }
    case 'kvk': {
      const q = kvkCardQuery.safeParse(query);
      if (!q.success) throw firstIssue(q.error);
      return {
        kind,
        seasonId: idOf(id, CARD_ERRORS.badSeasonId),
        ...(q.data.window ? { window: q.data.window } : {}),
        ...(q.data.alliance ? { alliance: q.data.alliance } : {}),
        top: q.data.top ? Number(q.data.top) : CARD_TOPS[0],
        lang: q.data.lang ?? DEFAULT_LOCALE,
        theme: q.data.theme ?? 'light',
      };
    }
    case 'items': {
      const q = itemCardQuery.safeParse(query);
      if (!q.success) throw firstIssue(q.error);
      return { kind, itemId: idOf(id, CARD_ERRORS.badItemId), lang: q.data.lang ?? DEFAULT_LOCALE, theme: q.data.theme ?? 'light' };
    }
  }
}

const CARD_PATH = /^\/cards\/(governor|kvk|items)\/([^/?#.]+)\.png(?:\?([^#]*))?$/;

/** A share link's path read back into a card request (400 for anything that is not a card's path). */
export function parseCardPath(path: string): CardRequest {
  const match = CARD_PATH.exec(path);
  if (!match) throw new Invalid(CARD_ERRORS.badPath);
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(match[3] ?? '')) {
    if (key in query) throw new Invalid(CARD_ERRORS.badPath);
    query[key] = value;
  }
  return cardRequestOf(match[1] as 'governor' | 'kvk' | 'items', match[2], query);
}

/** The data of the card asked for, after checking the viewer may read it (as the routes of that data do). */
export async function cardData(db: Db, request: CardRequest, viewer: Viewer): Promise<CardData> {
  switch (request.kind) {
    case 'governor':
      if (!rankAllows(viewer.rank, 'council+admin') && !(await ownsGovernor(db, viewer.id, request.governorId))) throw new Forbidden(SCAN_ERRORS.notYourGovernor);
      return governorCard(db, request.governorId, request.scan);
    case 'kvk':
      if (!rankAllows(viewer.rank, 'council+admin')) throw new Forbidden(AUTH_ERRORS.forbidden);
      return kvkCard(db, request.seasonId, request.window, request.alliance, request.top);
    case 'items':
      return saleCard(db, request.itemId, viewer);
  }
}

async function kingdomName(db: Db): Promise<string> {
  return (await readSettings(db)).kingdomName;
}

async function governorCard(db: Db, governorId: number, scanId: number | undefined): Promise<GovernorCardData> {
  // the governor's rows, newest first: the card's scan (the one asked for, else its latest) and the one before it
  const rows = await governorScanRows(db, governorId, 'desc');
  const at = scanId === undefined ? 0 : rows.findIndex((r) => r.scan_id === scanId);
  if (at < 0) {
    const exists = await db.selectFrom('scans').select('id').where('id', '=', scanId as number).executeTakeFirst();
    throw new NotFound(exists ? CARD_ERRORS.notInScan : SCAN_ERRORS.unknownScan);
  }
  const row = rows[at];
  const before = rows[at + 1];
  const stats = {} as Record<CardStat, number | null>;
  const change = {} as Record<CardStat, number | null>;
  for (const stat of CARD_STATS) {
    const value = row[columnOf(stat)] as number | null;
    const was = before ? (before[columnOf(stat)] as number | null) : null;
    stats[stat] = value === null ? null : Number(value);
    change[stat] = value === null || was === null ? null : Number(value) - Number(was);
  }
  const rankBy = async (stat: 'power' | 'killpoints') => {
    const value = stats[stat];
    if (value === null) return null;
    const column = columnOf(stat);
    const above = await db
      .selectFrom('scan_rows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scan_id', '=', row.scan_id)
      .where(sql.ref(column), '>', value)
      .executeTakeFirstOrThrow();
    return Number(above.n) + 1;
  };
  const [kingdom, power, killpoints, kvk] = await Promise.all([kingdomName(db), rankBy('power'), rankBy('killpoints'), governorKvk(db, governorId, row.scan_id)]);
  return {
    kind: 'governor',
    kingdom,
    governorId,
    name: row.name,
    alliance: row.alliance,
    takenAt: Number(row.taken_at),
    stats,
    change,
    rank: { power, killpoints },
    kvk,
  };
}

/** The governor in the running season, when the card shows the season's latest scan. */
async function governorKvk(db: Db, governorId: number, scanId: number): Promise<GovernorCardData['kvk']> {
  const row = await runningSeason(db);
  if (!row) return null;
  const season = await toSeason(db, row, await latestScanRef(db));
  if (season.endScan?.id !== scanId) return null;
  const computed = await computeStandings(db, season, undefined);
  const standing = computed.standings.find((s) => s.governorId === governorId);
  if (!standing) return null;
  return { season: season.name, dkp: standing.dkp, required: standing.required, progress: standing.progress, status: standing.status };
}

async function kvkCard(db: Db, seasonId: number, window: string | undefined, alliance: string | undefined, top: number): Promise<KvkCardData> {
  const season = await toSeason(db, await findSeasonRow(db, seasonId));
  const computed = await computeStandings(db, season, window);
  const chosen = filterStandings(computed.standings, { alliance, q: undefined, status: undefined });
  const ranked = sortStandings(chosen, 'dkp', 'desc');
  const totals = { governors: chosen.length, met: 0, dkp: 0, t4Kills: 0, t5Kills: 0, deads: 0 };
  for (const s of chosen) {
    if (s.status === 'met') totals.met += 1;
    totals.dkp += s.dkp;
    totals.t4Kills += s.gains.t4Kills ?? 0;
    totals.t5Kills += s.gains.t5Kills ?? 0;
    totals.deads += s.gains.deads ?? 0;
  }
  return {
    kind: 'kvk',
    kingdom: await kingdomName(db),
    season: season.name,
    window: computed.window,
    alliance: alliance ?? null,
    running: season.running,
    from: computed.from.takenAt,
    to: computed.to?.takenAt ?? null,
    rows: ranked.slice(0, top).map((s, i) => ({ place: i + 1, name: s.name, alliance: s.alliance, dkp: s.dkp, progress: s.progress, status: s.status })),
    totals,
  };
}

async function saleCard(db: Db, itemId: number, viewer: Viewer): Promise<SaleCardData> {
  const item = await db.selectFrom('items').select(['id', 'name', 'image_url']).where('id', '=', itemId).executeTakeFirst();
  if (!item) throw new NotFound(CARD_ERRORS.unknownItem);
  const sale = await db
    .selectFrom('sales as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 's.amount', 's.at', 'u.username'])
    .where('s.item_id', '=', itemId)
    .orderBy('s.id', 'desc')
    .executeTakeFirst();
  if (!sale) throw new NotFound(CARD_ERRORS.notSold);
  if (!rankAllows(viewer.rank, 'council+admin') && sale.user_id !== viewer.id) throw new Forbidden(CARD_ERRORS.notYourSale);
  return {
    kind: 'sale',
    kingdom: await kingdomName(db),
    itemName: item.name,
    image: item.image_url ?? null,
    winner: sale.username,
    amount: Number(sale.amount),
    at: Number(sale.at),
  };
}
