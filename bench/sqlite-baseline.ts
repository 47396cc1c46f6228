/**
 * The SQLite baseline: plain better-sqlite3 inserts of the engine's bid rows, one write transaction
 * per bid (BEGIN IMMEDIATE … COMMIT, as server/db/write.ts does), with the durability settings the
 * running server reported for its own connection (WAL, synchronous=FULL, foreign keys on…), into a
 * database built by the server's own migrations, on the same filesystem as the server's DATA_DIR.
 *
 * Two figures:
 * - `bidRow`: the bid row alone (INSERT INTO bids) per transaction: the baseline the brief asks for.
 * - `writeSet`: everything a bid's transaction reads and writes in placeBid (the request lookup,
 *   item, bidder, the bid row, its bid_requests row, the item update, the outbid and the bidder's
 *   reserved points), as prepared statements: the engine's database floor without Kysely, the
 *   async queue or the broadcast.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../server/db/open';
import { timedSync, type TimedRun } from './common';

export interface SqliteFigures {
  pragmas: Record<string, unknown>;
  bidRow: TimedRun;
  writeSet: TimedRun;
}

/** The pragmas a connection can be given (journal_mode persists in the file; the others are per connection). */
const SETTABLE = ['journal_mode', 'synchronous', 'foreign_keys', 'busy_timeout', 'locking_mode', 'wal_autocheckpoint', 'cache_size', 'temp_store', 'mmap_size'];

const SYNCHRONOUS_NAMES: Record<string, string> = { '0': 'OFF', '1': 'NORMAL', '2': 'FULL', '3': 'EXTRA' };

export async function sqliteBaseline(dataDir: string, serverPragmas: Record<string, unknown>, seconds: number): Promise<SqliteFigures> {
  // the server's schema (its migrations), then a plain connection
  const kysely = await openDatabase(dataDir);
  await kysely.destroy();
  const db = new SQLite(path.join(dataDir, 'kingdom.db'));
  for (const name of SETTABLE) {
    const value = serverPragmas[name];
    if (value === undefined || value === null) continue;
    db.pragma(`${name} = ${name === 'synchronous' ? (SYNCHRONOUS_NAMES[String(value)] ?? value) : value}`);
  }
  const pragmas: Record<string, unknown> = {};
  for (const name of Object.keys(serverPragmas)) pragmas[name] = db.pragma(name, { simple: true });
  for (const [name, value] of Object.entries(serverPragmas)) {
    if (String(pragmas[name]) !== String(value)) throw new Error(`SQLite baseline: pragma ${name} is ${String(pragmas[name])}, the server's is ${String(value)}`);
  }

  // two bidders and 125 live items, as in the socket runs
  const now = Date.now();
  const addUser = db.prepare(
    "insert into users (email, username, playerid, password_hash, rank, balance, reserved, created_at) values (?, ?, ?, 'x', 'user', 1000000000, 0, ?)",
  );
  // a governor id belongs to one account (migration 0007)
  const users = [1, 2].map((n) => Number(addUser.run(`bench${n}@bench.test`, `bench${n}`, String(n), now).lastInsertRowid));
  const addItem = db.prepare(
    "insert into items (name, start_price, min_increment, starts_at, duration_s, ends_at, extend_window_s, max_extensions, state, amount, created_at, started_at) values (?, 1, 1, ?, 3600, ?, 0, 0, 'live', 1, ?, ?)",
  );
  const items = Array.from({ length: 125 }, (_, n) => Number(addItem.run(`Bench item ${n + 1}`, now, now + 3_600_000, now, now).lastInsertRowid));

  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  const insertBid = db.prepare('insert into bids (item_id, user_id, amount, ends_at, created_at) values (?, ?, ?, ?, ?) returning id');

  const bidRow = timedSync(seconds, (i) => {
    begin.run();
    insertBid.get(items[i % items.length], users[i % 2], 1 + Math.floor(i / items.length), now + 3_600_000, Date.now());
    commit.run();
  });

  // the whole write set of an accepted bid that outbids someone (placeBid's statements)
  const findRequest = db.prepare('select * from bid_requests where user_id = ? and request_id = ?');
  const findItem = db.prepare('select * from items where id = ?');
  const findUser = db.prepare('select * from users where id = ?');
  const addRequest = db.prepare('insert into bid_requests (user_id, request_id, item_id, bid_id, error_type, created_at) values (?, ?, ?, ?, null, ?)');
  const updateItem = db.prepare("update items set leader_id = ?, amount = ?, ends_at = ?, extensions = ? where id = ? and state = 'live'");
  const release = db.prepare('update users set reserved = reserved - ? where id = ? returning *');
  const reserve = db.prepare('update users set reserved = reserved + ? where id = ? returning *');
  const writeSet = timedSync(seconds, (i) => {
    const itemId = items[i % items.length];
    const userId = users[Math.floor(i / items.length) % 2];
    const t = Date.now();
    begin.run();
    findRequest.get(userId, `w${i}`);
    const item = findItem.get(itemId) as { amount: number; leader_id: number | null; ends_at: number; extensions: number };
    findUser.get(userId);
    const amount = item.amount + 1;
    const { id } = insertBid.get(itemId, userId, amount, item.ends_at, t) as { id: number };
    addRequest.run(userId, `w${i}`, itemId, id, t);
    updateItem.run(userId, amount, item.ends_at, item.extensions, itemId);
    const ownLead = item.leader_id === userId ? item.amount : 0;
    if (item.leader_id !== null && item.leader_id !== userId) release.get(item.amount, item.leader_id);
    reserve.get(amount - ownLead, userId);
    commit.run();
  });

  db.close();
  return { pragmas, bidRow, writeSet };
}
