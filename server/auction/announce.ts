import { MSG, type Bid } from '../../src/protocol/socket';
import type { ItemRow } from '../db/schema';
import type { Announcer } from '../sockets/announcer';
import { announceBalance } from '../points/announce';
import type { Follow } from './max-bids';
import { toStoreItem } from './wire';

/** BIDDING_STARTED: the whole Item (its rules, eligibility, soft close, image), as HISTORY gives it after a reload. */
export function announceStart(to: Announcer, row: ItemRow, now: number): void {
  to.broadcast('auction', { type: MSG.BIDDING_STARTED, data: toStoreItem({ ...row, leader_name: null }, now) });
}

/**
 * A committed bid: BID_CREATED to everyone and OUTBID to the leader it outbid. On a sealed item
 * (`sealed`: its bid count) everyone else hears only that someone bid, and how many have; the
 * bidder gets the bid in full; nobody is told they were outbid.
 */
export function announceBid(to: Pick<Announcer, 'broadcast' | 'broadcastExcept' | 'sendToUser'>, bid: Bid, bidderId: number, outbidId: number | null, sealed?: { bids: number }): void {
  if (sealed) {
    const masked = { itemId: bid.itemId, itemName: bid.itemName, sealed: true as const, bids: sealed.bids, timer: bid.timer, timestamp: bid.timestamp, endsAt: bid.endsAt, ...(bid.reserveMet === undefined ? {} : { reserveMet: bid.reserveMet }) };
    to.broadcastExcept('auction', bidderId, { type: MSG.BID_CREATED, data: masked });
    to.sendToUser(bidderId, 'auction', { type: MSG.BID_CREATED, data: bid });
    return;
  }
  to.broadcast('auction', { type: MSG.BID_CREATED, data: bid });
  if (outbidId !== null) to.sendToUser(outbidId, 'auction', { type: MSG.OUTBID, data: bid });
}

/**
 * What the standing maxima did in a bid's transaction, after its commit, in order: each automatic
 * bid as any bid (BID_CREATED with `auto`, OUTBID, both balances), each max dropped to its owner
 * alone (MAX_BID, every tab of theirs).
 */
export function announceFollow(to: Announcer, follow: readonly Follow[]): void {
  for (const f of follow) {
    if (f.kind === 'max') {
      to.sendToUser(f.userId, 'auction', { type: MSG.MAX_BID, data: f.frame });
      continue;
    }
    const { bid, bidder, outbid } = f.auto;
    announceBid(to, bid, bidder.id, outbid?.id ?? null);
    if (outbid) announceBalance(to, outbid);
    announceBalance(to, bidder);
  }
}
