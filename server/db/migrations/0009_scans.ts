import { sql, type Kysely } from 'kysely';

// Governors and scans (issue 12, DESIGN.md "Governors and scans"): one row per scan, one row per
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
  await table.addPrimaryKeyConstraint('scan_rows_pk', ['scan_id', 'governor_id']).execute();
  // one governor's history, and the dashboards' sorted pages of one scan
  await db.schema.createIndex('scan_rows_governor').on('scan_rows').columns(['governor_id', 'scan_id']).execute();
  for (const column of ['power', 'killpoints', 'deads', 't4_kills', 't5_kills']) {
    await db.schema.createIndex(`scan_rows_${column}`).on('scan_rows').columns(['scan_id', column]).execute();
  }
  await db.schema.createIndex('scan_rows_alliance').on('scan_rows').columns(['scan_id', 'alliance']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scan_rows').execute();
  await db.schema.dropTable('scans').execute();
}
