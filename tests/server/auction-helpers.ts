import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../server/db/open';
import type { ServerDeps } from '../../server/app';
import type { Config } from '../../server/config';
import type { StoreItem } from '../../src/protocol/store';
import { authedSocket, call, signedIn, startTestServer, type TestSocket } from './helpers';
import { randomSuffix } from './seed';

type Server = { httpUrl: string; auctionUrl: string; userUrl: string; db: Db };

/** A clock the test moves by hand; the engine's timers are armed from it, tests call auction.tick(). */
export class ManualClock {
  t = Date.now();
  /** The next reading throws (an unexpected failure inside the engine). */
  failNext = false;
  readonly now = (): number => {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the clock broke');
    }
    return this.t;
  };
  advance(ms: number): void {
    this.t += ms;
  }
}

export const itemBody = (overrides: Record<string, unknown> = {}) => ({
  itemName: 'Golden Sword',
  start_price: 100,
  minIncrement: 10,
  duration: 600,
  extendWindow: 0,
  maxExtensions: 0,
  ...overrides,
});

export async function createItem(server: Server, token: string, overrides: Record<string, unknown> = {}): Promise<StoreItem> {
  const answer = await call(server, 'POST', '/store/items', { token, body: itemBody(overrides) });
  if (answer.status !== 200) throw new Error(`create item failed: ${answer.text}`);
  return answer.body.item as StoreItem;
}

export async function grant(server: Server, token: string, username: string, delta: number): Promise<void> {
  const answer = await call(server, 'POST', '/points/transactions', { token, body: { username, delta, reason: 'test points' } });
  if (answer.status !== 200) throw new Error(`grant failed: ${answer.text}`);
}

export interface Bidder {
  id: number;
  username: string;
  token: string;
  /** Auction socket, HISTORY already taken. */
  auction: TestSocket;
  /** User socket, STATUS already taken. */
  user: TestSocket;
}

/** A signed-in player with `points`, both sockets authenticated and their first frames taken. */
export async function bidder(server: Server, adminToken: string, points: number, prefix = 'bidder'): Promise<Bidder> {
  const account = await signedIn(server, prefix);
  if (points) await grant(server, adminToken, account.username, points);
  const auction = await authedSocket(server.auctionUrl, account.token);
  await auction.nextOf('HISTORY');
  const user = await authedSocket(server.userUrl, account.token);
  user.send({ type: 'GET_STATUS' });
  await user.nextOf('STATUS');
  const row = await server.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
  return { id: row.id, username: account.username, token: account.token, auction, user };
}

let requestCounter = 0;
export const newRequestId = () => `req-${++requestCounter}-${randomSuffix(6)}`;

export function sendBid(socket: TestSocket, itemId: number, amount: unknown, requestId = newRequestId()): string {
  socket.send({ type: 'CREATE_BID', data: { itemId, amount, requestId } });
  return requestId;
}

/** The BID_CREATED of this bidder's bid (matched on item, amount and name). */
export function bidCreated(socket: TestSocket, itemId: number, amount: number, username: string, ms?: number) {
  return socket.waitFor((f) => {
    const d = f.data as { itemId?: number; amount?: number; username?: string } | undefined;
    return f.type === 'BID_CREATED' && d?.itemId === itemId && d.amount === amount && d.username === username;
  }, ms);
}

/** The ERROR answering this request. */
export function errorFor(socket: TestSocket, requestId: string, ms?: number) {
  return socket.waitFor((f) => f.type === 'ERROR' && (f.data as { requestId?: string } | undefined)?.requestId === requestId, ms);
}

export async function itemRow(db: Db, id: number) {
  return db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function userRow(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function counts(db: Db) {
  const bids = await db.selectFrom('bids').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const sales = await db.selectFrom('sales').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const ledger = await db.selectFrom('points_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { bids: Number(bids.n), sales: Number(sales.n), ledger: Number(ledger.n) };
}

/**
 * The invariants that must hold at every moment: each balance equals its ledger's sum, each
 * reserved equals the sum of the amounts the user leads on live english items and their standing
 * bids on live sealed items, and no one's reserved
 * exceeds their balance.
 */
export async function expectBooksBalance(db: Db): Promise<void> {
  const ledger = await sql<{ id: number; balance: number; sum: number }>`
    select u.id, u.balance, coalesce(sum(t.delta), 0) as sum
    from users u left join points_transactions t on t.user_id = u.id group by u.id`.execute(db);
  for (const row of ledger.rows) expect(row.balance, `balance of user ${row.id}`).toBe(row.sum);
  const reserved = await sql<{ id: number; reserved: number; leading: number; balance: number }>`
    select u.id, u.reserved, u.balance,
      coalesce((select sum(i.amount) from items i where i.leader_id = u.id and i.state = 'live' and i.format = 'english'), 0)
      + coalesce((select sum(m.own) from (select max(b.amount) as own from bids b join items i on i.id = b.item_id
          where b.user_id = u.id and i.state = 'live' and i.format <> 'english' group by b.item_id) as m), 0) as leading
    from users u`.execute(db);
  for (const row of reserved.rows) {
    expect(row.reserved, `reserved of user ${row.id}`).toBe(row.leading);
    expect(row.reserved, `reserved within balance of user ${row.id}`).toBeLessThanOrEqual(row.balance);
  }
}

/**
 * A server for the auction's tests on `clock`: frames and sign-ins not rate-limited, reactions run
 * at each commit only (no timed poll: only this process writes, and each pass reads the clock);
 * its first account is the admin, and a watcher with no points listens to the auction socket.
 */
export async function auctionTestServer(clock: ManualClock, overrides: Partial<Config> = {}, deps: ServerDeps = {}) {
  const server = await startTestServer(
    {
      frameRateLimit: { perSecond: 1000, burst: 1000 },
      loginRateLimit: { perEmail: 100, perAddress: 10_000, windowMs: 60_000 },
      reactions: { pollMs: 3_600_000, keepDays: 30, paused: false },
      // the notices' passes read the engine's clock too (on PostgreSQL each pass does): a timed pass
      // could take a reading a test meant for a bid (ManualClock.failNext), so they run when woken
      notices: { pollMs: 3_600_000 },
      ...overrides,
    },
    { now: clock.now, ...deps },
  );
  const admin = await signedIn(server, 'admin');
  const watcher = await bidder(server, admin.token, 0, 'watcher');
  return { server, admin, watcher };
}

/** SET_MAX_BID on the player's socket; the MAX_BID their tabs get, or the ERROR naming the requestId. */
export async function setMax(who: Bidder, itemId: number, max: unknown, requestId = newRequestId()) {
  who.auction.send({ type: 'SET_MAX_BID', data: { itemId, max, requestId } });
  return who.auction.waitFor((f) => (f.type === 'MAX_BID' && (f.data as { itemId: number }).itemId === itemId) || (f.type === 'ERROR' && (f.data as { requestId?: string } | undefined)?.requestId === requestId));
}
