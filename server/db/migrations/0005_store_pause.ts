import type { Kysely } from 'kysely';

// Closing the store holds every live item's time left: items.held_ms is
// that time while the store is closed, null while it runs. No item ends while it is held; when the
// store opens again its end becomes the opening time plus held_ms.
// Soft close made visible: bids.extensions is how many extensions the item had used
// right after the bid, so a repeated request gets the very frame the first one did (null: a bid
// stored before it was kept).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('items').addColumn('held_ms', 'integer').execute();
  await db.schema.alterTable('bids').addColumn('extensions', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bids').dropColumn('extensions').execute();
  await db.schema.alterTable('items').dropColumn('held_ms').execute();
}
