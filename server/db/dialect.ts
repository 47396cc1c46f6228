import { PostgresAdapter, sql, type QueryExecutor, type RawBuilder } from 'kysely';

/**
 * The two databases the server runs on: SQLite by default,
 * PostgreSQL when DATABASE_URL names one. Almost every query is the same on both; the few that
 * differ ask here, and this file is the one place that knows how they differ.
 */
export type DialectName = 'sqlite' | 'postgres';

/** Any Kysely (of any schema), a transaction or a connection of one. */
export interface Executes {
  getExecutor(): QueryExecutor;
}

/** Which database `db` (a Kysely, a transaction or a connection of one) speaks. */
export function dialectOf(db: Executes): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export function isPostgres(db: Executes): boolean {
  return dialectOf(db) === 'postgres';
}

/** A text compared and sorted without regard to case: SQLite's `collate nocase`, PostgreSQL's lower(). */
export function nocase(db: Executes, expression: RawBuilder<unknown>): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`lower(${expression})` : sql<string>`${expression} collate nocase`;
}

/** LIKE without regard to case (SQLite's LIKE already ignores ASCII case; PostgreSQL needs ILIKE). */
export function likeOperator(db: Executes): 'like' | 'ilike' {
  return isPostgres(db) ? 'ilike' : 'like';
}

/** A JSON array (as text) of one JSON array per row: json_group_array(json_array(…)) / json_agg(json_build_array(…)). */
export function jsonArrayOfArrays(db: Executes, values: RawBuilder<unknown>, orderBy?: RawBuilder<unknown>): RawBuilder<string> {
  // SQLite keeps the order rows come in; PostgreSQL is told it (a hash join may reorder them)
  return isPostgres(db)
    ? sql<string>`coalesce(json_agg(json_build_array(${values})${orderBy ? sql` order by ${orderBy}` : sql``})::text, '[]')`
    : sql<string>`json_group_array(json_array(${values}))`;
}

/** A JSON array (as text) of one JSON object per row, `fields` as 'key', value pairs. */
export function jsonArrayOfObjects(db: Executes, fields: RawBuilder<unknown>, orderBy?: RawBuilder<unknown>): RawBuilder<string> {
  const order = orderBy ? sql` order by ${orderBy}` : sql``;
  return isPostgres(db)
    ? sql<string>`coalesce(json_agg(json_build_object(${fields})${order})::text, '[]')`
    : sql<string>`json_group_array(json_object(${fields})${order})`;
}
