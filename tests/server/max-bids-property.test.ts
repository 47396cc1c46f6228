import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, expectBooksBalance, ManualClock, newRequestId } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';
import { TEST_SEED } from './seed';

/**
 * Maximum bids as a property: random maxima, manual bids and grants on several english items, sent
 * in bursts (each burst queued at once, so its maxima fire in the same group commits), against a
 * model that applies the written rules one request after the other (the queue's order is the
 * order of the calls). After each run the books balance and every balance, reservation, leader and
 * amount is the model's; at the end every winner paid exactly what the model says.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
const PLAYERS = 5;
const ITEMS = 3;
const START = 20;
const INC = 5;
const players: { id: number; username: string }[] = [];

interface ModelUser {
  balance: number;
  reserved: number;
}
interface ModelItem {
  leader: number | null;
  amount: number;
  live: boolean;
  /** user index → max (exhausted ones stay, they cannot bid) */
  maxima: Map<number, { max: number; seq: number; exhausted: boolean }>;
}

const model = { users: [] as ModelUser[], seq: 0 };

beforeAll(async () => {
  server = await startTestServer({ frameRateLimit: { perSecond: 10_000, burst: 10_000 } }, { now: clock.now });
  admin = await signedIn(server, 'admin');
  for (let i = 0; i < PLAYERS; i++) {
    const p = await signedIn(server, 'maxp');
    const row = await server.db.selectFrom('users').select('id').where('username', '=', p.username).executeTakeFirstOrThrow();
    players.push({ id: row.id, username: p.username });
    model.users.push({ balance: 0, reserved: 0 });
  }
});
afterAll(() => server.close());

const avail = (u: number, item: ModelItem) => model.users[u].balance - model.users[u].reserved + (item.leader === u ? item.amount : 0);
const next = (item: ModelItem) => (item.leader === null ? START : item.amount + INC);

/** An accepted bid of `amount` by `u`: the old leader's points released, the new lead reserved. */
function lead(item: ModelItem, u: number, amount: number): void {
  if (item.leader !== null) model.users[item.leader].reserved -= item.amount;
  model.users[u].reserved += amount;
  item.leader = u;
  item.amount = amount;
}

/** The maxima answer, as written: the highest max (the first set on a tie) leads at the lower max plus the increment, the next minimum at least, its own max at most; one it cannot cover is dropped. */
function answer(item: ModelItem): void {
  for (;;) {
    const able = [...item.maxima.entries()]
      .filter(([u, m]) => !m.exhausted && (u === item.leader || m.max >= next(item)))
      .map(([u, m]) => ({ u, value: u === item.leader ? Math.max(m.max, item.amount) : m.max, seq: m.seq }));
    if (able.length === 0) break;
    if (item.leader !== null && !able.some((c) => c.u === item.leader)) able.push({ u: item.leader, value: item.amount, seq: -1 });
    able.sort((a, b) => b.value - a.value || a.seq - b.seq);
    const [top, second] = able;
    let price: number;
    if (top.u === item.leader) {
      if (!second) break;
      price = Math.min(top.value, second.value + INC);
      if (price <= item.amount) break;
    } else price = second ? Math.max(next(item), Math.min(top.value, second.value + INC)) : next(item);
    if (price > avail(top.u, item)) {
      item.maxima.delete(top.u);
      continue;
    }
    lead(item, top.u, price);
  }
  for (const [u, m] of item.maxima) if (u !== item.leader && m.max < next(item)) m.exhausted = true;
}

function modelBid(item: ModelItem, u: number, amount: number): void {
  if (!item.live || amount < next(item) || amount > avail(u, item)) return;
  lead(item, u, amount);
  answer(item);
}

function modelMax(item: ModelItem, u: number, max: number): void {
  if (!item.live) return;
  if (max === 0) {
    item.maxima.delete(u);
    return;
  }
  if (max < next(item) || max > avail(u, item)) return;
  item.maxima.set(u, { max, seq: ++model.seq, exhausted: false });
  answer(item);
}

type Op = { kind: 'bid' | 'max'; user: number; item: number; amount: number } | { kind: 'grant'; user: number; amount: number };
const user = fc.nat(PLAYERS - 1);
const itemIndex = fc.nat(ITEMS - 1);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('bid' as const), user, item: itemIndex, amount: fc.integer({ min: 1, max: 400 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('max' as const), user, item: itemIndex, amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 600 })) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('grant' as const), user, amount: fc.integer({ min: 1, max: 300 }) }) },
);

describe('maximum bids (property)', () => {
  it('several items, bursts of maxima and bids, grants: the engine does what the rules say, keeps the books and pays each winner the right price', async () => {
    const audit = server.auction.auditEarlyRefusals();
    let sold = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 5 }), async (bursts) => {
        const ids: number[] = [];
        const items: ModelItem[] = [];
        for (let i = 0; i < ITEMS; i++) {
          ids.push((await createItem(server, admin.token, { start_price: START, minIncrement: INC, duration: 3600, extendWindow: 0, maxExtensions: 0 })).itemId);
          items.push({ leader: null, amount: START, live: true, maxima: new Map() });
        }
        for (const burst of bursts) {
          // a burst: every request queued at once, in this order; grants first, awaited (they are not bids)
          for (const o of burst) {
            if (o.kind !== 'grant') continue;
            const answer = await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: players[o.user].username, delta: o.amount, reason: 'grant' } });
            expect(answer.status).toBe(200);
            model.users[o.user].balance += o.amount;
          }
          const sent: Promise<unknown>[] = [];
          for (const o of burst) {
            if (o.kind === 'grant') continue;
            const who = { id: players[o.user].id };
            const request = { itemId: ids[o.item], requestId: newRequestId() };
            if (o.kind === 'bid') {
              sent.push(server.auction.createBid(who, { ...request, amount: o.amount }));
              modelBid(items[o.item], o.user, o.amount);
            } else {
              sent.push(server.auction.setMaxBid(who, { ...request, max: o.amount }));
              modelMax(items[o.item], o.user, o.amount);
            }
          }
          await Promise.all(sent);
        }
        await server.auction.exclusive(async () => undefined);
        await expectBooksBalance(server.db);
        for (let i = 0; i < ITEMS; i++) {
          const row = await server.db.selectFrom('items').select(['leader_id', 'amount']).where('id', '=', ids[i]).executeTakeFirstOrThrow();
          expect({ leader: row.leader_id, amount: row.amount }, `item ${i}`).toEqual({ leader: items[i].leader === null ? null : players[items[i].leader as number].id, amount: items[i].amount });
        }
        for (let u = 0; u < PLAYERS; u++) {
          const row = await server.db.selectFrom('users').select(['balance', 'reserved']).where('id', '=', players[u].id).executeTakeFirstOrThrow();
          expect(row, `player ${u}`).toEqual(model.users[u]);
        }
        // the end: each winner pays its lead, nothing stays reserved
        clock.advance(3_700_000);
        await server.auction.tick();
        await server.auction.idle();
        for (let i = 0; i < ITEMS; i++) {
          const item = items[i];
          item.live = false;
          const sale = await server.db.selectFrom('sales').select(['user_id', 'amount']).where('item_id', '=', ids[i]).executeTakeFirst();
          if (item.leader === null) {
            expect(sale).toBeUndefined();
            continue;
          }
          expect(sale).toEqual({ user_id: players[item.leader].id, amount: item.amount });
          model.users[item.leader].balance -= item.amount;
          model.users[item.leader].reserved -= item.amount;
          sold += 1;
        }
        await expectBooksBalance(server.db);
        const check = await call(server, 'GET', '/points/ledger-check', { token: admin.token });
        expect(check.body).toMatchObject({ result: true, ok: true, mismatches: [] });
      }),
      { numRuns: 20, seed: TEST_SEED },
    );
    expect(sold).toBeGreaterThan(0);
    await Promise.all(audit.pending);
    expect(audit.mismatches).toEqual([]);
    // automatic bids were made
    const auto = await server.db.selectFrom('bids').select((eb) => eb.fn.countAll<number>().as('n')).where('auto', '=', 1).executeTakeFirstOrThrow();
    expect(Number(auto.n)).toBeGreaterThan(0);
  }, 240_000);
});
