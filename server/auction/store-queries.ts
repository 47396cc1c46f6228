import { isSealed, type Bid, type Item, type ItemFormat, type MaxBid, type StoreState } from '../../src/protocol/socket';
import {
  HISTORY_BIDS,
  HISTORY_FINISHED_ITEMS,
  SALES_PAGE_SIZE,
  STORE_ITEMS_PAGE_SIZE,
  type HistoryEntry,
  type HistoryOutcome,
  type ItemState,
  type Sale,
  type SealedHistoryBid,
  type StoreItem,
} from '../../src/protocol/store';
import type { Queryable } from '../db/write';
import { storeIsOpen } from '../kingdom/settings';
import { selectBids, selectItems, toBid, toStoreItem } from './wire';

/** The store's reads: item lists, sales, the history of finished items, HISTORY's snapshot. They change nothing. */

function orderFor(state: ItemState | undefined) {
  switch (state) {
    case 'scheduled':
      return [['i.starts_at', 'asc'], ['i.id', 'asc']] as const;
    case 'live':
      return [['i.ends_at', 'asc'], ['i.id', 'asc']] as const;
    case 'finished':
    case 'cancelled':
      return [['i.settled_at', 'desc'], ['i.id', 'desc']] as const;
    default:
      return [['i.id', 'desc']] as const;
  }
}

/** Items, optionally of one state, a page at a time (scheduled by start, live by end, the rest newest first). */
export async function listItems(
  db: Queryable,
  now: number,
  state: ItemState | undefined,
  page = 1,
  options: { reserve?: boolean } = {},
): Promise<{ items: StoreItem[]; page: number; pageSize: number; total: number }> {
  let query = selectItems(db);
  let count = db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n'));
  if (state) {
    query = query.where('i.state', '=', state);
    count = count.where('state', '=', state);
  }
  for (const [column, direction] of orderFor(state)) query = query.orderBy(column, direction);
  const [rows, total] = await Promise.all([
    query.limit(STORE_ITEMS_PAGE_SIZE).offset((page - 1) * STORE_ITEMS_PAGE_SIZE).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toStoreItem(r, now, options)), page, pageSize: STORE_ITEMS_PAGE_SIZE, total: Number(total.n) };
}

/** Sales newest first, a page at a time; optionally one buyer's. */
export async function listSales(db: Queryable, { userId, page = 1 }: { userId?: number; page?: number }): Promise<{ sales: Sale[]; page: number; pageSize: number; total: number }> {
  let query = db.selectFrom('sales as s').innerJoin('items as i', 'i.id', 's.item_id').innerJoin('users as u', 'u.id', 's.user_id');
  if (userId !== undefined) query = query.where('s.user_id', '=', userId);
  const [rows, total] = await Promise.all([
    query
      .select(['s.item_id', 'i.name', 'u.username', 's.amount', 's.at'])
      .orderBy('s.at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(SALES_PAGE_SIZE)
      .offset((page - 1) * SALES_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    sales: rows.map((r) => ({ itemId: r.item_id, itemName: r.name, username: r.username, amount: r.amount, at: r.at })),
    page,
    pageSize: SALES_PAGE_SIZE,
    total: Number(total.n),
  };
}

/** The store history's filters: the buyer, the end between from and to (inclusive), sold, unsold or cancelled. */
export interface HistoryFilter {
  userId?: number;
  from?: number;
  to?: number;
  outcome?: HistoryOutcome;
}

/** Every finished or cancelled item, sold (with its buyer and price), unsold or cancelled, by end newest first, a page at a time. */
export async function historyEntries(db: Queryable, filter: HistoryFilter, page: number): Promise<{ entries: HistoryEntry[]; page: number; pageSize: number; total: number }> {
  const [rows, total] = await Promise.all([
    historyQuery(db, filter)
      .orderBy('i.ends_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(SALES_PAGE_SIZE)
      .offset((page - 1) * SALES_PAGE_SIZE)
      .execute(),
    historyBase(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const entries = rows.map(toHistoryEntry);
  const sealed = rows.filter((r) => isSealed(r.format) && r.state === 'finished').map((r) => r.id);
  const bids = await sealedBidsOf(db, sealed);
  const maxima = await winningMaxima(db, entries.filter((e) => e.outcome === 'sold' && e.format === undefined).map((e) => e.itemId));
  for (const entry of entries) {
    const own = bids.get(entry.itemId);
    if (own) entry.sealedBids = own;
    const max = maxima.get(entry.itemId);
    if (max !== undefined) entry.winningMax = max;
  }
  return { entries, page, pageSize: SALES_PAGE_SIZE, total: Number(total.n) };
}

/**
 * The buyers' maxima that still stood when their items ended (the route that reads it is council's
 * and admin's; while an item runs nobody but its owner reads a max).
 */
async function winningMaxima(db: Queryable, itemIds: number[]): Promise<Map<number, number>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('max_bids as m')
    .innerJoin('sales as s', (join) => join.onRef('s.item_id', '=', 'm.item_id').onRef('s.user_id', '=', 'm.user_id'))
    .innerJoin('items as i', 'i.id', 'm.item_id')
    .select(['m.item_id', 'm.max'])
    .where('m.item_id', 'in', itemIds)
    .where('m.exhausted_at', 'is', null)
    .where('i.state', '=', 'finished')
    .execute();
  return new Map(rows.map((r) => [r.item_id, r.max]));
}

/**
 * The standing bids of finished sealed items (each player's highest, when they made it), highest
 * first, the earlier first on a tie: shown once the item has ended.
 */
async function sealedBidsOf(db: Queryable, itemIds: number[]): Promise<Map<number, SealedHistoryBid[]>> {
  const out = new Map<number, SealedHistoryBid[]>();
  if (itemIds.length === 0) return out;
  const rows = await db
    .selectFrom('bids as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.item_id', 'b.user_id', 'u.username', 'b.amount', 'b.created_at', 'b.id'])
    .where('b.item_id', 'in', itemIds)
    .orderBy('b.id')
    .execute();
  const standing = new Map<string, { itemId: number; bid: SealedHistoryBid; id: number }>();
  // (bids in id order: a raise replaces the player's earlier bid)
  for (const r of rows) standing.set(`${r.item_id}:${r.user_id}`, { itemId: r.item_id, bid: { username: r.username, amount: r.amount, at: r.created_at }, id: r.id });
  const sorted = [...standing.values()].sort((a, b) => b.bid.amount - a.bid.amount || a.id - b.id);
  for (const { itemId, bid } of sorted) {
    let list = out.get(itemId);
    if (!list) out.set(itemId, (list = []));
    list.push(bid);
  }
  return out;
}

/** Every matching history entry, newest first, read in chunks (for the CSV export). */
export async function* allHistoryEntries(db: Queryable, filter: HistoryFilter, chunk = 2000): AsyncGenerator<HistoryEntry[]> {
  let after: { endsAt: number; id: number } | null = null;
  for (;;) {
    let query = historyQuery(db, filter);
    if (after) {
      const { endsAt, id } = after;
      query = query.where((eb) => eb.or([eb('i.ends_at', '<', endsAt), eb.and([eb('i.ends_at', '=', endsAt), eb('i.id', '<', id)])]));
    }
    const rows = await query.orderBy('i.ends_at', 'desc').orderBy('i.id', 'desc').limit(chunk).execute();
    if (rows.length === 0) return;
    yield rows.map(toHistoryEntry);
    const last = rows[rows.length - 1];
    after = { endsAt: last.ends_at, id: last.id };
    if (rows.length < chunk) return;
  }
}

/**
 * HISTORY's snapshot: the latest bids (not on cancelled items; on a sealed item still running, the
 * reader's own only), every live item and the most
 * recently finished ones, and whether the store is open. The engine reads it inside its queue.
 */
export async function auctionSnapshot(db: Queryable, now: number, readerId: number | null = null): Promise<{ bids: Bid[]; items: Item[]; store: StoreState; maxBids?: MaxBid[] }> {
  // a sealed item's bids, while it runs, only the reader's own
  const bids = await selectBids(db)
    .where('i.state', '!=', 'cancelled')
    .where((eb) => eb.or([eb('i.format', '=', 'english'), eb('i.state', '!=', 'live'), eb('b.user_id', '=', readerId)]))
    .limit(HISTORY_BIDS)
    .execute();
  const live = await selectItems(db).where('i.state', '=', 'live').orderBy('i.ends_at').orderBy('i.id').execute();
  const finished = await selectItems(db).where('i.state', '=', 'finished').orderBy('i.settled_at', 'desc').orderBy('i.id', 'desc').limit(HISTORY_FINISHED_ITEMS).execute();
  const store: StoreState = (await storeIsOpen(db)) ? 'open' : 'closed';
  // the reader's own maxima on live items (nobody else's, ever)
  const maxBids =
    readerId === null
      ? []
      : await db
          .selectFrom('max_bids as m')
          .innerJoin('items as i', 'i.id', 'm.item_id')
          .select(['m.item_id', 'm.max', 'i.leader_id'])
          .where('m.user_id', '=', readerId)
          .where('i.state', '=', 'live')
          .orderBy('m.item_id')
          .execute();
  return {
    bids: bids.map(toBid),
    items: [...live, ...finished].map((r) => toStoreItem(r, now)),
    store,
    ...(maxBids.length ? { maxBids: maxBids.map((m) => ({ itemId: m.item_id, max: m.max, leading: m.leader_id === readerId })) } : {}),
  };
}

function historyBase(db: Queryable, filter: HistoryFilter) {
  let query = db.selectFrom('items as i').leftJoin('sales as s', 's.item_id', 'i.id').where('i.state', 'in', ['finished', 'cancelled']);
  if (filter.userId !== undefined) query = query.where('s.user_id', '=', filter.userId);
  if (filter.from !== undefined) query = query.where('i.ends_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('i.ends_at', '<=', filter.to);
  if (filter.outcome === 'sold') query = query.where('s.id', 'is not', null);
  if (filter.outcome === 'unsold') query = query.where('s.id', 'is', null).where('i.state', '=', 'finished');
  if (filter.outcome === 'cancelled') query = query.where('i.state', '=', 'cancelled');
  return query;
}

function historyQuery(db: Queryable, filter: HistoryFilter) {
  return historyBase(db, filter)
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select(['i.id', 'i.name', 'i.state', 'i.format', 'i.ends_at', 'i.settled_at', 's.id as sale_id', 's.amount', 's.at', 'u.username']);
}

function toHistoryEntry(r: { id: number; name: string; state: string; format: ItemFormat; ends_at: number; settled_at: number | null; sale_id: number | null; amount: number | null; at: number | null; username: string | null }): HistoryEntry {
  const sold = r.sale_id !== null;
  const cancelled = r.state === 'cancelled';
  return {
    itemId: r.id,
    itemName: r.name,
    outcome: sold ? 'sold' : cancelled ? 'cancelled' : 'unsold',
    // (absent: english)
    ...(r.format === 'english' ? {} : { format: r.format }),
    username: sold ? r.username : null,
    amount: sold ? r.amount : null,
    // a cancelled item ends when it is cancelled
    at: sold && r.at !== null ? r.at : cancelled && r.settled_at !== null ? r.settled_at : r.ends_at,
  };
}
