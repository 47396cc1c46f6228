import type { Kysely } from 'kysely';

// Previews waiting for their apply (a scan file, a bulk award, an automatic-points run), kept here
// rather than in one process's memory, so the apply may reach any process serving the kingdom.
// token is what the preview's answer gives (id orders an account's previews, oldest first);
// owner_id the account that made it (a bot's id negated); payload the preview's small part as
// JSON, body its rows as deflated JSON (dropped once applied). A row is good until expires_at and
// for one apply (applied_at).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('previews')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('body', 'blob')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('applied_at', 'integer')
    .execute();
  await db.schema.createIndex('previews_owner').on('previews').columns(['owner_id', 'kind', 'created_at']).execute();
  await db.schema.createIndex('previews_expiry').on('previews').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('previews').execute();
}
