import type { Kysely } from 'kysely';
import { makeAppendOnly } from '../append-only';

// The audit log: every leadership action with who, what and when.
// Append-only like the ledger: SQLite refuses an update or a delete.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    /** The actor's username when it acted (or "system", or a bot's name). */
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    /** A short JSON object of what changed. */
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
  await makeAppendOnly(db, 'audit_log', 'the audit log is append-only');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
