import { useSelector } from '@xstate/react';
import type { ItemRef } from '../../../../machines/board.machine';
import { availableFor, checkBid, type BidCheck, type BidTarget } from '../../../../auction/bid-rule';
import { useChild, useSocketConnected } from '../../../app-context';

const sameTarget = (a: BidTarget, b: BidTarget) =>
  a.amount === b.amount &&
  a.username === b.username &&
  a.start_price === b.start_price &&
  a.minIncrement === b.minIncrement &&
  a.ranks === b.ranks &&
  a.groups === b.groups;

/**
 * What every way of bidding on one item (the bid box, buy now, a maximum bid) asks first: who bids,
 * the item as the bid rule reads it, whether a bid can be sent now (socket up, store open), and the
 * rule's verdict on an amount (src/auction/bid-rule.ts, the one bid rule). Null when nobody is signed in.
 */
export function useBidAbility(item: ItemRef) {
  const board = useChild('board');
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  const connected = useSocketConnected('auction');
  const storeOpen = useSelector(board, (s) => s.context.store === 'open');
  const target: BidTarget = useSelector(
    item,
    (s) => ({ amount: s.context.amount, username: s.context.username, start_price: s.context.start_price, minIncrement: s.context.minIncrement, ranks: s.context.ranks, groups: s.context.groups }),
    sameTarget,
  );
  if (!user) return null;
  const me = { username: user.username, rank: user.rank, available: user.available };
  return {
    board,
    me,
    target,
    connected,
    storeOpen,
    /** The socket is up and the store open: a bid would be sent. */
    open: connected && storeOpen,
    leading: target.username === user.username,
    /** The points this player could bid on this item (their own lead on it counted free). */
    available: availableFor(target, me),
    check: (amount: number): BidCheck => checkBid(amount, target, me),
  };
}
