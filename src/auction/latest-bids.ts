import type { Bid } from '../protocol/socket';

/** The board shows the latest bids: at most this many, newest first. */
export const LATEST_BIDS = 5;

const bidKey = (b: Pick<Bid, 'itemId' | 'amount'>) => `${b.itemId}:${b.amount}`;

/** Newest first by server time (then amount), without duplicates, at most 5. */
export function mergeBids(current: Bid[], incoming: Bid[]): Bid[] {
  const seen = new Set<string>();
  return [...incoming, ...current]
    .filter((b) => (seen.has(bidKey(b)) ? false : (seen.add(bidKey(b)), true)))
    .sort((a, b) => b.timestamp - a.timestamp || b.amount - a.amount)
    .slice(0, LATEST_BIDS);
}

/** `mergeBids(current, [bid])` without building and sorting a list: the one bid put in its place (a new list; `current` is not touched). */
export function insertBid(current: Bid[], bid: Bid): Bid[] {
  const rest = current.filter((b) => b.itemId !== bid.itemId || b.amount !== bid.amount);
  let at = 0;
  while (at < rest.length && (rest[at].timestamp > bid.timestamp || (rest[at].timestamp === bid.timestamp && rest[at].amount > bid.amount))) at += 1;
  if (at >= LATEST_BIDS) return rest.length === current.length ? current : rest;
  rest.splice(at, 0, bid);
  if (rest.length > LATEST_BIDS) rest.length = LATEST_BIDS;
  return rest;
}
