import type { Kysely } from 'kysely';

// A card shared by link: the token is the only key a reader has (unguessable, 32 random bytes in
// base64url), the path is the one card it shows; the link ends at expires_at or when revoked.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', 'integer')
    .addColumn('revoked_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('share_links_user').on('share_links').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('share_links').execute();
}
