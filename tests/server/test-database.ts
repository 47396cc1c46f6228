import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Db } from '../../server/db/open';

/** The server suite runs twice: on SQLite (project `server`) and on PostgreSQL (project `server-pg`). */
export const onPostgres = process.env.KINGDOM_TEST_DB === 'postgres';

const TEMPLATE_DB = 'kingdom_template';
const made = new Map<string, Promise<string>>();

/**
 * The database a test server over `dataDir` uses: null on SQLite (DATA_DIR/kingdom.db); on
 * PostgreSQL a database of its own, copied from the migrated template the first time this
 * `dataDir` asks, so a server restarted over the same `dataDir` finds its data again.
 */
export function databaseUrlFor(dataDir: string): Promise<string | null> {
  if (!onPostgres) return Promise.resolve(null);
  const base = inject('pgBaseUrl');
  const name = `k_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
  let url = made.get(name);
  if (!url) {
    url = (async () => {
      const admin = new pg.Client({ connectionString: `${base}postgres` });
      await admin.connect();
      try {
        await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
      } catch (error) {
        // made by another test file's server over the same directory
        if ((error as { code?: string }).code !== '42P04') throw error;
      } finally {
        await admin.end();
      }
      return `${base}${name}`;
    })();
    made.set(name, url);
  }
  return url;
}

/** Opens the database a test server over `dataDir` uses (see databaseUrlFor). */
export async function openTestDatabase(dataDir: string): Promise<Db> {
  return openDatabase(dataDir, await databaseUrlFor(dataDir));
}

/**
 * Makes every insert into `table` (matching `when`, an SQL condition on `new`) fail with `message`,
 * as a full disk or a crash would, on either database; answers the function that undoes it.
 */
export async function failInserts(db: Db, table: string, message: string, when?: string): Promise<() => Promise<void>> {
  const name = `fail_${table}_${Math.abs(hashOf(`${table}${when ?? ''}`))}`;
  if (onPostgres) {
    await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin raise exception '${message}'; end $$`).execute(db);
    await sql.raw(`create trigger ${name} before insert on ${table} for each row ${when ? `when (${when})` : ''} execute function ${name}()`).execute(db);
    return async () => {
      await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    };
  }
  await sql.raw(`create trigger ${name} before insert on ${table} ${when ? `when ${when}` : ''} begin select raise(abort, '${message}'); end`).execute(db);
  return async () => {
    await sql.raw(`drop trigger ${name}`).execute(db);
  };
}

function hashOf(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}
