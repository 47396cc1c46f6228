import { MSG, type ServerMsg } from '../../src/protocol/socket';
import type { UserRow } from '../db/schema';
import type { Announcer } from '../sockets/announcer';

/**
 * After a commit that changed a user's balance or reserved points: their open pages hear of it
 * (VIRTUAL_BALANCE_UPDATE on the user socket), and the hub's copy of the account is refreshed.
 */
export function announceBalance(to: Announcer, user: UserRow): void {
  to.refreshUser(user);
  const message: ServerMsg = {
    type: MSG.VIRTUAL_BALANCE_UPDATE,
    data: { balance: user.balance, reserved: user.reserved, available: user.balance - user.reserved },
  };
  to.sendToUser(user.id, 'user', message);
}
