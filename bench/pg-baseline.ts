/**
 * The PostgreSQL baseline (issue 15), the counterpart of sqlite-baseline.ts: plain `pg` inserts of
 * the engine's bid rows, one transaction per bid (BEGIN, INSERT … RETURNING id, COMMIT), on one
 * connection, into a database built by the server's own migrations (openPostgres), on the same
 * PostgreSQL cluster as the server under test, so with the same durability (fsync and
 * synchronous_commit as the cluster has them: every commit flushed to disk, as SQLite's
 * synchronous=FULL). No advisory lock, no row lock, no Kysely, no queue: what the database alone
 * charges for a bid's row.
 */
import pg from 'pg';
import { openPostgres } from '../server/db/open';

export interface PgFigures {
  settings: Record<string, string>;
  bidRow: { transactions: number; seconds: number; perSecond: number; meanMs: number; p99Ms: number };
}

export async function pgBaseline(url: string, seconds: number): Promise<PgFigures> {
  // the server's schema (its migrations), then a plain connection
  const kysely = await openPostgres(url);
  await kysely.destroy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const settings: Record<string, string> = {};
    for (const name of ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method']) {
      const { rows } = await client.query<Record<string, string>>(`show ${name}`);
      settings[name] = Object.values(rows[0] ?? {})[0] ?? '?';
    }

    // two bidders and 125 live items, as in the socket runs
    const now = Date.now();
    const users: number[] = [];
    for (const n of [1, 2]) {
      const { rows } = await client.query<{ id: string }>(
        "insert into users (email, username, playerid, password_hash, rank, balance, reserved, created_at) values ($1, $2, $3, 'x', 'user', 1000000000, 0, $4) returning id",
        // a governor id belongs to one account (migration 0007)
        [`bench${n}@bench.test`, `bench${n}`, String(n), now],
      );
      users.push(Number(rows[0].id));
    }
    const items: number[] = [];
    for (let n = 0; n < 125; n++) {
      const { rows } = await client.query<{ id: string }>(
        "insert into items (name, start_price, min_increment, starts_at, duration_s, ends_at, extend_window_s, max_extensions, state, amount, created_at, started_at) values ($1, 1, 1, $2, 3600, $3, 0, 0, 'live', 1, $2, $2) returning id",
        [`Bench item ${n + 1}`, now, now + 3_600_000],
      );
      items.push(Number(rows[0].id));
    }

    // a named statement: parsed and planned once, as better-sqlite3's prepared insert is
    const insert = { name: 'bench-bid', text: 'insert into bids (item_id, user_id, amount, ends_at, created_at) values ($1, $2, $3, $4, $5) returning id' };
    const samples: number[] = [];
    const start = performance.now();
    const end = start + seconds * 1000;
    let i = 0;
    for (let t = start; t < end; i++) {
      await client.query('begin');
      await client.query({ ...insert, values: [items[i % items.length], users[i % 2], 1 + Math.floor(i / items.length), now + 3_600_000, Date.now()] });
      await client.query('commit');
      const after = performance.now();
      samples.push(after - t);
      t = after;
    }
    const total = (performance.now() - start) / 1000;
    samples.sort((a, b) => a - b);
    return {
      settings,
      bidRow: {
        transactions: i,
        seconds: total,
        perSecond: i / total,
        meanMs: samples.reduce((s, x) => s + x, 0) / samples.length,
        p99Ms: samples[Math.min(samples.length - 1, Math.ceil(0.99 * samples.length) - 1)],
      },
    };
  } finally {
    await client.end();
  }
}
