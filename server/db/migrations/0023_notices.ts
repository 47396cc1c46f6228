import type { Kysely } from 'kysely';

// Notices and the watchlist. watches: the items a player watches (one row per pair). notices: what
// reached a player, kept for a while: its kind, when, read (0/1), the item and amount it is about,
// the channel the player's preferences chose when it was made ('app', 'discord', 'both', 'none':
// every notice is stored, the in-app frame only goes out for app and both), data (JSON, more detail)
// and cause, unique with user_id, so a notice made twice (a reaction run again, two processes) is
// stored once. notice_preferences: a player's channel per kind (JSON) and "ending soon" lead time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('watches')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('watches_pk', ['user_id', 'item_id'])
    .execute();
  await db.schema.createIndex('watches_item').on('watches').columns(['item_id']).execute();
  await db.schema
    .createTable('notices')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('item_id', 'integer')
    .addColumn('item_name', 'text')
    .addColumn('amount', 'integer')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('cause', 'text', (c) => c.notNull())
    .addUniqueConstraint('notices_user_cause', ['user_id', 'cause'])
    .execute();
  await db.schema.createIndex('notices_user').on('notices').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notices_at').on('notices').columns(['at']).execute();
  await db.schema
    .createTable('notice_preferences')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('ending_lead_minutes', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notice_preferences').execute();
  await db.schema.dropTable('notices').execute();
  await db.schema.dropTable('watches').execute();
}
