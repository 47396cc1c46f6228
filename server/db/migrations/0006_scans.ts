import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Governors and scans: one row per scan, one row per
// governor per scan with every stat as scanned (null: not scanned, never 0). The stats' columns are
// integers; SQLite keeps 64-bit whole numbers, enough for any power or kill count.
export const STAT_COLUMNS = [
  'power',
  'killpoints',
  'deads',
  't1_kills',
  't2_kills',
  't3_kills',
  't4_kills',
  't5_kills',
  'total_kills',
  't45_kills',
  'ranged',
  'rss_gathered',
  'rss_assistance',
  'helps',
  'acclaim',
  'highest_acclaim',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scans')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('taken_at', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('kingdom', 'seed')`))
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('upload', 'bot')`))
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  // "latest", "previous" and "the scan before" are by takenAt, never by upload order
  await db.schema.createIndex('scans_taken').on('scans').columns(['taken_at', 'id']).execute();

  let table = db.schema
    .createTable('scan_rows')
    .addColumn('scan_id', 'integer', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('governor_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('alliance', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kingdom', 'integer');
  for (const column of STAT_COLUMNS) table = table.addColumn(column, 'integer');
  // WITHOUT ROWID: the rows are stored in (scan, governor) order, so a dashboard reading one scan's
  // 5,000 governors reads them side by side instead of 5,000 lookups by rowid
  const keyed = table.addPrimaryKeyConstraint('scan_rows_pk', ['scan_id', 'governor_id']);
  // (PostgreSQL keeps a heap and the key's index: it has no WITHOUT ROWID)
  await (isPostgres(db) ? keyed : keyed.modifyEnd(sql`without rowid`)).execute();
  // one governor's history, and the dashboards' sorted pages of one scan
  await db.schema.createIndex('scan_rows_governor').on('scan_rows').columns(['governor_id', 'scan_id']).execute();
  for (const column of ['power', 'killpoints', 'deads', 't4_kills', 't5_kills']) {
    await db.schema.createIndex(`scan_rows_${column}`).on('scan_rows').columns(['scan_id', column]).execute();
  }
  await db.schema.createIndex('scan_rows_alliance').on('scan_rows').columns(['scan_id', 'alliance']).execute();

  // Each scan's sums, for the kingdom and per alliance, written with the scan: dashboards and
  // metrics over 100 scans of 5,000 governors read 100 rows, not 500,000.
  let totals = db.schema
    .createTable('scan_totals')
    .addColumn('scan_id', 'integer', (c) => c.primaryKey().references('scans.id').onDelete('cascade'))
    .addColumn('governors', 'integer', (c) => c.notNull());
  for (const column of STAT_COLUMNS) totals = totals.addColumn(column, 'integer');
  await totals.execute();
  let alliances = db.schema
    .createTable('scan_alliances')
    .addColumn('scan_id', 'integer', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('alliance', 'text', (c) => c.notNull())
    .addColumn('members', 'integer', (c) => c.notNull());
  for (const column of STAT_COLUMNS) alliances = alliances.addColumn(column, 'integer');
  await alliances.addPrimaryKeyConstraint('scan_alliances_pk', ['scan_id', 'alliance']).execute();
  await db.schema.createIndex('scan_alliances_tag').on('scan_alliances').columns(['alliance', 'scan_id']).execute();

  // Leadership's word on an alliance seen in scans: its name and whether it is the kingdom's.
  await db.schema
    .createTable('alliances')
    .addColumn('tag', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ours', 'integer', (c) => c.notNull().defaultTo(0).check(sql`ours in (0, 1)`))
    .addColumn('updated_at', 'integer')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();

  // Accounts and governors: the sign-up's player id is the account's claimed main, an admin
  // verifies it and may link farms. A governor belongs to one account at most.
  await db.schema
    .createTable('governor_links')
    .addColumn('governor_id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0).check(sql`verified in (0, 1)`))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('governor_links_user').on('governor_links').columns(['user_id', 'governor_id']).execute();
  // every existing account's claim, the oldest account first where two claim one id
  if (isPostgres(db)) {
    await sql`insert into governor_links (governor_id, user_id, verified, created_at)
      select cast(playerid as bigint), id, 0, created_at from users
      where playerid ~ '^[1-9][0-9]{0,14}$'
      order by id
      on conflict (governor_id) do nothing`.execute(db);
  } else {
    await sql`insert or ignore into governor_links (governor_id, user_id, verified, created_at)
      select cast(playerid as integer), id, 0, created_at from users
      where playerid glob '[1-9]*' and playerid not glob '*[^0-9]*' and length(playerid) <= 15
      order by id`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['governor_links', 'alliances', 'scan_alliances', 'scan_totals']) await db.schema.dropTable(table).execute();
  await db.schema.dropTable('scan_rows').execute();
  await db.schema.dropTable('scans').execute();
}
