import type { Eligibility } from './store';

/**
 * The bid rule, one copy for the bid box, the board and the server (store.ts re-exports it). It
 * imports no schema library: the board and the bid box load it with the app's first page.
 */

/** The highest price, start price, increment or bid. */
export const MAX_PRICE = 1_000_000_000;

/** The leader's name on an item nobody has bid on yet. */
export const NO_LEADER = 'server';

/** The smallest bid an item takes now: the start price (at least 1) before the first bid, then amount + increment (an equal bid loses). */
export function leastBid(led: boolean, amount: number, startPrice: number, minIncrement: number): number {
  return led ? amount + minIncrement : Math.max(startPrice, 1);
}

/** `leastBid` of an item as the socket describes it (`username` is NO_LEADER before the first bid). */
export function nextMinimum(item: { username: string; amount: number; start_price: number; minIncrement: number }): number {
  return leastBid(item.username !== NO_LEADER, item.amount, item.start_price, item.minIncrement);
}

/** The points a bidder may bid on one item: their free points, plus their own lead on it, which is theirs to raise. */
export function pointsForBid(free: number, ownLead: number): number {
  return free + ownLead;
}

/** Why an amount is not a bid: not a whole number from 1 to MAX_PRICE, below the least bid, or more than the points available. */
export type BidFault = 'amount' | 'minimum' | 'points';

/**
 * The bid rule on an amount: a whole number from 1 to MAX_PRICE, at least `minimum` and at most
 * `available` (`pointsForBid`). Exactly the available points is a bid; one more is not. Without
 * `available` (not known yet) only the amount and the minimum are judged.
 */
export function bidFault(amount: unknown, minimum: number, available?: number): BidFault | null {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_PRICE) return 'amount';
  if (amount < minimum) return 'minimum';
  if (available !== undefined && amount > available) return 'points';
  return null;
}

/**
 * Whether an account may bid under an item's eligibility: no ranks and no groups means everyone;
 * otherwise a listed rank or membership of a listed group (names compared without regard to case).
 */
export function isEligible(rules: Eligibility | undefined, rank: string, groups: readonly string[]): boolean {
  const ranks = rules?.ranks ?? [];
  const wanted = (rules?.groups ?? []).map((g) => g.toLowerCase());
  if (ranks.length === 0 && wanted.length === 0) return true;
  if ((ranks as readonly string[]).includes(rank)) return true;
  return groups.some((g) => wanted.includes(g.toLowerCase()));
}
