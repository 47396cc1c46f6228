import { sql, type Kysely } from 'kysely';
import { makeAppendOnly } from '../append-only';

// The ledger is append-only: a correction is a new row, never an edit. SQLite enforces it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('points_transactions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'deduct', 'purchase', 'refund', 'automatic')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('points_transactions_user').on('points_transactions').columns(['user_id', 'id']).execute();
  await makeAppendOnly(db, 'points_transactions', 'the points ledger is append-only');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('points_transactions').execute();
}
