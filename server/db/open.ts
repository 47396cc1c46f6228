import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import type { Database } from './schema';
import { migrateToLatest } from './migrations';
import { describePostgres, postgresKysely, postgresPool } from './postgres';

export const DB_FILE = 'kingdom.db';

export type Db = Kysely<Database>;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; a bid runs about ten. This keeps the last 500
 * prepared statements by their SQL text (the parameters differ, the statement is the same), so a
 * hot path compiles its SQL once. A statement still busy streaming rows is never handed out twice.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (source: string): SQLite.Statement => {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      cache.delete(source); // most recently used last
      cache.set(source, cached);
      return cached;
    }
    const statement = sqlite.prepare(source);
    cache.set(source, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value as string);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Opens the database and migrates it to the latest schema: PostgreSQL when `databaseUrl` names one
 * (DATABASE_URL), else DATA_DIR/kingdom.db.
 */
export async function openDatabase(dataDir: string, databaseUrl: string | null = null): Promise<Db> {
  return databaseUrl ? openPostgres(databaseUrl) : openSqlite(dataDir);
}

/**
 * PostgreSQL: the same migrations (server/db/postgres.ts makes the column types PostgreSQL's).
 * Several processes may start at once: Kysely's migrator takes a lock, so each migration runs once.
 */
export async function openPostgres(url: string): Promise<Db> {
  const db = postgresKysely<Database>(postgresPool(url));
  try {
    // usernames and group names compare without regard to case, as SQLite's nocase does
    await sql`create extension if not exists citext`.execute(db).catch(async (error: unknown) => {
      // two processes starting at once both tried to create it: the other one did
      if ((error as { code?: string }).code !== '23505') throw error;
    });
    await migrateToLatest(db as unknown as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    const code = (error as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000' || code === '28000') {
      throw new Error(`PostgreSQL at ${describePostgres(url)} could not be used (${(error as Error).message}); check DATABASE_URL.`, { cause: error });
    }
    throw error;
  }
  return db;
}

/**
 * Opens DATA_DIR/kingdom.db (creating DATA_DIR), in WAL mode so the admin CLI can write while the
 * server runs, with foreign keys on, and migrates it to the latest schema.
 */
async function openSqlite(dataDir: string): Promise<Db> {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, DB_FILE));
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit (an acknowledged bid, a ledger entry) survives power loss too, not only a crash of the process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
