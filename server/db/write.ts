import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import type { Db } from './open';
import { isPostgres } from './dialect';

/** A database (or a connection inside a write transaction) that queries can run on. */
export type Queryable = Kysely<Database>;

/**
 * The key of PostgreSQL's advisory lock that stands for "the database's write lock": taken
 * exclusively by every write transaction but bids, and shared by bids (see writeTransaction).
 */
export const WRITE_LOCK_KEY = 0x6b696e67; // 'king'

export interface WriteOptions {
  /**
   * 'exclusive' (the default): nothing else writes while `fn` runs, as SQLite's BEGIN IMMEDIATE
   * gives. 'shared': other shared transactions may run beside it, so `fn` must lock the rows it
   * reads before it decides (a bid locks its item and its users with SELECT … FOR UPDATE).
   * SQLite has one writer at a time, so there both are the same.
   */
  lock?: 'exclusive' | 'shared';
}

/**
 * Runs `fn` in one write transaction; commits when `fn` resolves, rolls back when it throws.
 *
 * SQLite: BEGIN IMMEDIATE takes the write lock before the first read, so a read-check-write (a
 * bid's balance check and its insert) can never be overtaken by another writer — not by another
 * socket (Kysely's SQLite driver has one connection and hands it to one caller at a time) nor by
 * another process (the admin CLI).
 *
 * PostgreSQL (several processes may write): BEGIN, then the write lock, an advisory lock held to
 * the end of the transaction, in the mode `options.lock` asks for. Every write but a bid holds it
 * exclusively, so each reads and writes alone as on SQLite; bids hold it shared, so bids on
 * different items by different players run side by side, serialised by the row locks they take,
 * and none runs beside a grant, a settlement or an edit.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Queryable) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  const postgres = isPostgres(db);
  return db.connection().execute(async (conn) => {
    if (postgres) {
      // one round trip: BEGIN and the lock (a statement list without parameters goes as one simple query)
      const lock = options.lock === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
      try {
        await sql.raw(`begin; select ${lock}(${WRITE_LOCK_KEY})`).execute(conn);
      } catch (error) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw error;
      }
      deferred.set(conn, []);
    } else {
      await sql`begin immediate`.execute(conn);
    }
    const write: OpenWrite = { db, shared: options.lock === 'shared', committed: null };
    open.set(conn, write);
    let result: T;
    try {
      result = await fn(conn);
    } catch (error) {
      deferred.delete(conn);
      open.delete(conn);
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
    const atCommit = deferred.get(conn) ?? [];
    deferred.delete(conn);
    open.delete(conn);
    // PostgreSQL: what waits for the commit goes with it, in one round trip
    await sql.raw([...atCommit, 'commit'].join('; ')).execute(conn);
    if (write.committed) for (const fn of write.committed) fn(db);
    return result;
  });
}

/** A write transaction while it runs: its lock mode, and what to call once it has committed. */
interface OpenWrite {
  db: Db;
  shared: boolean;
  committed: ((db: Db) => void)[] | null;
}
const open = new WeakMap<object, OpenWrite>();

/**
 * Calls `fn` (with the database `trx` came from) once `trx`, a write transaction's connection, has committed; never when it rolls
 * back. Throws when `trx` is not an exclusive write transaction: what must follow a commit is
 * written in one that other writers cannot interleave with (domain events keep commit order).
 */
export function afterCommit(trx: Queryable, fn: (db: Db) => void): void {
  const write = open.get(trx);
  if (!write || write.shared) throw new Error('afterCommit needs an exclusive write transaction (writeTransaction without lock: shared)');
  (write.committed ??= []).push(fn);
}

/** Statements that run with a PostgreSQL write transaction's COMMIT, by transaction. */
const deferred = new WeakMap<object, string[]>();

/**
 * Runs `statement` (no parameters: its values written in) just before `trx` commits, in the same
 * round trip as the COMMIT; false when `trx` is not a PostgreSQL write transaction (run it now).
 */
export function runAtCommit(trx: Queryable, statement: string): boolean {
  const list = deferred.get(trx);
  if (!list) return false;
  list.push(statement);
  return true;
}

/** True for an error raised by the database itself (better-sqlite3's SqliteError: code SQLITE_…; pg's DatabaseError). */
export function isDatabaseError(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

/**
 * A unique constraint refused the write: the names of the columns it covers when the database says
 * them (SQLite's message "UNIQUE constraint failed: users.email"; PostgreSQL's detail "Key (email)=…").
 */
export function uniqueViolation(error: unknown): { columns: string[] } | null {
  const { code, message, detail, table } = error as { code?: string; message?: string; detail?: string; table?: string };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string') {
    const names = message.replace(/^.*constraint failed:\s*/i, '').split(',').map((s) => s.trim());
    return { columns: names };
  }
  if (code === '23505') {
    const key = /Key \(([^)]*)\)/.exec(detail ?? '')?.[1] ?? '';
    return { columns: key.split(',').map((c) => `${table ?? ''}.${c.trim().replace(/^lower\((.*)\)$/, '$1')}`) };
  }
  return null;
}
