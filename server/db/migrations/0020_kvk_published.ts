import type { Kysely } from 'kysely';

// A KvK season may be published: every signed-in player may then read its standings. When it was
// published is kept (null: leadership only).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('kvk_seasons').addColumn('published_at', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('kvk_seasons').dropColumn('published_at').execute();
}
