import pg from 'pg';
import {
  DataTypeNode,
  Kysely,
  OperationNodeTransformer,
  PostgresDialect,
  RawNode,
  type ColumnDefinitionNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * PostgreSQL: the same migrations and queries as on SQLite.
 *
 * Three differences are bridged here, so no migration or query has to care:
 *
 * - Numbers. Every whole number (times in epoch ms, points, stats) is a 64-bit integer on SQLite; on
 *   PostgreSQL `integer` is 32-bit, so the schema plugin below makes every `integer` column a
 *   `bigint` and every auto-increment key a `bigserial`. `pg` hands int8 and numeric values back as
 *   strings; this pool reads them as numbers (every value the product stores is below 2^53).
 * - Bytes. SQLite's `blob` is PostgreSQL's `bytea` (both read back as a Buffer).
 * - Case. SQLite's `text collate nocase` (usernames, group names) becomes `citext`, which compares,
 *   sorts and is unique without regard to case, as nocase does.
 *
 * JSON comes back as text, as SQLite's json functions give it.
 */

const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;
const JSONB_OID = 3802;

const number = (value: string) => Number(value);
const text = (value: string) => value;

function typeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === INT8 || oid === NUMERIC) return number;
  if (oid === JSON_OID || oid === JSONB_OID) return text;
  return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
}

export const PG_TYPES = { getTypeParser: typeParser } as pg.CustomTypesConfig;

class SchemaTransformer extends OperationNodeTransformer {
  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    const column = super.transformColumnDefinition(node);
    const dataType = column.dataType;
    if (column.autoIncrement) return { ...column, autoIncrement: false, dataType: DataTypeNode.create('bigserial') };
    if (DataTypeNode.is(dataType) && dataType.dataType === 'integer') return { ...column, dataType: DataTypeNode.create('bigint') };
    if (DataTypeNode.is(dataType) && dataType.dataType === 'blob') return { ...column, dataType: DataTypeNode.create('bytea') };
    if (RawNode.is(dataType) && dataType.sqlFragments.join('').replace(/\s+/g, ' ').trim().toLowerCase() === 'text collate nocase') {
      return { ...column, dataType: RawNode.createWithSql('citext') };
    }
    return column;
  }
}

/** Makes SQLite's column types PostgreSQL's (see the top of this file). Only schema statements change. */
export class PostgresSchemaPlugin implements KyselyPlugin {
  private readonly transformer = new SchemaTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const kind = args.node.kind;
    if (kind !== 'CreateTableNode' && kind !== 'AlterTableNode') return args.node;
    return this.transformer.transformNode(args.node);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** Where a PostgreSQL address points, without its password: `host:port/database`. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Connections a process keeps to PostgreSQL (each bid holds one for its transaction). */
export const POOL_SIZE = 10;

export function postgresPool(url: string, max = POOL_SIZE): pg.Pool {
  return new pg.Pool({ connectionString: url, max, types: PG_TYPES, application_name: 'kingdom' });
}

/** The pool under each Kysely made here (the bid writer runs named statements on its clients). */
const pools = new WeakMap<object, pg.Pool>();

/** A Kysely on PostgreSQL with the schema plugin; `pool` is ended by `destroy()`. */
export function postgresKysely<DB>(pool: pg.Pool): Kysely<DB> {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new PostgresSchemaPlugin()] });
  pools.set(db, pool);
  return db;
}

/** The pool under a Kysely that `postgresKysely` made (its clients speak pg's own API: named statements). */
export function poolOf(db: object): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('not a PostgreSQL database opened by postgresKysely');
  return pool;
}
