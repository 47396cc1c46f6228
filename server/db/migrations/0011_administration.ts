import { sql, type Kysely } from 'kysely';

// Administration: accounts can be disabled (never deleted:
// the ledger keeps its history) and show when they were last seen; the kingdoms the site knows
// (ours and the others met in KvK: number, name, camp) are kept for the seasons and the scans'
// kingdom column.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'integer').execute();
  await db.schema.alterTable('users').addColumn('disabled_by', 'integer', (c) => c.references('users.id')).execute();
  /** Written on authentication, at most once a minute per account. */
  await db.schema.alterTable('users').addColumn('last_seen_at', 'integer').execute();
  await db.schema
    .createTable('kingdoms')
    .addColumn('number', 'integer', (c) => c.primaryKey().check(sql`number between 1 and 99999`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('camp', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();
  // the admin dashboard counts the bids of the last hour
  await db.schema.createIndex('bids_created').on('bids').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bids_created').execute();
  await db.schema.dropTable('kingdoms').execute();
  await db.schema.alterTable('users').dropColumn('last_seen_at').execute();
  await db.schema.alterTable('users').dropColumn('disabled_by').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
}
