import { bidFault, pointsForBid } from '../../src/protocol/store';
import type { Bid, ErrorType, MaxBid } from '../../src/protocol/socket';
import type { ItemRow, UserRow } from '../db/schema';
import type { EventData } from '../events/events';
import { itemFacts, minimumBid, type ItemFacts } from './bid-view';
import { decide, type Decision } from './bid-writer';

/**
 * Maximum (proxy) bids: the rules, and the answer of an item's standing maxima to a change of its
 * lead, written by either database's bid writer through `ProxyWrites` in the transaction of the
 * bid (or SET_MAX_BID) that changed it.
 *
 * The outcome of all an item's maxima is computed at once (`contest`), never bid by bid: the
 * highest max leads (equal maxima: the one set first), at the least that beats every other max and
 * the current amount (the lower max plus the increment, or the next minimum), never above its own
 * max. One automatic bid is written for it (none when its holder leads already at that price). If
 * its holder cannot cover it, that max is dropped and the contest runs again without it. Every
 * other max the outcome leaves below the next minimum is exhausted, told once. So at rest only the
 * leader's max can bid: the next change meets at most that one.
 */

export interface StandingMax {
  userId: number;
  max: number;
  /** Set order on the item: the lower was set first. */
  seq: number;
}

/** Who leads and at what, and the item's bid rule: what a contest reads. */
export type ContestItem = Pick<ItemFacts, 'leaderId' | 'amount' | 'startPrice' | 'minIncrement'>;

/**
 * The automatic bid the standing maxima make now, if any: the top max (highest, then first set;
 * the leader's counts at least its lead) leads at the least that beats the runner-up (its max plus
 * the increment) and the current lead (the next minimum), capped at its own max. A max below the
 * next minimum (not the leader's) takes no part. null: the leader stands.
 */
export function contest(item: ContestItem, maxima: readonly StandingMax[]): { userId: number; amount: number } | null {
  const next = minimumBid(item);
  const candidates: { userId: number; value: number; seq: number }[] = [];
  for (const m of maxima) {
    if (m.userId === item.leaderId) candidates.push({ userId: m.userId, value: Math.max(m.max, item.amount), seq: m.seq });
    else if (m.max >= next) candidates.push({ userId: m.userId, value: m.max, seq: m.seq });
  }
  if (candidates.length === 0) return null;
  // the leader without a max stands at its lead (no max can equal it: a max takes part from the next minimum)
  if (item.leaderId !== null && !candidates.some((c) => c.userId === item.leaderId)) candidates.push({ userId: item.leaderId, value: item.amount, seq: -1 });
  candidates.sort((a, b) => b.value - a.value || a.seq - b.seq);
  const [top, second] = candidates;
  if (top.userId === item.leaderId) {
    if (!second) return null;
    const amount = Math.min(top.value, second.value + item.minIncrement);
    return amount > item.amount ? { userId: top.userId, amount } : null;
  }
  const amount = second ? Math.max(next, Math.min(top.value, second.value + item.minIncrement)) : next;
  return { userId: top.userId, amount };
}

/** Maxima (not the leader's) the lead leaves below the next minimum: they can bid no more. */
export function exhaustedBy(item: ContestItem, maxima: readonly StandingMax[]): StandingMax[] {
  const next = minimumBid(item);
  return maxima.filter((m) => m.userId !== item.leaderId && m.max < next);
}

/** What SET_MAX_BID is judged on, read in its transaction. */
export interface MaxFacts {
  storeOpen: boolean;
  row: ItemRow | undefined;
  bidder: Pick<UserRow, 'id' | 'balance' | 'reserved'>;
  mayBid: boolean;
}

/**
 * The verdict on SET_MAX_BID {max}, in the order a bid's checks run: the store closed, no such
 * item, not live or over (BID_OPEN_ERROR), not allowed to bid, not an english item (BID_ERROR),
 * `max` not a whole number or (unless 0, the withdrawal) below the next minimum (BID_AMOUNT_ERROR),
 * above the points available with the player's own lead on the item counted free (OUT_OF_BALANCE).
 */
export function judgeMax(facts: MaxFacts, max: unknown, at: number): ErrorType | null {
  if (!facts.storeOpen) return 'BID_OPEN_ERROR';
  if (!facts.row) return 'UNKNOWN_ITEM';
  const item = itemFacts(facts.row);
  if (item.state !== 'live' || (item.startedAt !== null && at < item.startedAt) || at >= item.endsAt) return 'BID_OPEN_ERROR';
  if (!facts.mayBid) return 'BID_NOT_ALLOWED';
  if (item.format !== 'english') return 'BID_ERROR';
  if (max === 0) return null;
  const available = pointsForBid(facts.bidder.balance - facts.bidder.reserved, item.leaderId === facts.bidder.id ? item.amount : 0);
  const fault = bidFault(max, minimumBid(item), available);
  if (fault === 'amount' || fault === 'minimum') return 'BID_AMOUNT_ERROR';
  if (fault === 'points') return 'OUT_OF_BALANCE';
  return null;
}

/** An automatic bid as written: what is told of it after the commit. */
export interface AutoBid {
  bid: Bid;
  bidder: UserRow;
  outbid: UserRow | null;
  item: { id: number; amount: number; leaderId: number; endsAt: number; extensions: number };
  boughtNow: boolean;
}

/** What follows a bid or a max in its transaction, told after the commit in this order. */
export type Follow = { kind: 'bid'; auto: AutoBid } | { kind: 'max'; userId: number; frame: MaxBid };

/** A max event, as the bid writer records it. */
export type MaxEvent = { kind: 'max.exhausted' | 'max.dropped'; data: EventData['max.exhausted'] };

/** How a bid writer reads and writes maxima inside its transaction (each database its own way). */
export interface ProxyWrites {
  /** The item's maxima still able to bid (not exhausted), in set order. */
  maxima(itemId: number): Promise<StandingMax[]>;
  /** A player's row as the transaction has it now. */
  user(userId: number): Promise<UserRow>;
  mayBid(row: ItemRow, user: UserRow): Promise<boolean>;
  /** Writes an accepted automatic bid (bid, lead, reservations): the item and the players as it left them. */
  writeAuto(row: ItemRow, holder: UserRow, decision: Extract<Decision, { kind: 'accept' }>, at: number): Promise<AutoBid & { row: ItemRow }>;
  /** Removes a max (dropped); `frame` is what its owner is told. */
  drop(itemId: number, userId: number, frame: MaxBid): Promise<void>;
  /** Marks maxima exhausted. */
  exhaust(itemId: number, userIds: number[], at: number): Promise<void>;
  /** Records a domain event in the transaction. */
  event(event: MaxEvent, at: number): Promise<void>;
}

/**
 * The standing maxima of `row` (as the bid that changed its lead left it) answer, in the same
 * transaction: the automatic bid the contest asks for (a max whose holder cannot cover its raise
 * is dropped, its owner told `MAX_BID {max: 0, reason: "balance"}`, and the contest runs again
 * without it), then the maxima left below the next minimum marked exhausted. The item as it is
 * after, and what to tell.
 */
export async function answerMaxima(io: ProxyWrites, row: ItemRow, storeOpen: boolean, at: number): Promise<{ row: ItemRow; follow: Follow[] }> {
  const follow: Follow[] = [];
  if (row.format !== 'english' || row.state !== 'live' || at >= row.ends_at) return { row, follow };
  let pool = await io.maxima(row.id);
  if (pool.length === 0) return { row, follow };
  let current = row;
  // each turn writes one bid or drops one max: at most one more turn than there are maxima
  for (let turn = 0; turn <= pool.length + 1; turn += 1) {
    const facts = itemFacts(current);
    if (facts.state !== 'live' || at >= facts.endsAt) break;
    const wanted = contest(facts, pool);
    if (!wanted) break;
    const holder = await io.user(wanted.userId);
    const decision = decide({ storeOpen, row: current, bidder: holder, mayBid: await io.mayBid(current, holder) }, wanted.amount, at);
    if (decision.kind === 'refuse') {
      const dropped = pool.find((m) => m.userId === wanted.userId) as StandingMax;
      pool = pool.filter((m) => m !== dropped);
      const balance = decision.errorType === 'OUT_OF_BALANCE';
      const frame: MaxBid = { itemId: current.id, max: 0, leading: current.leader_id === dropped.userId, ...(balance ? { reason: 'balance' as const } : {}) };
      await io.drop(current.id, dropped.userId, frame);
      follow.push({ kind: 'max', userId: dropped.userId, frame });
      await io.event({ kind: 'max.dropped', data: { itemId: current.id, itemName: current.name, userId: dropped.userId, max: dropped.max } }, at);
      continue;
    }
    const written = await io.writeAuto(current, holder, decision, at);
    current = written.row;
    follow.push({ kind: 'bid', auto: { bid: written.bid, bidder: written.bidder, outbid: written.outbid, item: written.item, boughtNow: written.boughtNow } });
    if (written.boughtNow) break;
  }
  const exhausted = exhaustedBy(itemFacts(current), pool);
  if (exhausted.length > 0) {
    await io.exhaust(current.id, exhausted.map((m) => m.userId), at);
    for (const m of exhausted) await io.event({ kind: 'max.exhausted', data: { itemId: current.id, itemName: current.name, userId: m.userId, max: m.max } }, at);
  }
  return { row: current, follow };
}
