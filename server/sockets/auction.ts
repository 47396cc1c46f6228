import * as z from 'zod/mini';
import { MSG, requestIdSchema } from '../../src/protocol/socket';
import type { AuctionService } from '../auction/engine';
import type { AppContext } from '../context';
import type { ChannelHandler } from './socket-server';

export type { AuctionService } from '../auction/engine';

function isRequestId(value: unknown): value is string {
  return z.safeParse(requestIdSchema, value).success;
}

function isItemId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * The auction socket: HISTORY on authentication, CREATE_BID and SET_MAX_BID to the engine. The engine tells
 * everyone through ctx.hub (BIDDING_STARTED, BID_CREATED, OUTBID, WINNER, SALE_COMPLETED, NO_BUYER).
 */
export function auctionChannel(ctx: AppContext, auction: AuctionService = ctx.auction): ChannelHandler {
  return {
    channel: 'auction',
    accepts: [MSG.CREATE_BID, MSG.SET_MAX_BID],
    async onAuthenticated(conn) {
      ctx.hub.send(conn, { type: MSG.HISTORY, data: await auction.history(conn.auth.user) });
    },
    async onFrame(conn, frame) {
      let answer;
      if (frame.type === MSG.CREATE_BID) answer = await auction.createBid(conn.auth.user, frame.data);
      else if (frame.type === MSG.SET_MAX_BID) answer = await auction.setMaxBid(conn.auth.user, frame.data);
      if (answer) ctx.hub.send(conn, answer);
    },
    /**
     * A CREATE_BID whose item and request ids are fine but whose amount is not a number (a string,
     * null, missing, 1e400 → Infinity) is a bid with a bad amount: BID_AMOUNT_ERROR from the engine,
     * remembered under its requestId like any answer; a SET_MAX_BID's `max` the same way. Any other
     * malformed frame is WS_ERROR.
     */
    async onInvalidFrame(conn, parsed) {
      const { type, data } = parsed as { type?: unknown; data?: { itemId?: unknown; requestId?: unknown; amount?: unknown; max?: unknown } };
      if ((type !== MSG.CREATE_BID && type !== MSG.SET_MAX_BID) || typeof data !== 'object' || data === null) return false;
      if (!isItemId(data.itemId) || !isRequestId(data.requestId)) return false;
      const answer =
        type === MSG.SET_MAX_BID
          ? await auction.setMaxBid(conn.auth.user, { itemId: data.itemId, requestId: data.requestId, max: data.max })
          : await auction.createBid(conn.auth.user, { itemId: data.itemId, requestId: data.requestId, amount: data.amount });
      if (answer) ctx.hub.send(conn, answer);
      return true;
    },
  };
}
