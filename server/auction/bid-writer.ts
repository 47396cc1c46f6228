import type { Bid, ErrorType, MaxBid } from '../../src/protocol/socket';
import type { Queryable } from '../db/write';
import type { ItemRow, UserRow } from '../db/schema';
import { isSealed } from '../../src/protocol/socket';
import { buysNow, endAfterBid, itemFacts, judgeBid, UNKNOWN, validAmount, type ItemFacts } from './bid-view';
import type { Follow } from './max-bids';
import { selectBids, toBid } from './wire';

/**
 * The bid writer: how a group of bids is judged and written, one file per database
 * (bid-writer-sqlite.ts, bid-writer-postgres.ts). The rule itself is the same for both (`decide`,
 * on `judgeBid`); what differs is how the rows are read and locked and how many round trips the
 * writes cost.
 */

/** A CREATE_BID as the engine takes it: `amount` unchecked (anything but a valid amount is BID_AMOUNT_ERROR). */
export interface BidRequest {
  itemId: number;
  amount: unknown;
  requestId: string;
}

/** A bid on its way to the writer: who, what, and its arrival time (it is judged at `at`). */
export interface PendingBid {
  userId: number;
  request: BidRequest;
  at: number;
  /** A SET_MAX_BID: `request.amount` is the max (0 withdraws it). */
  kind?: 'max';
}

export type BidOutcome =
  | { kind: 'rejected'; errorType: ErrorType; itemId: number; bidder?: UserRow }
  | { kind: 'repeat'; bid: Bid }
  | {
      kind: 'accepted';
      bid: Bid;
      bidder: UserRow;
      outbid: UserRow | null;
      item: { id: number; amount: number; leaderId: number; endsAt: number; extensions: number };
      /** A sealed item: its bid count after this bid (the bid goes masked to everyone else). */
      sealed?: { bids: number };
      /** The bid bought the item: it has ended, to be settled now. */
      boughtNow?: boolean;
      /** The standing maxima's answer in the same transaction (automatic bids, maxima dropped), told after the bid. */
      follow?: Follow[];
    }
  /** A SET_MAX_BID taken: MAX_BID to its owner (`frame`), then what the maxima did. */
  | { kind: 'max'; frame: MaxBid; owner: UserRow; follow: Follow[] }
  /** A SET_MAX_BID whose requestId was answered before: the max as it stands now, to that connection. */
  | { kind: 'max-repeat'; frame: MaxBid };

/** How one bid's writes ended: its outcome, or what they threw (its writes undone). */
export type Written<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** The most bids one group commit carries: one transaction stays short whatever the flood. */
export const GROUP_MAX = 64;

/** Write transactions run for bids, and the bids they carried; on PostgreSQL, the statements sent for them, each a round trip (a connection's one-time PREPARE apart). */
export interface BidCommits {
  transactions: number;
  bids: number;
  roundTrips?: number;
}

export interface BidWriter {
  /**
   * Judges and writes `bids` in one write transaction, in their order, each on the writes of the
   * ones before it and under its own savepoint (a bid whose writes throw is undone alone and gets
   * its error), and commits once. `now` dates the stored requests. `dryRun`: the same, rolled back
   * (the early refusals' audit). One result per bid, in order; if the transaction itself fails,
   * every bid gets its error.
   */
  writeGroup(bids: readonly PendingBid[], now: number, options?: { dryRun?: boolean }): Promise<Written<BidOutcome>[]>;
  /** Write transactions run for bids, and the bids they carried (BidCommits). */
  readonly commits: BidCommits;
  /** Frees what the writer holds (its connection pool's clients are the database's). */
  close(): Promise<void>;
}

/** What a bid is judged on, read in its transaction. */
export interface ReadFacts {
  storeOpen: boolean;
  row: ItemRow | undefined;
  bidder: UserRow;
  mayBid: boolean;
  /** A sealed item: the bidder's standing bid on it (null: none yet). */
  ownBid?: number | null;
}

/** The verdict on a bid: refused (with the error), or accepted with what it writes. */
export type Decision =
  | { kind: 'refuse'; errorType: ErrorType }
  | {
      kind: 'accept';
      item: ItemFacts;
      amount: number;
      endsAt: number;
      extensions: number;
      /** The leader outbid, whose reservation (`released`) goes back; null when none or the bidder. */
      outbidId: number | null;
      released: number;
      /** What the bidder's reserved grows by (a leader raising their own bid reserves only the difference). */
      reserved: number;
      /** The item's leader and amount after the bid (a sealed bid below the highest leaves them). */
      leaderId: number;
      itemAmount: number;
      /** A sealed item's bid count after the bid. */
      bidsCount: number;
      /** The bid bought the item at its buy-now price: it ends at the bid's time. */
      boughtNow: boolean;
    };

/** `judgeBid` on the rows read in the transaction, at the bid's arrival time; an accepted bid's end moves by the soft close. */
export function decide(facts: ReadFacts, amount: unknown, at: number): Decision {
  const item = facts.row ? itemFacts(facts.row) : null;
  const verdict = judgeBid({ storeOpen: facts.storeOpen, item, endMayMove: false, mayBid: facts.mayBid, bidder: facts.bidder, ownBid: facts.ownBid ?? null }, amount, at);
  if (verdict === UNKNOWN) throw new Error('a bid was judged without all its facts');
  if (verdict !== null) return { kind: 'refuse', errorType: verdict };
  // (accepted: judgeBid found the item and a valid amount)
  if (!item || !validAmount(amount)) throw new Error('an accepted bid without its item or amount');
  const bidderId = facts.bidder.id;
  const bidsCount = facts.row?.bids_count ?? 0;
  if (isSealed(item.format)) {
    // every player's standing bid stays reserved to the end (nobody's points move when another bids);
    // the highest leads, the earlier on a tie; no soft close
    const own = facts.ownBid ?? null;
    const leads = item.leaderId === null || item.leaderId === bidderId || amount > item.amount;
    return {
      kind: 'accept',
      item,
      amount,
      endsAt: item.endsAt,
      extensions: item.extensions,
      outbidId: null,
      released: 0,
      reserved: amount - (own ?? 0),
      leaderId: leads ? bidderId : (item.leaderId as number),
      itemAmount: leads ? amount : item.amount,
      bidsCount: own === null ? bidsCount + 1 : bidsCount,
      boughtNow: false,
    };
  }
  const ownLead = item.leaderId === bidderId ? item.amount : 0;
  const outbidId = item.leaderId !== null && item.leaderId !== bidderId ? item.leaderId : null;
  if (buysNow(item, amount)) {
    // bought at the buy-now price: the item ends at this bid's time (settlement sells it, once)
    const price = item.buyNowPrice;
    return { kind: 'accept', item, amount: price, endsAt: at, extensions: item.extensions, outbidId, released: item.amount, reserved: price - ownLead, leaderId: bidderId, itemAmount: price, bidsCount, boughtNow: true };
  }
  // soft close: an accepted bid in the last extendWindow seconds moves the end, a limited number of times
  const { endsAt, extensions } = endAfterBid(item, at);
  return { kind: 'accept', item, amount, endsAt, extensions, outbidId, released: item.amount, reserved: amount - ownLead, leaderId: bidderId, itemAmount: amount, bidsCount, boughtNow: false };
}

/** An accepted bid as told: with whether the item now reaches its reserve, when it has one (a sealed item's highest bid). */
export function withReserve(bid: Bid, row: Pick<ItemRow, 'reserve_price'>, decision: { itemAmount: number }): Bid {
  return row.reserve_price === null ? bid : { ...bid, reserveMet: decision.itemAmount >= row.reserve_price };
}

/** The outcomes that answer a request without a new write: a refusal, a repeated bid, a repeated SET_MAX_BID. */
export type Answered = Extract<BidOutcome, { kind: 'rejected' | 'repeat' | 'max-repeat' }>;

/** A SET_MAX_BID answered before: the player's max on the item as it stands now (0: none), and whether they lead. */
export async function maxRepeat(db: Queryable, userId: number, itemId: number): Promise<Answered> {
  const row = await db
    .selectFrom('items as i')
    .leftJoin('max_bids as m', (join) => join.onRef('m.item_id', '=', 'i.id').on('m.user_id', '=', userId))
    .select(['i.leader_id', 'm.max'])
    .where('i.id', '=', itemId)
    .executeTakeFirst();
  return { kind: 'max-repeat', frame: { itemId, max: row?.max ?? 0, leading: row?.leader_id === userId } };
}

/** The answer a stored request was given: its refusal, or its bid (read back). */
export async function storedOutcome(db: Queryable, first: { bid_id: number | null; error_type: string | null; item_id: number }): Promise<Answered> {
  if (first.bid_id === null) return { kind: 'rejected', errorType: first.error_type as ErrorType, itemId: first.item_id };
  const stored = await selectBids(db).where('b.id', '=', first.bid_id).executeTakeFirstOrThrow();
  return { kind: 'repeat', bid: toBid(stored) };
}
