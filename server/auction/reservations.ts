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
