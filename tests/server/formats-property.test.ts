import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemFormat } from '../../src/protocol/socket';
import { createItem, expectBooksBalance, ManualClock, newRequestId } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';
import { TEST_SEED } from './seed';
import { onPostgres } from './test-database';

/**
 * The auction formats as a property: whatever mix of bids (english with a reserve or a buy-now
 * price, sealed first- and second-price), grants, deducts, cancellations and ends runs at once,
 * the books balance, every early refusal is the transaction's answer, and every finished item was
 * sold, or not, to whom and at the price its rules say, read back from its bids alone.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
const players: { id: number; username: string }[] = [];
const PLAYERS = 4;
const ITEMS_PER_RUN = 3;

beforeAll(async () => {
  server = await startTestServer({}, { now: clock.now });
  admin = await signedIn(server, 'admin');
  for (let i = 0; i < PLAYERS; i++) {
    const p = await signedIn(server, 'fmt');
    const row = await server.db.selectFrom('users').select('id').where('username', '=', p.username).executeTakeFirstOrThrow();
    players.push({ id: row.id, username: p.username });
    await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: p.username, delta: 1_500, reason: 'start' } });
  }
});
afterAll(() => server.close());

type Op =
  | { kind: 'grant' | 'deduct'; user: number; amount: number; delay: number }
  | { kind: 'bid'; user: number; item: number; amount: number; delay: number }
  | { kind: 'settle'; seconds: number; delay: number }
  | { kind: 'cancel'; item: number; delay: number };

const user = fc.nat(PLAYERS - 1);
const item = fc.nat(ITEMS_PER_RUN - 1);
const delay = fc.integer({ min: 0, max: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('grant' as const), user, amount: fc.integer({ min: 1, max: 600 }), delay }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deduct' as const), user, amount: fc.integer({ min: 1, max: 600 }), delay }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('bid' as const), user, item, amount: fc.integer({ min: 1, max: 900 }), delay }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), seconds: fc.integer({ min: 1, max: 200 }), delay }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), item, delay }) },
);

const itemRules = fc.record({
  format: fc.constantFrom<ItemFormat>('english', 'sealed-first', 'sealed-second'),
  duration: fc.integer({ min: 20, max: 400 }),
  reserve: fc.option(fc.integer({ min: 10, max: 600 }), { nil: undefined }),
  buyNow: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
});

async function after(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
const BID_ANSWERS = new Set(['BID_OPEN_ERROR', 'BID_AMOUNT_ERROR', 'OUT_OF_BALANCE', 'UNKNOWN_ITEM']);

async function run(o: Op, itemIds: number[]): Promise<void> {
  await after(o.delay);
  switch (o.kind) {
    case 'grant':
    case 'deduct': {
      const delta = o.kind === 'grant' ? o.amount : -o.amount;
      const answer = await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: players[o.user].username, delta, reason: o.kind } });
      expect([200, 409]).toContain(answer.status);
      return;
    }
    case 'bid': {
      const answer = await server.auction.createBid({ id: players[o.user].id }, { itemId: itemIds[o.item], amount: o.amount, requestId: newRequestId() });
      if (answer) expect(BID_ANSWERS, JSON.stringify(answer)).toContain((answer as { error_type?: string }).error_type);
      return;
    }
    case 'settle':
      clock.advance(o.seconds * 1000);
      await server.auction.tick();
      return;
    case 'cancel': {
      const answer = await call(server, 'POST', `/store/items/${itemIds[o.item]}/cancel`, { token: admin.token });
      expect([200, 409]).toContain(answer.status);
      return;
    }
  }
}

/** What a finished item's bids say it sold for, to whom: null when nothing was sold. */
async function expectedSale(itemId: number): Promise<{ userId: number; amount: number } | null> {
  const item = await server.db.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirstOrThrow();
  const bids = await server.db.selectFrom('bids').select(['id', 'user_id', 'amount']).where('item_id', '=', itemId).orderBy('id').execute();
  if (bids.length === 0) return null;
  if (item.format === 'english') {
    // bids only rise: the last is the highest and the leader's; a buy-now bid is stored at its price
    const last = bids[bids.length - 1];
    for (let i = 1; i < bids.length; i++) expect(bids[i].amount).toBeGreaterThanOrEqual(bids[i - 1].amount + (bids[i].amount === item.buy_now_price ? 1 : item.min_increment));
    if (item.buy_now_price !== null) expect(bids.filter((b) => b.amount >= (item.buy_now_price as number)).length).toBeLessThanOrEqual(1);
    if (item.reserve_price !== null && last.amount < item.reserve_price) return null;
    return { userId: last.user_id, amount: last.amount };
  }
  // sealed: each player's standing bid is their last (raises only); the highest wins, the earlier on a tie
  const standing = new Map<number, { amount: number; id: number }>();
  for (const b of bids) {
    const before = standing.get(b.user_id);
    if (before) expect(b.amount).toBeGreaterThanOrEqual(before.amount + item.min_increment);
    standing.set(b.user_id, { amount: b.amount, id: b.id });
  }
  const ranked = [...standing.entries()].sort((a, b) => b[1].amount - a[1].amount || a[1].id - b[1].id);
  const [winnerId, top] = ranked[0];
  if (item.reserve_price !== null && top.amount < item.reserve_price) return null;
  if (item.format === 'sealed-first') return { userId: winnerId, amount: top.amount };
  const base = ranked.length > 1 ? ranked[1][1].amount + item.min_increment : item.start_price;
  return { userId: winnerId, amount: Math.min(top.amount, Math.max(base, item.reserve_price ?? 0)) };
}

describe('auction formats (property)', () => {
  it('sell as their rules say, keep the books, and refuse early only as the transaction would', async () => {
    const audit = server.auction.auditEarlyRefusals();
    const all: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), fc.array(itemRules, { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }), async (ops, rules) => {
        const itemIds: number[] = [];
        for (const r of rules) {
          const start = 10;
          const reserve = r.reserve;
          const buyNow = r.format === 'english' && r.buyNow !== undefined ? Math.max(r.buyNow, reserve ?? start, start) : undefined;
          const created = await createItem(server, admin.token, {
            duration: r.duration,
            start_price: start,
            minIncrement: 5,
            extendWindow: 10,
            maxExtensions: 2,
            format: r.format,
            ...(reserve === undefined ? {} : { reservePrice: reserve }),
            ...(buyNow === undefined ? {} : { buyNowPrice: buyNow }),
          });
          itemIds.push(created.itemId);
        }
        all.push(...itemIds);
        await Promise.all(ops.map((o) => run(o, itemIds)));
        await server.auction.exclusive(async () => undefined);
        await expectBooksBalance(server.db);
        const check = await call(server, 'GET', '/points/ledger-check', { token: admin.token });
        expect(check.body).toMatchObject({ result: true, ok: true, mismatches: [] });
      }),
      { numRuns: 25, seed: TEST_SEED },
    );
    // everything ends and settles: nothing stays reserved, and each item sold as its bids say
    clock.advance(3_600_000);
    await server.auction.tick();
    await server.auction.idle();
    await expectBooksBalance(server.db);
    const reserved = await server.db.selectFrom('users').select((eb) => eb.fn.sum<number>('reserved').as('r')).executeTakeFirstOrThrow();
    expect(Number(reserved.r)).toBe(0);
    let sold = 0;
    for (const itemId of all) {
      const item = await server.db.selectFrom('items').select(['state']).where('id', '=', itemId).executeTakeFirstOrThrow();
      const sale = await server.db.selectFrom('sales').select(['user_id', 'amount']).where('item_id', '=', itemId).executeTakeFirst();
      if (item.state === 'cancelled') {
        expect(sale).toBeUndefined();
        continue;
      }
      expect(item.state).toBe('finished');
      const expected = await expectedSale(itemId);
      expect(sale ? { userId: sale.user_id, amount: sale.amount } : null, `item ${itemId}`).toEqual(expected);
      if (sale) sold += 1;
    }
    expect(sold).toBeGreaterThan(0);
    await Promise.all(audit.pending);
    expect(audit.mismatches).toEqual([]);
    // (several processes may share PostgreSQL: there the picture refuses early only what no process can undo, rarely in this mix)
    if (!onPostgres) expect(audit.checked).toBeGreaterThan(0);
  }, 180_000);
});
