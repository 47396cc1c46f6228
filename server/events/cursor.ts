import { sql } from 'kysely';
import { isPostgres } from '../db/dialect';
import type { Db } from '../db/open';
import { writeTransaction, type Queryable } from '../db/write';

/**
 * A named cursor in `event_cursors`: the last id a pass over an append-only table has dealt with.
 * The reactions (over `events`), the outbid notices (over `bids`) and the Discord direct messages
 * (over `notices`) each keep one and take the same turns: claim the cursor, read past it, act, move it.
 */

/** The tables a cursor runs over: append-only, their ids given in commit order on SQLite. */
type CursorTable = 'events' | 'bids' | 'notices';

/**
 * PostgreSQL: rows written side by side on several processes (or connections) may commit out of id
 * order; a pass that reads only rows this old has every lower id committed by then (a write
 * transaction lasts milliseconds). SQLite commits one writer at a time, in id order, and needs none.
 */
export const PG_SETTLE_MS = 2_000;

/** Starts cursor `name` at the newest row of `table` (a new pass does not act on the past), once. */
export async function startCursor(db: Db, name: string, table: CursorTable): Promise<void> {
  const { last } = await db.selectFrom(table).select((eb) => eb.fn.max('id').as('last')).executeTakeFirstOrThrow();
  await db
    .insertInto('event_cursors')
    .values({ reaction: name, last_id: Number(last ?? 0) })
    .onConflict((oc) => oc.column('reaction').doNothing())
    .execute();
}

/**
 * One turn holding cursor `name`: `turn` gets where the cursor stands and a connection to act and
 * move it on. On PostgreSQL the turn is one transaction that claims the cursor's row FOR UPDATE SKIP
 * LOCKED, so with several processes one takes the turn and the others skip it (`undefined`); if it
 * dies the claim goes with its session. On SQLite (one writer) the turn runs on `db` as it is.
 * `atomic`: the turn is one write transaction on both (server/db/write.ts: on PostgreSQL with the
 * write lock), so its writes and the cursor's move commit together, alone.
 */
export async function cursorTurn<T>(db: Db, name: string, turn: (on: Queryable, last: number) => Promise<T>, options: { atomic?: boolean } = {}): Promise<T | undefined> {
  const pg = isPostgres(db);
  const claimed = async (on: Queryable) => {
    const row = pg
      ? (await sql<{ last_id: number }>`select last_id from event_cursors where reaction = ${name} for update skip locked`.execute(on)).rows[0]
      : await on.selectFrom('event_cursors').select('last_id').where('reaction', '=', name).executeTakeFirst();
    return row ? turn(on, Number(row.last_id)) : undefined;
  };
  if (options.atomic) return writeTransaction(db, claimed);
  return pg ? db.transaction().execute(claimed) : claimed(db);
}

/** Moves cursor `name` to `last`, on the turn's connection. */
export async function moveCursor(on: Queryable, name: string, last: number): Promise<void> {
  await on.updateTable('event_cursors').set({ last_id: last }).where('reaction', '=', name).execute();
}
