import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrations';
import { onPostgres } from './test-database';
// PostgreSQL runs each migration in a transaction already (Kysely's own)
describe.skipIf(onPostgres)('a migration that fails half way leaves nothing behind (SQLite)', () => {
  it('undoes its first changes, so the next start runs it again from the beginning', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-migrate-'));
    const file = path.join(dir, 'kingdom.db');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      let fail = true;
      const migrations = {
        '0001_t': { up: async (k: Kysely<unknown>) => void (await sql`create table t (x integer)`.execute(k)) },
        '0002_half': {
          up: async (k: Kysely<unknown>) => {
            await sql`alter table t add column y integer`.execute(k);
            if (fail) throw new Error('the second step failed');
            await sql`create index t_y on t (y)`.execute(k);
          },
        },
      };
      await expect(migrateToLatest(db, migrations)).rejects.toThrow(/0002_half failed: the second step failed/);
      // 0001 is kept; 0002's column is not there
      expect(sqlite.prepare("select name from pragma_table_info('t')").all()).toEqual([{ name: 'x' }]);
      fail = false;
      await migrateToLatest(db, migrations);
      expect(sqlite.prepare("select name from pragma_table_info('t')").all()).toEqual([{ name: 'x' }, { name: 'y' }]);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

