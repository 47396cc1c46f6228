import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { dialectOf, type DialectName } from './dialect';
import type { Queryable } from './write';

const SLOT = Symbol('prepared query argument');

/** What stands for an argument while the query is built: Kysely binds it as a parameter, untouched. */
interface Slot {
  readonly [SLOT]: string;
}

function isSlot(value: unknown): value is Slot {
  return typeof value === 'object' && value !== null && SLOT in value;
}

/** A query compiled once: its SQL, and for each parameter either the argument it takes or its fixed value. */
interface Compiled {
  /** The compiled query as Kysely made it (its parameters are replaced on each run). */
  query: CompiledQuery;
  parameters: ({ argument: string } | { value: unknown })[];
}

/** A query built once by Kysely and run many times with new arguments. */
export interface Prepared<A, R> {
  /** Every row. */
  all(db: Queryable, args: A): Promise<R[]>;
  /** The first row, if any. */
  first(db: Queryable, args: A): Promise<R | undefined>;
  /** The first row; throws when there is none. */
  only(db: Queryable, args: A): Promise<R>;
  /** What the statement did (`numAffectedRows` for a write without RETURNING). */
  run(db: Queryable, args: A): Promise<QueryResult<R>>;
}

/**
 * A query on a hot path (a bid runs about ten), built with Kysely's query builder as usual but
 * built and compiled only once per dialect: building and compiling a query costs more than
 * SQLite takes to run it. `build` is called once with stand-ins for its arguments; each must
 * reach the query as a bound value (a comparison, a column set, an inserted value), not shape it
 * (no `in` list, no column name), which the first run checks. SQLite's prepared statement is then
 * reused as well (open.ts, withStatementCache).
 */
export function prepared<A extends Record<string, unknown>, R>(build: (db: Queryable, args: A) => Compilable<R>): Prepared<A, R> {
  const compiled = new Map<DialectName, Compiled>();
  const compile = (db: Queryable): Compiled => {
    const dialect = dialectOf(db);
    let found = compiled.get(dialect);
    if (!found) {
      const used = new Set<string>();
      const stand = new Proxy({} as A, {
        get: (_target, name) => {
          if (typeof name !== 'string') return undefined;
          used.add(name);
          return { [SLOT]: name } satisfies Slot;
        },
      });
      const query = build(db, stand).compile();
      const parameters = query.parameters.map((value) => (isSlot(value) ? { argument: value[SLOT] } : { value }));
      const bound = new Set(parameters.flatMap((p) => ('argument' in p ? [p.argument] : [])));
      const lost = [...used].filter((name) => !bound.has(name));
      if (lost.length) throw new Error(`prepared query: ${lost.join(', ')} did not become a bound parameter of ${query.sql}`);
      found = { query, parameters };
      compiled.set(dialect, found);
    }
    return found;
  };
  // async: a missing argument is a rejection, as a failed statement is
  const run = async (db: Queryable, args: A): Promise<QueryResult<R>> => {
    const { query, parameters } = compile(db);
    const values = parameters.map((p) => {
      if (!('argument' in p)) return p.value;
      const value = args[p.argument];
      if (value === undefined) throw new Error(`prepared query: no value for ${p.argument}`);
      return value;
    });
    return db.executeQuery<R>({ ...query, parameters: values });
  };
  return {
    run,
    all: async (db, args) => (await run(db, args)).rows,
    first: async (db, args) => (await run(db, args)).rows[0],
    only: async (db, args) => {
      const row = (await run(db, args)).rows[0];
      if (row === undefined) throw new Error(`prepared query: no row for ${compile(db).query.sql}`);
      return row;
    },
  };
}
