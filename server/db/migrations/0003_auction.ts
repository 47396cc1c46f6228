import { sql, type Kysely } from 'kysely';

// The live auction: items with their stored schedule, every accepted bid, the first answer to every
// (user, requestId), sales (one per item: settlement happens once), and groups for eligibility.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('items')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_url', 'text')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('auction').check(sql`type in ('auction')`))
    .addColumn('start_price', 'integer', (c) => c.notNull().check(sql`start_price >= 0`))
    .addColumn('min_increment', 'integer', (c) => c.notNull().check(sql`min_increment >= 1`))
    .addColumn('starts_at', 'integer', (c) => c.notNull())
    .addColumn('duration_s', 'integer', (c) => c.notNull())
    // the current end: starts_at + duration, moved by soft close
    .addColumn('ends_at', 'integer', (c) => c.notNull())
    .addColumn('extend_window_s', 'integer', (c) => c.notNull())
    .addColumn('max_extensions', 'integer', (c) => c.notNull())
    .addColumn('extensions', 'integer', (c) => c.notNull().defaultTo(0).check(sql`extensions <= max_extensions`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('scheduled', 'live', 'finished', 'cancelled')`))
    .addColumn('eligibility', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('leader_id', 'integer', (c) => c.references('users.id'))
    // the leading amount; start_price before the first bid
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'integer')
    .addColumn('settled_at', 'integer')
    .execute();
  await db.schema.createIndex('items_state_starts').on('items').columns(['state', 'starts_at']).execute();
  await db.schema.createIndex('items_state_ends').on('items').columns(['state', 'ends_at']).execute();
  await db.schema.createIndex('items_leader').on('items').columns(['leader_id', 'state']).execute();

  await db.schema
    .createTable('bids')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    // the item's end right after this bid (soft close may have moved it)
    .addColumn('ends_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bids_item').on('bids').columns(['item_id', 'id']).execute();

  // The first answer to each (user, requestId): a bid id, or the error type it got.
  await db.schema
    .createTable('bid_requests')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('bid_id', 'integer', (c) => c.references('bids.id'))
    .addColumn('error_type', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('bid_requests_pk', ['user_id', 'request_id'])
    .addCheckConstraint('bid_requests_one_answer', sql`(bid_id is null) <> (error_type is null)`)
    .execute();

  await db.schema
    .createTable('sales')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('item_id', 'integer', (c) => c.notNull().unique().references('items.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sales_user').on('sales').columns(['user_id', 'at']).execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', sql`text collate nocase`, (c) => c.notNull().unique())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_groups')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_groups_pk', ['user_id', 'group_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['user_groups', 'groups', 'sales', 'bid_requests', 'bids', 'items']) await db.schema.dropTable(table).execute();
}
