import { prepared } from '../db/prepared';
import type { UserRow } from '../db/schema';
import type { Queryable } from '../db/write';

/** Built once: every bid runs it, once or twice (server/db/prepared.ts). */
const move = prepared((db, a: { userId: number; by: number }) =>
  db
    .updateTable('users')
    .set((eb) => ({ reserved: eb('reserved', '+', a.by) }))
    .where('id', '=', a.userId)
    .returningAll(),
);

/**
 * Moves a player's reserved points (what their leads on live items hold back from their balance)
 * by `by`, inside the write transaction that changes the lead: a lead taken or raised reserves
 * its amount (`by` > 0); a lead that ends (outbid, the item cancelled or sold) releases it
 * (`by` < 0). Bids, cancellations and settlement all move them here, except a bid on PostgreSQL,
 * whose writes go as one statement (bid-writer-postgres.ts). Answers the user's row as it is now.
 */
export function moveReserved(trx: Queryable, userId: number, by: number): Promise<UserRow> {
  return move.only(trx, { userId, by });
}

/**
 * A sealed item's standing bids (each player's highest), by player id: each is reserved until the
 * item ends or is cancelled (a sealed bid reserves its amount whether it leads or not).
 */
export async function standingSealedBids(trx: Queryable, itemId: number): Promise<{ userId: number; amount: number }[]> {
  const rows = await trx
    .selectFrom('bids')
    .select((eb) => ['user_id', eb.fn.max('amount').as('own')])
    .where('item_id', '=', itemId)
    .groupBy('user_id')
    .orderBy('user_id')
    .execute();
  return rows.map((r) => ({ userId: r.user_id, amount: Number(r.own) }));
}

/** Releases every standing bid of a sealed item (ended or cancelled), in player id order: the players' rows as they are now. */
export async function releaseSealedBids(trx: Queryable, itemId: number): Promise<UserRow[]> {
  const released: UserRow[] = [];
  for (const bid of await standingSealedBids(trx, itemId)) released.push(await moveReserved(trx, bid.userId, -bid.amount));
  return released;
}
