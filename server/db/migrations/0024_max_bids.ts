import type { Kysely } from 'kysely';

// Maximum (proxy) bids. max_bids: one standing maximum per player per item (the server bids for
// the player up to it); seq orders the maxima of one item by when they were set (equal maxima: the
// first set leads); exhausted_at is set once a max has been outbid beyond it (the one time it is
// told). The rows stay after the item ends: the buyer's is the winning max Store History shows
// council and admin. max_bid_requests: each accepted SET_MAX_BID's requestId, so a repeat gets the
// first answer and changes nothing (refusals are remembered in bid_requests, as a bid's are).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('max_bids')
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('max', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('set_at', 'integer', (c) => c.notNull())
    .addColumn('exhausted_at', 'integer')
    .addPrimaryKeyConstraint('max_bids_pk', ['item_id', 'user_id'])
    .execute();
  await db.schema.createIndex('max_bids_user').on('max_bids').columns(['user_id', 'item_id']).execute();
  await db.schema
    .createTable('max_bid_requests')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('max_bid_requests_pk', ['user_id', 'request_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('max_bid_requests').execute();
  await db.schema.dropTable('max_bids').execute();
}
