import type { Kysely } from 'kysely';

// Every finished backup (the admin CLI's and the server's scheduled ones), so the Admin Dashboard
// can say when the last one was taken and how large it was. SQLite only writes it; on PostgreSQL
// backups are pg_dump's and the table stays empty.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backups')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('taken_at', 'integer', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('took_ms', 'integer', (c) => c.notNull())
    .addColumn('scheduled', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backups_taken').on('backups').columns(['taken_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('backups').execute();
}
