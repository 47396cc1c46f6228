import { MSG, type ServerMsgOf } from '../../src/protocol/socket';
import type { UserRow } from '../db/schema';
import type { AppContext } from '../context';
import { findUserById } from '../users/users';
import type { ChannelHandler } from './socket-server';

export function statusMsg(user: UserRow): ServerMsgOf<'STATUS'> {
  return {
    type: MSG.STATUS,
    data: {
      username: user.username,
      rank: user.rank,
      balance: user.balance,
      reserved: user.reserved,
      available: user.balance - user.reserved,
    },
  };
}

/** The user socket: the signed-in account's status (VIRTUAL_BALANCE_UPDATE arrives with the ledger). */
export function userChannel(ctx: AppContext): ChannelHandler {
  return {
    channel: 'user',
    accepts: [MSG.GET_STATUS],
    async onAuthenticated() {},
    async onFrame(conn, frame) {
      if (frame.type !== MSG.GET_STATUS) return;
      const user = await findUserById(ctx.db, conn.auth.user.id);
      if (user) ctx.hub.send(conn, statusMsg(user));
    },
  };
}
