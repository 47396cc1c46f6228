import { bidFault, isEligible, nextMinimum, pointsForBid } from '../protocol/bid-rule';
import type { ItemFields } from './item-fold';

/**
 * The bid rule on the client: the board's next minimum and the bid box's check before sending.
 * The rule itself is the protocol's (`bidFault`, `leastBid`, `pointsForBid`), the one the server
 * judges with; this file only reads the board's item and the signed-in player into it.
 */

/**
 * The next minimum a card shows and its bid box starts from. An increment or start price the
 * board does not know (a log from before BIDDING_STARTED carried them) counts as 1 and the
 * current amount.
 */
export function minimumOf(item: Pick<ItemFields, 'amount' | 'username' | 'start_price' | 'minIncrement'>): number {
  return nextMinimum({ username: item.username, amount: item.amount, start_price: item.start_price ?? item.amount, minIncrement: item.minIncrement ?? 1 });
}

/** What the bid box knows of the item it bids on. */
export interface BidTarget {
  amount: number;
  username: string;
  start_price: number | null;
  minIncrement: number | null;
  ranks?: readonly string[];
  groups?: readonly string[];
}
export interface Bidder {
  username: string;
  rank: string;
  /** Free points: balance less what the player's leads reserve. */
  available: number;
}
export type BidCheck = { ok: true } | { ok: false; messageId: string; values?: Record<string, number> };

/** The points the player may bid on this item (a lead on it counts as free). */
export function availableFor(item: BidTarget, me: Bidder): number {
  return pointsForBid(me.available, item.username === me.username ? item.amount : 0);
}

/**
 * What the bid box explains before sending (the server checks all of it again): a rank the item
 * allows, a whole number, at least the next minimum, within the points available. Group
 * membership is the server's to judge.
 */
export function checkBid(amount: number, item: BidTarget, me: Bidder): BidCheck {
  const rules = { ranks: [...(item.ranks ?? [])] as never, groups: [...(item.groups ?? [])] };
  if (rules.groups.length === 0 && !isEligible(rules, me.rank, [])) return { ok: false, messageId: 'store.check.rank' };
  const minimum = minimumOf(item);
  const available = availableFor(item, me);
  switch (bidFault(amount, minimum, available)) {
    case 'amount': return { ok: false, messageId: 'store.check.whole' };
    case 'minimum': return { ok: false, messageId: 'store.check.tooLow', values: { amount: minimum } };
    case 'points': return { ok: false, messageId: 'store.check.overBalance', values: { available } };
    case null: return { ok: true };
  }
}
