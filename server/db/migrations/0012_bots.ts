import type { Kysely } from 'kysely';

// Scan bots: a bot's token is stored only as its SHA-256 (the token is 32 random
// bytes, so a fast hash is enough); revoking keeps the row (scans and the audit log name it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bots')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('revoked_at', 'integer')
    .addColumn('last_seen_at', 'integer')
    .addColumn('last_scan_at', 'integer')
    .addColumn('version', 'text')
    /** JSON array of the commands the bot announced in its last hello. */
    .addColumn('commands', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('bots_name').on('bots').column('name').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bots').execute();
}
