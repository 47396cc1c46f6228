import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';
import type { Db } from './open';

/** A database (or a connection inside a write transaction) that queries can run on. */
export type Queryable = Kysely<Database>;

/**
 * Runs `fn` in one SQLite write transaction started with BEGIN IMMEDIATE: the write lock is taken
 * before the first read, so a read-check-write (a bid's balance check and its insert) can never be
 * overtaken by another writer — not by another socket (Kysely's SQLite driver has one connection and
 * hands it to one caller at a time) nor by another process (the admin CLI). Commits when `fn`
 * resolves, rolls back when it throws.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Queryable) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    let result: T;
    try {
      result = await fn(conn);
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
    await sql`commit`.execute(conn);
    return result;
  });
}

/** True for an error raised by SQLite itself (better-sqlite3's SqliteError: code SQLITE_…). */
export function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}
