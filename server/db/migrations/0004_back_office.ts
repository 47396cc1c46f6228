import { sql, type Kysely } from 'kysely';

// The back office: the kingdom's settings (one row), and the indexes the ledger's filters
// and the store history need to stay fast with 100,000 transactions.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kingdom_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('kingdom_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kingdom_number', 'integer')
    .addColumn('store_open', 'integer', (c) => c.notNull().defaultTo(1).check(sql`store_open in (0, 1)`))
    .addColumn('default_duration_s', 'integer', (c) => c.notNull().defaultTo(3600))
    .addColumn('default_min_increment', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('default_extend_window_s', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('default_max_extensions', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('updated_at', 'integer')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await sql`insert into kingdom_settings (id) values (1)`.execute(db);

  // every filter of the transaction list, each with the list's order (newest first = id desc)
  await db.schema.createIndex('points_transactions_kind').on('points_transactions').columns(['kind', 'id']).execute();
  await db.schema.createIndex('points_transactions_actor').on('points_transactions').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('points_transactions_created').on('points_transactions').columns(['created_at', 'id']).execute();
  // store history: finished items by their end; sales by item are unique already
  await db.schema.createIndex('items_state_settled').on('items').columns(['state', 'settled_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['points_transactions_kind', 'points_transactions_actor', 'points_transactions_created', 'items_state_settled']) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('kingdom_settings').execute();
}
