import type { Kysely } from 'kysely';

// A bulk award applied keeps its file's SHA-256, so a later preview of the same file can say it
// was already applied (when and by whom) before every row is paid a second time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_awards')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bulk_awards_file').on('bulk_awards').columns(['sha256', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_awards').execute();
}
