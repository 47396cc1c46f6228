import { bidFault, leastBid, pointsForBid } from '../../src/protocol/store';
import { isSealed, type ErrorType, type ItemFormat } from '../../src/protocol/socket';
import type { ItemRow, UserRow } from '../db/schema';
import type { Queryable } from '../db/write';
import { readEligibility } from './wire';

/**
 * The rules of one bid, and the engine's read-only picture of what they read.
 *
 * `judgeBid` is the only place a bid's verdict is decided. The write transaction calls it with the
 * rows it read (every fact known); the cheap refusal path calls it with `BidView`'s picture, where
 * a fact that queued work could still change is "unknown" — and an unknown fact needed for the
 * verdict sends the bid to the transaction. So a bid is refused early only with the error the
 * transaction would give it at its place in the queue:
 *
 * - The picture is the committed state, updated by each bid job before that job leaves the queue,
 *   and reloaded (inside the queue) after every other job (`AuctionEngine.exclusive`). While any
 *   other job is queued or running (a grant, a start or an end, a cancel, the store's settings)
 *   nothing is refused early at all.
 * - Otherwise only bid jobs stand between the picture and the bid's place in the queue, and a bid
 *   job changes only its item's amount, leader, end and extensions and two users' reserved points.
 *   Each fact the picture uses is stable under them or moves one way: items are never created or
 *   reopened and the store setting is not touched (UNKNOWN_ITEM, BID_OPEN_ERROR for a state); the
 *   next minimum only rises (BID_AMOUNT_ERROR); an end only moves later, so "ended" is unknown
 *   while bids are queued for an item that may still be extended — except that a bid at the
 *   buy-now price ends its item at once, so while bids are queued for an item that can still be
 *   bought nothing about it is refused early; a bidder's available points
 *   only fall through their own bids, and rise only when a queued bid outbids them, so they are
 *   unknown while the bidder leads an item with queued bids. Eligibility reads ranks and groups,
 *   which change outside the queue: unknown whenever the item restricts bidding.
 * - A request id already stored or queued is never refused early (the stored answer, or the queue,
 *   answers it), so an accepted bid's requestId keeps its one answer.
 */

/** A fact the cheap path does not know (the transaction always does). */
export const UNKNOWN = 'unknown' as const;

/** What a bid's verdict reads of its item. */
export interface ItemFacts {
  id: number;
  state: ItemRow['state'];
  startedAt: number | null;
  endsAt: number;
  amount: number;
  minIncrement: number;
  startPrice: number;
  leaderId: number | null;
  extendWindowS: number;
  maxExtensions: number;
  extensions: number;
  /** Bidding is limited to ranks or groups. */
  restricted: boolean;
  format: ItemFormat;
  buyNowPrice: number | null;
}

export interface BidFacts {
  storeOpen: boolean;
  /** null: there is no such item. */
  item: ItemFacts | null;
  /** The end may be later than item.endsAt by the time the bid is judged (queued bids may extend it). */
  endMayMove: boolean;
  mayBid: boolean | typeof UNKNOWN;
  bidder: Pick<UserRow, 'id' | 'balance' | 'reserved'> | typeof UNKNOWN;
  /** A sealed item: the bidder's standing bid on it (null: none yet). Not read for an english item. */
  ownBid?: number | null | typeof UNKNOWN;
}

export function itemFacts(row: ItemRow): ItemFacts {
  const rules = readEligibility(row.eligibility);
  return {
    id: row.id,
    state: row.state,
    startedAt: row.started_at,
    endsAt: row.ends_at,
    amount: row.amount,
    minIncrement: row.min_increment,
    startPrice: row.start_price,
    leaderId: row.leader_id,
    extendWindowS: row.extend_window_s,
    maxExtensions: row.max_extensions,
    extensions: row.extensions,
    restricted: Boolean(rules.ranks?.length || rules.groups?.length),
    format: row.format,
    buyNowPrice: row.buy_now_price,
  };
}

/** An english item that a bid could still buy at its buy-now price. */
function buyableNow(item: Pick<ItemFacts, 'format' | 'buyNowPrice' | 'leaderId' | 'amount'>): boolean {
  return item.format === 'english' && item.buyNowPrice !== null && (item.leaderId === null || item.amount < item.buyNowPrice);
}

/**
 * Whether a bid of `amount` buys the item now: an english item with a buy-now price, an amount
 * below it, and a bid of at least it (the item then sells at the buy-now price).
 */
export function buysNow(item: Pick<ItemFacts, 'format' | 'buyNowPrice' | 'leaderId' | 'amount'>, amount: unknown): item is ItemFacts & { buyNowPrice: number } {
  if (item.format !== 'english' || item.buyNowPrice === null || !validAmount(amount)) return false;
  return amount >= item.buyNowPrice && (item.leaderId === null || item.amount < item.buyNowPrice);
}

export function validAmount(amount: unknown): amount is number {
  return bidFault(amount, 1) === null;
}

/** The least a bid on this item may be now. */
export function minimumBid(item: Pick<ItemFacts, 'leaderId' | 'startPrice' | 'amount' | 'minIncrement'>): number {
  return leastBid(item.leaderId !== null, item.amount, item.startPrice, item.minIncrement);
}

/**
 * The verdict on a bid of `amount` that reached the server at `at`: the error it gets, null when
 * it is accepted, or UNKNOWN when a fact it needs is unknown. The checks run in this order, and the
 * first that fails names the error.
 */
export function judgeBid(facts: BidFacts, amount: unknown, at: number): ErrorType | null | typeof UNKNOWN {
  // leadership closed the store: every bid is refused
  if (!facts.storeOpen) return 'BID_OPEN_ERROR';
  const { item } = facts;
  if (!item) return 'UNKNOWN_ITEM';
  // judged at arrival: before the item went live, or once its end had passed, is too early or too late
  if (item.state !== 'live' || (item.startedAt !== null && at < item.startedAt)) return 'BID_OPEN_ERROR';
  if (at >= item.endsAt) return facts.endMayMove ? UNKNOWN : 'BID_OPEN_ERROR';
  if (facts.mayBid === UNKNOWN) return UNKNOWN;
  if (!facts.mayBid) return 'BID_NOT_ALLOWED';
  const { bidder } = facts;
  let fault: ReturnType<typeof bidFault>;
  let available: number | undefined;
  if (isSealed(item.format)) {
    // one bid per player, raised by at least the increment; their standing bid is reserved already, theirs to raise
    const own = facts.ownBid ?? null;
    if (own === UNKNOWN) return bidFault(amount, 1) === 'amount' ? 'BID_AMOUNT_ERROR' : UNKNOWN;
    available = bidder === UNKNOWN ? undefined : pointsForBid(bidder.balance - bidder.reserved, own ?? 0);
    fault = bidFault(amount, own === null ? Math.max(item.startPrice, 1) : own + item.minIncrement, available);
  } else {
    available = bidder === UNKNOWN ? undefined : pointsForBid(bidder.balance - bidder.reserved, item.leaderId === bidder.id ? item.amount : 0);
    // a bid that buys the item now is judged at the buy-now price (above the amount, so it leads)
    fault = buysNow(item, amount) ? bidFault(item.buyNowPrice, item.buyNowPrice, available) : bidFault(amount, minimumBid(item), available);
  }
  if (fault === 'amount' || fault === 'minimum') return 'BID_AMOUNT_ERROR';
  if (available === undefined) return UNKNOWN;
  if (fault === 'points') return 'OUT_OF_BALANCE';
  return null;
}

/** The end after an accepted bid at `at`: soft close moves it to at + extendWindow, a limited number of times. */
export function endAfterBid(item: Pick<ItemFacts, 'endsAt' | 'extendWindowS' | 'extensions' | 'maxExtensions' | 'format'>, at: number): { endsAt: number; extensions: number } {
  // a sealed item has no soft close: nobody sees a bid to answer
  if (isSealed(item.format)) return { endsAt: item.endsAt, extensions: item.extensions };
  const window = item.extendWindowS * 1000;
  // in the window, at + window is later than the end: an end never moves earlier
  if (window > 0 && item.endsAt - at < window && item.extensions < item.maxExtensions) return { endsAt: at + window, extensions: item.extensions + 1 };
  return { endsAt: item.endsAt, extensions: item.extensions };
}

/** The verdict of the cheap path on one request. */
export type EarlyVerdict =
  | { kind: 'queue' }
  | { kind: 'refuse'; errorType: ErrorType }
  /** Refused early before under the same requestId: the same answer again. */
  | { kind: 'remembered'; errorType: ErrorType; itemId: number };

/** How many early refusals are remembered (by user and requestId) to answer a repeat the same way. */
export const REMEMBERED_REFUSALS = 10_000;

type Closed = { state: 'closed' };
const CLOSED: Closed = { state: 'closed' };

/** The engine's picture of the committed state, for refusing early (see the top of this file). */
export class BidView {
  /**
   * Other processes write to the same database (PostgreSQL, several servers): they may open the
   * store, start or create an item, extend an end or free a bidder's points at any moment, and this
   * picture hears of it a little later. Then only what no other process can undo is refused early:
   * an item that is over, an amount that is not a valid amount or below the item's minimum (which
   * only rises); anything else goes to the transaction.
   */
  private readonly shared: boolean;

  constructor(options: { shared?: boolean } = {}) {
    this.shared = options.shared ?? false;
  }

  private ready = false;
  private storeOpen = true;
  private maxItemId = 0;
  private readonly items = new Map<number, ItemFacts | Closed>();
  private readonly balances = new Map<number, Pick<UserRow, 'id' | 'balance' | 'reserved'>>();
  /** Jobs other than bids, queued or running. */
  private others = 0;
  /** Bid jobs queued or running, by item. */
  private readonly bidsByItem = new Map<number, number>();
  /** Bid jobs queued or running, by `userId:requestId`. */
  private readonly requests = new Map<string, number>();
  private readonly refused = new Map<string, { errorType: ErrorType; itemId: number }>();

  /** Counters for tests and the admin dashboard: bids refused early and bids sent to the queue. */
  readonly stats = { early: 0, queued: 0 };

  static key(userId: number, requestId: string): string {
    return `${userId}:${requestId}`;
  }

  get isReady(): boolean {
    return this.ready;
  }

  verdict(userId: number, itemId: number, requestId: string, amount: unknown, at: number): EarlyVerdict {
    if (!this.ready || this.others > 0) return { kind: 'queue' };
    const key = BidView.key(userId, requestId);
    if (this.requests.has(key)) return { kind: 'queue' };
    const remembered = this.refused.get(key);
    if (remembered) return { kind: 'remembered', ...remembered };
    // (no other job is queued, so no item is being created: an id not in the picture is unknown)
    const known = this.items.get(itemId);
    if (this.shared && (!this.storeOpen || (known === undefined && itemId > this.maxItemId) || known?.state === 'scheduled')) return { kind: 'queue' };
    const item = known === undefined ? null : known.state === 'closed' ? { ...CLOSED_FACTS, id: itemId } : known;
    const queued = this.shared || (this.bidsByItem.get(itemId) ?? 0) > 0;
    // a queued bid may buy the item, ending it at once (the one way an end moves earlier): whether it is open is unknown
    if (queued && item !== null && item.state !== 'finished' && buyableNow(item)) return { kind: 'queue' };
    const verdict = judgeBid(
      {
        storeOpen: this.storeOpen,
        item,
        endMayMove: queued && item !== null && item.extendWindowS > 0 && item.extensions < item.maxExtensions,
        mayBid: item?.restricted ? UNKNOWN : true,
        // (a sealed item's standing bids are read in the transaction only)
        ownBid: UNKNOWN,
        bidder: this.shared || this.leadsQueuedItem(userId) ? UNKNOWN : (this.balances.get(userId) ?? UNKNOWN),
      },
      amount,
      at,
    );
    if (verdict === null || verdict === UNKNOWN) return { kind: 'queue' };
    return { kind: 'refuse', errorType: verdict };
  }

  private leadsQueuedItem(userId: number): boolean {
    for (const itemId of this.bidsByItem.keys()) {
      const item = this.items.get(itemId);
      if (item && item.state !== 'closed' && item.leaderId === userId) return true;
    }
    return false;
  }

  /** An early refusal, so that the same requestId gets the same answer (while it is remembered). */
  remember(userId: number, requestId: string, itemId: number, errorType: ErrorType): void {
    const key = BidView.key(userId, requestId);
    if (this.requests.has(key)) return;
    this.refused.delete(key);
    this.refused.set(key, { errorType, itemId });
    if (this.refused.size > REMEMBERED_REFUSALS) this.refused.delete(this.refused.keys().next().value as string);
  }

  // ── kept by the engine ──────────────────────────────────────────────────────────────────

  /** A bid enters the queue (synchronously, as it arrives). */
  bidQueued(userId: number, itemId: number, requestId: string): void {
    this.bidsByItem.set(itemId, (this.bidsByItem.get(itemId) ?? 0) + 1);
    const key = BidView.key(userId, requestId);
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    this.refused.delete(key);
    this.stats.queued += 1;
  }

  /** A bid job is done and its commit (if any) is in the picture. */
  bidDone(userId: number, itemId: number, requestId: string): void {
    const n = (this.bidsByItem.get(itemId) ?? 1) - 1;
    if (n > 0) this.bidsByItem.set(itemId, n);
    else this.bidsByItem.delete(itemId);
    const key = BidView.key(userId, requestId);
    const r = (this.requests.get(key) ?? 1) - 1;
    if (r > 0) this.requests.set(key, r);
    else this.requests.delete(key);
  }

  /** A committed bid: its item and the users whose points moved. */
  bidCommitted(item: Pick<ItemFacts, 'id' | 'amount' | 'leaderId' | 'endsAt' | 'extensions'>, users: Pick<UserRow, 'id' | 'balance' | 'reserved'>[]): void {
    const known = this.items.get(item.id);
    if (known && known.state !== 'closed') Object.assign(known, { amount: item.amount, leaderId: item.leaderId, endsAt: item.endsAt, extensions: item.extensions });
    for (const user of users) this.userRead(user);
  }

  /** A user's row as a transaction read or wrote it. */
  userRead(user: Pick<UserRow, 'id' | 'balance' | 'reserved'>): void {
    this.balances.set(user.id, { id: user.id, balance: user.balance, reserved: user.reserved });
  }

  /** Another job is queued: nothing is refused early until it is done and the picture reloaded. */
  otherQueued(): void {
    this.others += 1;
  }

  otherDone(): void {
    this.others -= 1;
  }

  /**
   * Reads the picture again, inside the queue (nothing else runs): the store setting, every item
   * that is scheduled or live or new since the last read; items that were open and are no longer
   * are closed. Balances are forgotten (the job may have moved any), and learnt again from the
   * bids' transactions.
   */
  async reload(db: Queryable): Promise<void> {
    this.ready = false;
    this.balances.clear();
    const settings = await db.selectFrom('kingdom_settings').select('store_open').where('id', '=', 1).executeTakeFirst();
    const rows = await db
      .selectFrom('items')
      .selectAll()
      .where((eb) => eb.or([eb('state', 'in', ['scheduled', 'live']), eb('id', '>', this.maxItemId)]))
      .execute();
    this.storeOpen = !(settings && settings.store_open === 0);
    const seen = new Set<number>();
    for (const row of rows) {
      seen.add(row.id);
      this.maxItemId = Math.max(this.maxItemId, row.id);
      this.items.set(row.id, row.state === 'scheduled' || row.state === 'live' ? itemFacts(row) : CLOSED);
    }
    for (const [id, item] of this.items) if (item.state !== 'closed' && !seen.has(id)) this.items.set(id, CLOSED);
    this.ready = true;
  }
}

/** A finished or cancelled item, as the verdict reads it (not live: BID_OPEN_ERROR). */
const CLOSED_FACTS: ItemFacts = {
  id: 0,
  state: 'finished',
  startedAt: null,
  endsAt: 0,
  amount: 0,
  minIncrement: 0,
  startPrice: 0,
  leaderId: null,
  extendWindowS: 0,
  maxExtensions: 0,
  extensions: 0,
  restricted: false,
  format: 'english',
  buyNowPrice: null,
};
