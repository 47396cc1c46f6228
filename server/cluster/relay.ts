import { MSG, type ServerMsgOf } from '../../src/protocol/socket';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { announceBid, announceStart } from '../auction/announce';
import type { BidView } from '../auction/bid-view';
import { announceBalance } from '../points/announce';
import type { Hub } from '../sockets/hub';
import type { Balance, ClusterEvent } from './events';

export interface RelayDeps {
  db: Db;
  hub: Hub;
  bidView: BidView;
}

/** VIRTUAL_BALANCE_UPDATE with the balances a commit left (to the accounts with sockets here), their connections' copies updated. */
function tellBalances(hub: Hub, balances: Balance[]): void {
  for (const [id, balance, reserved] of balances) {
    const user = hub.connectionsOf(id).find((c) => c.auth)?.auth?.user;
    if (user) announceBalance(hub, { ...user, balance, reserved });
  }
}

async function usersById(db: Db, ids: number[]): Promise<Map<number, UserRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((u) => [u.id, u]));
}

/**
 * A process (this one too) committed `event`: this process reads the rows it names (a group's bids
 * come whole: nothing is read for them) and tells its own sockets, with the frames the committing
 * process sends to its own (the same builders). The engine runs it in its queue, so a relayed
 * frame keeps its place among this process's own.
 */
export async function relay(deps: RelayDeps, event: ClusterEvent): Promise<void> {
  const { db, hub, bidView } = deps;
  switch (event.k) {
    case 'bids': {
      // each bid comes whole in the event: nothing is read
      for (const entry of event.b) {
        if ('mx' in entry) {
          // a max set or dropped: to its owner's sockets alone
          const { u, i: itemId, m, l, r } = entry.mx;
          hub.sendToUser(u, 'auction', { type: MSG.MAX_BID, data: { itemId, max: m, leading: l, ...(r ? { reason: r } : {}) } });
          continue;
        }
        const { w: bid, by, i: itemId } = entry;
        // the picture follows: the item's lead and end as this bid left them (a sealed bid may not lead: its transaction judges the next)
        if (entry.s === undefined) bidView.bidCommitted({ id: itemId, amount: bid.amount, leaderId: by, endsAt: bid.endsAt, extensions: bid.extensions ?? 0 }, []);
        announceBid(hub, bid, by, entry.outbid, entry.s === undefined ? undefined : { bids: entry.s });
        // the outbid player's points back first, then the bidder's, as the committing process tells them
        tellBalances(hub, [...entry.u].sort((a, b) => (a[0] === entry.outbid ? -1 : b[0] === entry.outbid ? 1 : 0)));
      }
      return;
    }
    case 'start': {
      const row = await db.selectFrom('items').selectAll().where('id', '=', event.item).executeTakeFirst();
      if (row && row.state === 'live') announceStart(hub, row, event.at);
      return;
    }
    case 'settle': {
      const item = await db.selectFrom('items').selectAll().where('id', '=', event.item).executeTakeFirst();
      if (!item || item.state !== 'finished') return;
      const sale = await db.selectFrom('sales as s').innerJoin('users as u', 'u.id', 's.user_id').selectAll('u').select(['s.amount as sale_amount']).where('s.item_id', '=', item.id).executeTakeFirst();
      if (sale) {
        const result = { itemId: item.id, itemName: item.name, amount: sale.sale_amount, username: sale.username };
        hub.sendToUser(sale.id, 'auction', { type: MSG.WINNER, data: result });
        hub.broadcast('auction', { type: MSG.SALE_COMPLETED, data: { itemId: item.id, itemName: item.name, username: sale.username, amount: sale.sale_amount } });
        tellBalances(hub, event.u);
      } else {
        // (ended with a leader and no sale: under the reserve)
        tellBalances(hub, event.u);
        hub.broadcast('auction', { type: MSG.NO_BUYER, data: { itemId: item.id, itemName: item.name, reason: item.leader_id === null ? 'no-bids' : 'reserve-not-met' } });
      }
      return;
    }
    case 'cancel': {
      const item = await db.selectFrom('items').select(['id', 'name']).where('id', '=', event.item).executeTakeFirst();
      if (item) hub.broadcast('auction', { type: MSG.ITEM_CANCELLED, data: { itemId: item.id, itemName: item.name } });
      return;
    }
    case 'store': {
      const settings = await db.selectFrom('kingdom_settings').select('store_open').where('id', '=', 1).executeTakeFirst();
      const open = !(settings && settings.store_open === 0);
      const rows = await db.selectFrom('items').select(['id', 'ends_at', 'held_ms']).where('state', '=', 'live').orderBy('id').execute();
      const frame: ServerMsgOf<'STORE_STATE'> = open
        ? { type: MSG.STORE_STATE, data: { state: 'open', timestamp: event.at, items: rows.filter((r) => r.held_ms === null).map((r) => ({ itemId: r.id, endsAt: r.ends_at })) } }
        : { type: MSG.STORE_STATE, data: { state: 'closed', timestamp: event.at, items: rows.map((r) => ({ itemId: r.id, endsAt: r.ends_at, heldMs: r.held_ms ?? 0 })) } };
      hub.broadcast('auction', frame);
      return;
    }
    case 'users':
      tellBalances(hub, event.u);
      return;
    case 'all-users': {
      // only the accounts this process has sockets for, as they are now
      for (const user of (await usersById(db, hub.connectedUserIds())).values()) announceBalance(hub, user);
      return;
    }
    case 'schedule':
      return;
  }
}
