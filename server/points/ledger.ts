import { isPostgres } from '../db/dialect';
import { sql } from 'kysely';
import {
  PLAYERS_PAGE_SIZE,
  POINTS_ERRORS,
  TRANSACTIONS_PAGE_SIZE,
  type LedgerCheck,
  type LedgerMismatch,
  type PointsPlayer,
  type Transaction,
  type TransactionKind,
} from '../../src/protocol/points';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import type { Queryable } from '../db/write';
import { NotFound, Conflict } from '../errors';

/**
 * The points ledger. A balance changes only here: the transaction row and the new balance are
 * written in one database transaction, and a balance never goes below 0 nor below what leading
 * bids reserve.
 */
export interface Booking {
  userId: number;
  delta: number;
  kind: TransactionKind;
  reason: string;
  actorId: number | null;
}

/**
 * One booking, inside a write transaction the caller holds (the points service books a whole
 * list in one; settlement books the winner's purchase together with the sale): commits or rolls
 * back with it. Call it only in the engine's queue (server/points/service.ts does). `now` is the
 * caller's clock: the ledger never reads the wall clock itself.
 */
export async function bookIn(trx: Queryable, booking: Booking, now: number): Promise<{ transaction: Transaction; user: UserRow }> {
  const user = await trx.selectFrom('users').selectAll().where('id', '=', booking.userId).executeTakeFirst();
  if (!user) throw new NotFound(POINTS_ERRORS.unknownUser);
  const balance = user.balance + booking.delta;
  // more than the balance (with or without bids), or into the points that leading bids hold
  if (balance < 0) throw new Conflict(POINTS_ERRORS.moreThanBalance);
  if (balance < user.reserved) throw new Conflict(POINTS_ERRORS.belowReserved);
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

/** The transaction list's filters (ids resolved from the usernames); from/to inclusive epoch ms. */
export interface TransactionFilter {
  userId?: number;
  kind?: TransactionKind;
  actorId?: number;
  from?: number;
  to?: number;
}

function filtered(db: Queryable, filter: TransactionFilter) {
  let query = db.selectFrom('points_transactions as t');
  if (filter.userId !== undefined) query = query.where('t.user_id', '=', filter.userId);
  if (filter.kind !== undefined) query = query.where('t.kind', '=', filter.kind);
  if (filter.actorId !== undefined) query = query.where('t.actor_id', '=', filter.actorId);
  if (filter.from !== undefined) query = query.where('t.created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('t.created_at', '<=', filter.to);
  return query;
}

function withNames(db: Queryable, filter: TransactionFilter) {
  return filtered(db, filter)
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as a', 'a.id', 't.actor_id')
    .select(['t.id', 'u.username', 't.delta', 't.kind', 't.reason', 'a.username as actor', 't.balance_after', 't.created_at']);
}

function toTransaction(r: { id: number; username: string; delta: number; kind: TransactionKind; reason: string; actor: string | null; balance_after: number; created_at: number }): Transaction {
  return { id: r.id, username: r.username, delta: r.delta, kind: r.kind, reason: r.reason, actor: r.actor ?? null, balanceAfter: r.balance_after, at: r.created_at };
}

/** Newest first, a page at a time, filtered. */
export async function listTransactions(db: Db, { page = 1, ...filter }: TransactionFilter & { page?: number }) {
  const [rows, count] = await Promise.all([
    withNames(db, filter)
      .orderBy('t.id', 'desc')
      .limit(TRANSACTIONS_PAGE_SIZE)
      .offset((page - 1) * TRANSACTIONS_PAGE_SIZE)
      .execute(),
    filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { transactions: rows.map(toTransaction), page, pageSize: TRANSACTIONS_PAGE_SIZE, total: Number(count.n) };
}

/**
 * Every matching transaction, newest first, in chunks (the CSV export): each chunk continues below
 * the last id, so rows booked meanwhile neither repeat nor shift the rest.
 */
export async function* allTransactions(db: Db, filter: TransactionFilter, chunk = 2000): AsyncGenerator<Transaction[]> {
  let below = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await withNames(db, filter).where('t.id', '<', below).orderBy('t.id', 'desc').limit(chunk).execute();
    if (rows.length === 0) return;
    yield rows.map(toTransaction);
    below = rows[rows.length - 1].id;
    if (rows.length < chunk) return;
  }
}

/** `%` and `_` in what a person typed match themselves in LIKE. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Players whose username contains `q` (any ASCII case) or whose governor id starts with it, by username. */
export async function searchPlayers(db: Db, q: string | undefined, page = 1): Promise<{ players: PointsPlayer[]; page: number; pageSize: number; total: number }> {
  let query = db.selectFrom('users');
  const text = q?.trim() ?? '';
  if (text) {
    const escaped = likeEscape(text);
    query = query.where((eb) =>
      eb.or([eb('username', 'like', sql<string>`${`%${escaped}%`} escape '\\'`), eb('playerid', 'like', sql<string>`${`${escaped}%`} escape '\\'`)]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select(['username', 'playerid', 'rank', 'balance', 'reserved'])
      .orderBy('username')
      .orderBy('id')
      .limit(PLAYERS_PAGE_SIZE)
      .offset((page - 1) * PLAYERS_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    players: rows.map((r) => ({ ...r, available: r.balance - r.reserved })),
    page,
    pageSize: PLAYERS_PAGE_SIZE,
    total: Number(count.n),
  };
}

/**
 * The ledger check: every account's balance against the exact sum of its ledger (SQLite sums
 * integers exactly), and its reserved points against the amounts it leads on live english items
 * and its standing bids on live sealed items. Names
 * every account that does not match, or whose reserved points exceed its balance. One read
 * transaction, so a bid or a grant cannot land between the two reads.
 */
export async function checkLedger(db: Db): Promise<LedgerCheck> {
  // PostgreSQL: one snapshot for both reads (SQLite's read transaction is one already)
  const transaction = isPostgres(db) ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return transaction.execute(async (trx) => {
    const accounts = await trx.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await sql<LedgerMismatch>`
      select username, balance, "ledgerSum", reserved, "leadingSum" from (
        select u.id, u.username, u.balance, u.reserved,
          coalesce((select sum(t.delta) from points_transactions t where t.user_id = u.id), 0) as "ledgerSum",
          coalesce((select sum(i.amount) from items i where i.leader_id = u.id and i.state = 'live' and i.format = 'english'), 0)
            + coalesce((select sum(m.own) from (
                select max(b.amount) as own from bids b join items i on i.id = b.item_id
                where b.user_id = u.id and i.state = 'live' and i.format <> 'english' group by b.item_id
              ) as m), 0) as "leadingSum"
        from users u
      ) as sums where balance <> "ledgerSum" or reserved <> "leadingSum" or reserved > balance
      order by username`.execute(trx);
    return { ok: rows.rows.length === 0, accounts: Number(accounts.n), mismatches: rows.rows };
  });
}

/**
 * Many bookings inside a write transaction the caller holds (an automatic points run pays up to a
 * kingdom's governors at once): the same rules as bookIn (no balance below 0 nor below what leading
 * bids reserve; every row with its balance after), read and written a few hundred rows a statement
 * instead of four statements a booking. Bookings of one account follow each other in the given
 * order. Answers every touched account as it is after them; throws (the caller rolls back) on the
 * first booking that breaks a rule.
 */
export async function bookManyIn(trx: Queryable, bookings: Booking[], now = Date.now()): Promise<Map<number, UserRow>> {
  const CHUNK = 400;
  const ids = [...new Set(bookings.map((b) => b.userId))];
  const users = new Map<number, UserRow>();
  for (let at = 0; at < ids.length; at += CHUNK) {
    for (const user of await trx.selectFrom('users').selectAll().where('id', 'in', ids.slice(at, at + CHUNK)).execute()) users.set(user.id, { ...user });
  }
  const rows = bookings.map((booking) => {
    const user = users.get(booking.userId);
    if (!user) throw new NotFound(POINTS_ERRORS.unknownUser);
    const balance = user.balance + booking.delta;
    if (balance < 0) throw new Conflict(POINTS_ERRORS.moreThanBalance);
    if (balance < user.reserved) throw new Conflict(POINTS_ERRORS.belowReserved);
    user.balance = balance;
    return { user_id: user.id, delta: booking.delta, kind: booking.kind, reason: booking.reason, actor_id: booking.actorId, balance_after: balance, created_at: now };
  });
  // 8 columns a row: well within SQLite's limit on bound parameters
  for (let at = 0; at < rows.length; at += CHUNK) await trx.insertInto('points_transactions').values(rows.slice(at, at + CHUNK)).execute();
  const touched = [...users.values()];
  for (let at = 0; at < touched.length; at += CHUNK) {
    const chunk = touched.slice(at, at + CHUNK);
    // cast: PostgreSQL types a VALUES list's parameters as text unless told
    const values = sql.join(chunk.map((u) => sql`(cast(${u.id} as bigint), cast(${u.balance} as bigint))`));
    await sql`update users set balance = v.column2 from (values ${values}) as v where users.id = v.column1`.execute(trx);
  }
  return users;
}
