import { sql, type Kysely } from 'kysely';

// How an item is sold. items.format: 'english', 'sealed-first' or 'sealed-second'; reserve_price,
// the least it sells for (null: none); buy_now_price (english), a bid of at least it buys at once
// (null: none); bids_count, on a sealed item how many players have bid (all it shows while it runs).
// bids.auto: the server placed the bid from the bidder's maximum.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('english').check(sql`format in ('english', 'sealed-first', 'sealed-second')`))
    .execute();
  await db.schema.alterTable('items').addColumn('reserve_price', 'integer').execute();
  await db.schema.alterTable('items').addColumn('buy_now_price', 'integer').execute();
  await db.schema.alterTable('items').addColumn('bids_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('bids').addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bids').dropColumn('auto').execute();
  for (const column of ['bids_count', 'buy_now_price', 'reserve_price', 'format']) await db.schema.alterTable('items').dropColumn(column).execute();
}
