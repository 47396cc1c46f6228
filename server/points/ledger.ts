import { POINTS_ERRORS, TRANSACTIONS_PAGE_SIZE, type Transaction, type TransactionKind } from '../../src/protocol/points';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { writeTransaction, type Queryable } from '../db/write';
import { HttpError } from '../http/errors';

/**
 * The points ledger. A balance changes only here: the transaction row and the new balance are
 * written in one database transaction, and a balance never goes below what leading bids reserve.
 */
export interface Booking {
  userId: number;
  delta: number;
  kind: TransactionKind;
  reason: string;
  actorId: number | null;
}

export async function book(db: Db, booking: Booking, now = Date.now()): Promise<{ transaction: Transaction; user: UserRow }> {
  return writeTransaction(db, (trx) => bookIn(trx, booking, now));
}

/**
 * The same booking inside a write transaction the caller already holds (settlement books the
 * winner's purchase together with the sale): commits or rolls back with it.
 */
export async function bookIn(trx: Queryable, booking: Booking, now = Date.now()): Promise<{ transaction: Transaction; user: UserRow }> {
  const user = await trx.selectFrom('users').selectAll().where('id', '=', booking.userId).executeTakeFirst();
  if (!user) throw new HttpError(404, POINTS_ERRORS.unknownUser);
  const balance = user.balance + booking.delta;
  if (balance < user.reserved) throw new HttpError(409, POINTS_ERRORS.belowReserved);
  const { id } = await trx
    .insertInto('points_transactions')
    .values({
      user_id: user.id,
      delta: booking.delta,
      kind: booking.kind,
      reason: booking.reason,
      actor_id: booking.actorId,
      balance_after: balance,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const updated = await trx.updateTable('users').set({ balance }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
  const actor = booking.actorId === null ? null : await trx.selectFrom('users').select('username').where('id', '=', booking.actorId).executeTakeFirst();
  return {
    user: updated,
    transaction: {
      id,
      username: updated.username,
      delta: booking.delta,
      kind: booking.kind,
      reason: booking.reason,
      actor: actor?.username ?? null,
      balanceAfter: balance,
      at: now,
    },
  };
}

/** Newest first, a page at a time; optionally one player's. */
export async function listTransactions(db: Db, { userId, page = 1 }: { userId?: number; page?: number }) {
  let query = db
    .selectFrom('points_transactions as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as a', 'a.id', 't.actor_id');
  if (userId !== undefined) query = query.where('t.user_id', '=', userId);
  const [rows, count] = await Promise.all([
    query
      .select(['t.id', 'u.username', 't.delta', 't.kind', 't.reason', 'a.username as actor', 't.balance_after', 't.created_at'])
      .orderBy('t.id', 'desc')
      .limit(TRANSACTIONS_PAGE_SIZE)
      .offset((page - 1) * TRANSACTIONS_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const transactions: Transaction[] = rows.map((r) => ({
    id: r.id,
    username: r.username,
    delta: r.delta,
    kind: r.kind,
    reason: r.reason,
    actor: r.actor ?? null,
    balanceAfter: r.balance_after,
    at: r.created_at,
  }));
  return { transactions, page, pageSize: TRANSACTIONS_PAGE_SIZE, total: Number(count.n) };
}
