import { sql, type Kysely } from 'kysely';

// Migrations are frozen history: they take Kysely<unknown>, never the current schema types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('email', 'text', (c) => c.notNull().unique().check(sql`email = lower(email)`))
    .addColumn('username', sql`text collate nocase`, (c) => c.notNull().unique())
    .addColumn('playerid', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('rank', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('balance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved', 'integer', (c) => c.notNull().defaultTo(0).check(sql`reserved >= 0`))
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', 'integer')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
