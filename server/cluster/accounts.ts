import { tellRevoked } from '../auth/sessions';
import { tellRankChanged } from '../users/users';
import type { Db } from '../db/open';
import type { Hub } from '../sockets/hub';
import { statusMsg } from '../sockets/user';
import type { ClusterEvent } from './events';

type AccountEvent = Extract<ClusterEvent, { k: 'revoked' | 'account' }>;

/** The events about accounts and sessions, told outside the auction's queue (they change no auction state). */
export function isAccountEvent(event: ClusterEvent): event is AccountEvent {
  return event.k === 'revoked' || event.k === 'account';
}

/**
 * Another process revoked sessions or changed an account's rank: this process's sockets follow, as
 * the committing process's did (it told its own before publishing, so its own events are skipped).
 */
export async function tellAccountEvent(deps: { db: Db; hub: Hub }, event: AccountEvent): Promise<void> {
  if (event.k === 'revoked') {
    tellRevoked(deps.db, event.s);
    return;
  }
  tellRankChanged(deps.db, event.user);
  if (deps.hub.connectionsOf(event.user).length === 0) return;
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', event.user).executeTakeFirst();
  if (!user) return;
  deps.hub.refreshUser(user);
  deps.hub.sendToUser(user.id, 'user', statusMsg(user));
}
