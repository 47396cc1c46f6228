import { sql, type Kysely } from 'kysely';

// KvK seasons. A season's weights, brackets and windows are small JSON values
// validated by the protocol's schemas before they are stored; its end scan is null while it runs
// (the latest scan counts) and fixed when it is closed. Marks are leadership's decisions about one
// governor in one season: zeroed or exempt, with a reason.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kvk_seasons')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start_scan_id', 'integer', (c) => c.notNull().references('scans.id'))
    .addColumn('end_scan_id', 'integer', (c) => c.references('scans.id'))
    /** {t4Kills, t5Kills, deads}: points of DKP per unit. */
    .addColumn('weights', 'text', (c) => c.notNull())
    /** [{minPower, kills, deads}], increasing minPower. */
    .addColumn('brackets', 'text', (c) => c.notNull())
    /** [{name, fromScanId, toScanId}]. */
    .addColumn('windows', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createTable('kvk_marks')
    .addColumn('season_id', 'integer', (c) => c.notNull().references('kvk_seasons.id'))
    .addColumn('governor_id', 'integer', (c) => c.notNull())
    .addColumn('mark', 'text', (c) => c.notNull().check(sql`mark in ('zeroed', 'exempt')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('marked_by', 'integer', (c) => c.references('users.id'))
    .addColumn('marked_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('kvk_marks_pk', ['season_id', 'governor_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('kvk_marks').execute();
  await db.schema.dropTable('kvk_seasons').execute();
}
