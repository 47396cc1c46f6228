import type { Kysely } from 'kysely';

// The Discord bridge. discord_settings: one row (id 1) of what an admin pasted: the application,
// its public key (signatures of interactions), the bot token (never read back), the guild, the
// announcement language and one channel webhook per kind (JSON). discord_links: one Discord user
// for one account, both ways. discord_link_codes: the one-time codes `/link` hands out (10 minutes,
// used once). discord_interactions: the ids of interactions already answered, so a replayed one
// is refused (kept as long as a signature's timestamp is accepted).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('discord_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('bot_token', 'text')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('webhooks', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createTable('discord_links')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    .addColumn('discord_user_id', 'text', (c) => c.notNull().unique())
    .addColumn('linked_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('discord_link_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('discord_user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('used_at', 'integer')
    .execute();
  await db.schema.createIndex('discord_link_codes_expiry').on('discord_link_codes').column('expires_at').execute();
  await db.schema
    .createTable('discord_interactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('discord_interactions_at').on('discord_interactions').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['discord_interactions', 'discord_link_codes', 'discord_links', 'discord_settings']) await db.schema.dropTable(table).execute();
}
