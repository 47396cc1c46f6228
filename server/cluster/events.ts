import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres } from '../db/dialect';
import type { Bid } from '../../src/protocol/socket';
import { runAtCommit, type Queryable } from '../db/write';

/**
 * What one server process tells the others that serve the same kingdom. Each event is small: it
 * names rows by id, and each other process reads the rows after and announces them to its own
 * sockets (server/cluster/relay.ts); a group's bids come whole, so the busiest event needs no read.
 * With SQLite there is one process and nothing is sent.
 */
/** An account's balance and reserved points as a commit left them: [userId, balance, reserved]. */
export type Balance = [number, number, number];

/** The balances of these users' rows, for an event. */
export function balancesOf(users: Iterable<{ id: number; balance: number; reserved: number }>): Balance[] {
  return [...users].map((u) => [u.id, u.balance, u.reserved]);
}

/**
 * One accepted bid, as a 'bids' event carries it: the bid as its bidder is told it (with the item's
 * and the bidder's names), so no process reads a row to tell it.
 */
export interface BidEvent {
  /** The bid, as BID_CREATED tells it in full (its reserveMet included). */
  w: Bid;
  /** The bidder, and the item (the wire's itemId may be a client's string: this is the row's). */
  by: number;
  i: number;
  outbid: number | null;
  u: Balance[];
  /** A sealed item's bid: the item's bid count after it (the bid is told masked to all but its bidder). */
  s?: number;
}

/** A player's max as their own MAX_BID tells it (u: the player, i: the item, m: the max, l: leading, r: why it was dropped). */
export interface MaxNotice {
  mx: { u: number; i: number; m: number; l: boolean; r?: 'balance' };
}

export type ClusterEvent =
  /**
   * Bids were accepted, by one group commit, in order (for each: BID_CREATED to everyone, OUTBID to
   * the outbid leader, both balances), with the MAX_BID frames of the maxima set or dropped among them.
   */
  | { k: 'bids'; b: (BidEvent | MaxNotice)[] }
  /** An item went live (BIDDING_STARTED). */
  | { k: 'start'; item: number; at: number }
  /** An item ended and was settled: a sale (WINNER, SALE_COMPLETED) or none (NO_BUYER). */
  | { k: 'settle'; item: number; u: Balance[] }
  /** A live item was cancelled (ITEM_CANCELLED). */
  | { k: 'cancel'; item: number }
  /** The store opened or closed (STORE_STATE with every live item's end). */
  | { k: 'store'; at: number }
  /** These accounts' balances or reserved points changed (as the commit left them, so every process tells the same sequence). */
  | { k: 'users'; u: Balance[] }
  /** Many accounts changed (a bulk award): every process re-reads the ones it has sockets for. */
  | { k: 'all-users' }
  /** The schedule may have an earlier start or end (an item created or edited): the scheduler's leader re-arms. */
  | { k: 'schedule' }
  /** Sessions were revoked (logout, password change, an account disabled or signed out everywhere): their sockets close everywhere at once. */
  | { k: 'revoked'; s: string[] }
  /** An account's rank changed: its connections see the new row, its user sockets get STATUS. */
  | { k: 'account'; user: number }
  /** Notices were made (ids): each process sends NOTICE to the accounts with sockets there. */
  | { k: 'notices'; n: number[] };

/** PostgreSQL's channel for the kingdom's events. */
export const CHANNEL = 'kingdom_events';

/** This process, as its events name it (for the logs: each process tells its sockets of its own events as of the others'). */
export const ORIGIN = `${process.pid}.${randomBytes(4).toString('hex')}`;

/** Above this many ids, one `all-users` is sent instead (a NOTIFY payload stays far below its 8,000 bytes). */
const MAX_IDS = 200;
/** Session ids (36 characters) one 'revoked' event carries; more go in several. */
export const MAX_SESSIONS = 100;

export interface Envelope {
  o: string;
  e: ClusterEvent;
}

/**
 * Sends `event` to the other processes. Inside a transaction (`db` is the transaction) it is
 * delivered when the transaction commits, in commit order, and never if it rolls back: a bid's
 * event is sent in its transaction, so every process hears a given item's bids in the order they
 * were committed. On SQLite it does nothing.
 */
export async function publish(db: Queryable, event: ClusterEvent): Promise<void> {
  if (!isPostgres(db)) return;
  const sent: ClusterEvent = event.k === 'users' && event.u.length > MAX_IDS ? { k: 'all-users' } : event;
  if (sent.k === 'users' && sent.u.length === 0) return;
  const payload = JSON.stringify({ o: ORIGIN, e: sent } satisfies Envelope);
  // in a write transaction: sent with its COMMIT, one round trip (the payload holds ids and numbers only)
  if (runAtCommit(db, `select pg_notify('${CHANNEL}', '${payload.replace(/'/g, "''")}')`)) return;
  await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(db);
}

/** A NOTIFY payload stays below this many bytes (PostgreSQL refuses 8,000; names may be Arabic, so bytes are counted, not characters). */
const PAYLOAD_MAX = 7000;

/** The statement that sends `event` with the COMMIT of a transaction run outside Kysely (values written in). */
function notifyStatement(event: ClusterEvent): string {
  const payload = JSON.stringify({ o: ORIGIN, e: event } satisfies Envelope);
  return `select pg_notify('${CHANNEL}', '${payload.replace(/'/g, "''")}')`;
}

/**
 * The statements that tell a group commit's accepted bids, in order: one 'bids' event, or a few
 * when one payload would pass NOTIFY's limit. They run with the group's COMMIT.
 */
export function bidsNotifications(bids: readonly (BidEvent | MaxNotice)[]): string[] {
  const statements: string[] = [];
  let chunk: (BidEvent | MaxNotice)[] = [];
  let size = 0;
  for (const bid of bids) {
    const length = Buffer.byteLength(JSON.stringify(bid)) + 1;
    if (chunk.length > 0 && size + length > PAYLOAD_MAX) {
      statements.push(notifyStatement({ k: 'bids', b: chunk }));
      chunk = [];
      size = 0;
    }
    chunk.push(bid);
    size += length;
  }
  if (chunk.length > 0) statements.push(notifyStatement({ k: 'bids', b: chunk }));
  return statements;
}

/** Reads an envelope; null for anything that is not one (another program on the channel). */
export function readEnvelope(payload: string | undefined): Envelope | null {
  if (!payload) return null;
  try {
    const parsed = JSON.parse(payload) as Partial<Envelope>;
    if (typeof parsed.o !== 'string' || !parsed.e || typeof parsed.e !== 'object' || typeof (parsed.e as { k?: unknown }).k !== 'string') return null;
    return parsed as Envelope;
  } catch {
    return null;
  }
}
