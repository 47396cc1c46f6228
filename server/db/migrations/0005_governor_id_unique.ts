import { sql, type Kysely } from 'kysely';

/**
 * One account per governor id. Sign-up refuses an id another account has; this index holds that
 * against two sign-ups at once.
 *
 * A database from before this rule may already have several accounts on one id. Those accounts
 * are left as they are (nothing here can tell whose claim is true, and refusing to start would
 * take the whole kingdom offline over it): the index is partial, leaving out exactly the ids that
 * were shared when it was made, so it can be created, and every other id is unique from now on.
 * Sign-up refuses a shared id too (it checks any account with the id), and a bulk award by a
 * shared id keeps being refused as ambiguous until an admin sorts those accounts out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const shared = await sql<{ playerid: string }>`select playerid from users group by playerid having count(*) > 1 order by playerid`.execute(db);
  const ids = shared.rows.map((row) => `'${row.playerid.replace(/'/g, "''")}'`);
  const where = ids.length === 0 ? sql`` : sql` where playerid not in (${sql.raw(ids.join(', '))})`;
  await sql`create unique index users_playerid_unique on users (playerid)${where}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index users_playerid_unique`.execute(db);
}
