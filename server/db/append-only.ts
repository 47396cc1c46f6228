import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Makes `table` append-only: the database itself refuses an UPDATE or a DELETE of any row with
 * `message` (the ledger, the audit log, automatic points runs). SQLite: two triggers that raise;
 * PostgreSQL: one trigger function that raises, run before each update or delete (and before a
 * TRUNCATE, which skips row triggers). Used by migrations: what it creates must never change.
 */
export async function makeAppendOnly(db: Kysely<unknown>, table: string, message: string): Promise<void> {
  if (isPostgres(db)) {
    const fn = sql.id(`${table}_append_only`);
    await sql`create function ${fn}() returns trigger language plpgsql as $$
      begin raise exception using message = ${sql.lit(message)}, errcode = 'restrict_violation'; end $$`.execute(db);
    await sql`create trigger ${sql.id(`${table}_no_change`)} before update or delete on ${sql.table(table)}
      for each row execute function ${fn}()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function ${fn}()`.execute(db);
    return;
  }
  await sqliteRefusal(db, table, 'update', message);
  await sqliteRefusal(db, table, 'delete', message);
}

/** SQLite: the trigger `<table>_no_<change>` that refuses every UPDATE or DELETE of `table` with `message`. */
function sqliteRefusal(db: Kysely<unknown>, table: string, change: 'update' | 'delete', message: string) {
  return sql`create trigger ${sql.id(`${table}_no_${change}`)} before ${sql.raw(change)} on ${sql.table(table)}
    begin select raise(abort, ${sql.lit(message)}); end`.execute(db);
}

/**
 * Runs `fill` with `table`'s refusal of updates lifted, then puts the refusal back as
 * `makeAppendOnly` made it: a migration filling in a column it has just added to rows already
 * there. Migrations run in a transaction, so no other write can slip through meanwhile.
 */
export async function fillAppendOnly(db: Kysely<unknown>, table: string, message: string, fill: () => Promise<void>): Promise<void> {
  if (isPostgres(db)) {
    const trigger = sql.id(`${table}_no_change`);
    await sql`alter table ${sql.table(table)} disable trigger ${trigger}`.execute(db);
    await fill();
    await sql`alter table ${sql.table(table)} enable trigger ${trigger}`.execute(db);
    return;
  }
  await sql`drop trigger ${sql.id(`${table}_no_update`)}`.execute(db);
  await fill();
  await sqliteRefusal(db, table, 'update', message);
}
