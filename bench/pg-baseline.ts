/**
 * The PostgreSQL baseline, the counterpart of sqlite-baseline.ts: plain `pg` inserts of
 * the engine's bid rows, one transaction per bid (BEGIN, INSERT … RETURNING id, COMMIT), on one
 * connection, into a database built by the server's own migrations (openPostgres), on the same
 * PostgreSQL cluster as the server under test, so with the same durability (fsync and
 * synchronous_commit as the cluster has them: every commit flushed to disk, as SQLite's
 * synchronous=FULL). No advisory lock, no row lock, no Kysely, no queue: what the database alone
 * charges for a bid's row.
 *
 * Beside it, `writeSet`: a whole accepted bid's reads and writes as one transaction, the
 * statements the engine's accept runs (the bidder's earlier answer looked up, the item and the
 * bidder locked, the bid and its request inserted, the item updated, the outbid leader's points
 * released and the bidder's reserved) as named statements, one round trip each: what PostgreSQL
 * charges for a bid's work, without the engine's queue, judging or answers.
 */
import pg from 'pg';
import { openPostgres } from '../server/db/open';
import { timedAsync, type TimedRun } from './common';

export interface PgFigures {
  settings: Record<string, string>;
  bidRow: Timed;
  writeSet: Timed;
}

type Timed = TimedRun;

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
    const bidRow = await timedAsync(seconds, async (i) => {
      await client.query('begin');
      await client.query({ ...insert, values: [items[i % items.length], users[i % 2], 1 + Math.floor(i / items.length), now + 3_600_000, Date.now()] });
      await client.query('commit');
    });

    // the whole write set of an accepted bid that outbids someone
    const Q = {
      request: { name: 'ws-request', text: 'select * from bid_requests where user_id = $1 and request_id = $2' },
      item: { name: 'ws-item', text: 'select * from items where id = $1 for update' },
      user: { name: 'ws-user', text: 'select * from users where id = $1 for update' },
      addRequest: { name: 'ws-add-request', text: 'insert into bid_requests (user_id, request_id, item_id, bid_id, error_type, created_at) values ($1, $2, $3, $4, null, $5)' },
      updateItem: { name: 'ws-update-item', text: "update items set leader_id = $1, amount = $2, ends_at = $3, extensions = $4 where id = $5 and state = 'live'" },
      release: { name: 'ws-release', text: 'update users set reserved = reserved - $1 where id = $2 returning *' },
      reserve: { name: 'ws-reserve', text: 'update users set reserved = reserved + $1 where id = $2 returning *' },
    };
    const writeSet = await timedAsync(seconds, async (i) => {
      const itemId = items[i % items.length];
      const userId = users[Math.floor(i / items.length) % 2];
      const at = Date.now();
      await client.query('begin');
      await client.query({ ...Q.request, values: [userId, `w${i}`] });
      const item = (await client.query<{ amount: string; leader_id: string | null; ends_at: string; extensions: string }>({ ...Q.item, values: [itemId] })).rows[0];
      await client.query({ ...Q.user, values: [userId] });
      const amount = Number(item.amount) + 1;
      const leader = item.leader_id === null ? null : Number(item.leader_id);
      const { rows } = await client.query<{ id: string }>({ ...insert, values: [itemId, userId, amount, Number(item.ends_at), at] });
      await client.query({ ...Q.addRequest, values: [userId, `w${i}`, itemId, Number(rows[0].id), at] });
      await client.query({ ...Q.updateItem, values: [userId, amount, Number(item.ends_at), Number(item.extensions), itemId] });
      const ownLead = leader === userId ? Number(item.amount) : 0;
      if (leader !== null && leader !== userId) await client.query({ ...Q.release, values: [Number(item.amount), leader] });
      await client.query({ ...Q.reserve, values: [amount - ownLead, userId] });
      await client.query('commit');
    });
    return { settings, bidRow, writeSet };
  } finally {
    await client.end();
  }
}
