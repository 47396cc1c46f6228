import { MSG, type Bid, type ClientFrame, type Item, type ServerMsgOf } from '../../src/protocol/socket';
import type { UserRow } from '../db/schema';
import type { AppContext } from '../context';
import type { ChannelHandler } from './socket-server';

type CreateBid = Extract<ClientFrame, { type: 'CREATE_BID' }>['data'];

/**
 * What the auction socket asks of the auction engine. The engine (a later issue) implements this and
 * talks back to everyone through ctx.hub (BIDDING_STARTED, BID_CREATED, SALE_COMPLETED, …).
 */
export interface AuctionService {
  /** Sent as HISTORY on authentication: bids newest first, the live and finished items. */
  history(user: UserRow): Promise<{ bids: Bid[]; items: Item[] }>;
  /** Places a bid; an ERROR frame to send back to the bidder, or null when the bid was accepted. */
  createBid(user: UserRow, bid: CreateBid): Promise<ServerMsgOf<'ERROR'> | null>;
}

/** Until the auction engine exists: no items, so every bid is for an unknown item. */
export const noAuction: AuctionService = {
  async history() {
    return { bids: [], items: [] };
  },
  async createBid(_user, bid) {
    return { type: MSG.ERROR, error_type: 'UNKNOWN_ITEM', data: { itemId: bid.itemId, requestId: bid.requestId } };
  },
};

export function auctionChannel(ctx: AppContext, auction: AuctionService = noAuction): ChannelHandler {
  return {
    channel: 'auction',
    accepts: [MSG.CREATE_BID],
    async onAuthenticated(conn) {
      ctx.hub.send(conn, { type: MSG.HISTORY, data: await auction.history(conn.auth.user) });
    },
    async onFrame(conn, frame) {
      if (frame.type !== MSG.CREATE_BID) return;
      const answer = await auction.createBid(conn.auth.user, frame.data);
      if (answer) ctx.hub.send(conn, answer);
    },
  };
}
