import { MSG, type ServerMsg } from '../../src/protocol/socket';
import type { UserRow } from '../db/schema';
import type { Hub } from '../sockets/hub';

/**
 * After a commit that changed a user's balance or reserved points: their open pages hear of it
 * (VIRTUAL_BALANCE_UPDATE on the user socket), and the hub's copy of the account is refreshed.
 */
export function announceBalance(hub: Hub, user: UserRow): void {
  hub.refreshUser(user);
  const message: ServerMsg = {
    type: MSG.VIRTUAL_BALANCE_UPDATE,
    data: { balance: user.balance, reserved: user.reserved, available: user.balance - user.reserved },
  };
  hub.sendToUser(user.id, 'user', message);
}
