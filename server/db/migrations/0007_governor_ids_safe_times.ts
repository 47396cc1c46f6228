import { sql, type Kysely } from 'kysely';

/** 2100-01-01: the latest start a client may now send (MAX_TIME_MS in src/protocol/store.ts; frozen here). */
const MAX_TIME_MS = 4_102_444_800_000;

/**
 * Two repairs of what the server used to accept.
 *
 * Items whose start lies beyond 2100 (a start of 9007199254740991 made endsAt an unsafe integer and
 * the store's lists unreadable): such an item can never have started, so it holds no bid and no
 * reservation; it is cancelled now, with its times brought back to 2100, so every list reads again.
 *
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
  const now = Date.now();
  await sql`update items set state = case when state = 'scheduled' then 'cancelled' else state end,
      settled_at = case when state = 'scheduled' then ${now} else settled_at end,
      starts_at = ${MAX_TIME_MS}, ends_at = ${MAX_TIME_MS} + duration_s * 1000
    where starts_at > ${MAX_TIME_MS}`.execute(db);

  const shared = await sql<{ playerid: string }>`select playerid from users group by playerid having count(*) > 1 order by playerid`.execute(db);
  const ids = shared.rows.map((row) => `'${row.playerid.replace(/'/g, "''")}'`);
  const where = ids.length === 0 ? sql`` : sql` where playerid not in (${sql.raw(ids.join(', '))})`;
  await sql`create unique index users_playerid_unique on users (playerid)${where}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index users_playerid_unique`.execute(db);
}
