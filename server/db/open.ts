import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema';
import { migrateToLatest } from './migrations';

export const DB_FILE = 'kingdom.db';

export type Db = Kysely<Database>;

/**
 * Opens DATA_DIR/kingdom.db (creating DATA_DIR), in WAL mode so the admin CLI can write while the
 * server runs, with foreign keys on, and migrates it to the latest schema.
 */
export async function openDatabase(dataDir: string): Promise<Db> {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, DB_FILE));
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit (an acknowledged bid, a ledger entry) survives power loss too, not only a crash of the process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
