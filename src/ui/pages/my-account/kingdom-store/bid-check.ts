import { minimumOf } from '../../../../auction/board-view';
import { isEligible } from '../../../../protocol/store';

/**
 * What the bid box explains before sending (the server checks all of it again): a whole number,
 * at least the next minimum, within the points available (a lead on this item counts as free),
 * and a rank the item allows. Group membership is the server's to judge.
 */
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
  available: number;
}
export type BidCheck = { ok: true } | { ok: false; messageId: string; values?: Record<string, number> };

export function nextMinimum(item: BidTarget): number {
  return minimumOf(item);
}

export function availableFor(item: BidTarget, me: Bidder): number {
  return me.available + (item.username === me.username ? item.amount : 0);
}

export function checkBid(amount: number, item: BidTarget, me: Bidder): BidCheck {
  const rules = { ranks: [...(item.ranks ?? [])] as never, groups: [...(item.groups ?? [])] };
  if (rules.groups.length === 0 && !isEligible(rules, me.rank, [])) return { ok: false, messageId: 'store.check.rank' };
  if (!Number.isInteger(amount) || amount <= 0) return { ok: false, messageId: 'store.check.whole' };
  const min = nextMinimum(item);
  if (amount < min) return { ok: false, messageId: 'store.check.tooLow', values: { amount: min } };
  const available = availableFor(item, me);
  if (amount > available) return { ok: false, messageId: 'store.check.overBalance', values: { available } };
  return { ok: true };
}
