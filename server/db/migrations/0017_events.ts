import type { Kysely } from 'kysely';

// Domain events: every change other parts react to is a row here, written in the change's own
// transaction (append-only; handled rows are pruned after their retention). Each reaction keeps
// the id of the last event it handled in event_cursors, so it resumes there after a crash.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('event_cursors')
    .addColumn('reaction', 'text', (c) => c.primaryKey())
    .addColumn('last_id', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_cursors').execute();
  await db.schema.dropTable('events').execute();
}
