import type { Kysely } from 'kysely';

// Discord announcements wait here until Discord has taken them. discord_outbox: one message per
// (event, channel kind), unique so a reaction that runs twice for one event queues it once; the
// webhook payload as JSON; pending until sent, or failed after a day of tries. claimed_until is a
// sender's lease (any process may claim a due, unleased row; a sender that dies loses its lease).
// discord_rate_limits: the time until which Discord asked to wait, per webhook and 'global'.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('discord_outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('next_at', 'integer', (c) => c.notNull())
    .addColumn('give_up_at', 'integer', (c) => c.notNull())
    .addColumn('claimed_until', 'integer')
    .addColumn('sent_at', 'integer')
    .addColumn('message_id', 'text')
    .addColumn('last_error', 'text')
    .addUniqueConstraint('discord_outbox_event_channel', ['event_id', 'channel'])
    .execute();
  await db.schema.createIndex('discord_outbox_due').on('discord_outbox').columns(['status', 'next_at']).execute();
  await db.schema
    .createTable('discord_rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('until', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('discord_rate_limits').execute();
  await db.schema.dropTable('discord_outbox').execute();
}
