import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PRICE } from '../../src/protocol/store';
import { addToGroup } from '../../server/auction/groups';
import {
  auctionTestServer,
  bidCreated,
  bidder,
  counts,
  createItem,
  errorFor,
  expectBooksBalance,
  grant,
  itemRow,
  ManualClock,
  newRequestId,
  sendBid,
  userRow,
  type Bidder,
} from './auction-helpers';
import { authedSocket, call } from './helpers';
import { failInserts, onPostgres } from './test-database';

const clock = new ManualClock();
let server: Awaited<ReturnType<typeof auctionTestServer>>['server'];
let admin: Awaited<ReturnType<typeof auctionTestServer>>['admin'];
let watcher: Bidder;

beforeAll(async () => {
  ({ server, admin, watcher } = await auctionTestServer(clock));
});
afterAll(() => server.close());

const error = (error_type: string, itemId: number, requestId: string) => ({ type: 'ERROR', error_type, data: { itemId, requestId } });

/** Sends a bid and returns the ERROR it got. */
async function rejected(who: Bidder, itemId: number, amount: unknown) {
  const requestId = sendBid(who.auction, itemId, amount);
  return { requestId, answer: await errorFor(who.auction, requestId) };
}

/** The rows a rejected bid must not touch. */
async function snapshot(itemId: number, ...users: Bidder[]) {
  return { item: await itemRow(server.db, itemId), users: await Promise.all(users.map((u) => userRow(server.db, u.id))), bids: (await counts(server.db)).bids };
}

describe('accepted bids', () => {
  it('the first bid may be the start price: BID_CREATED to everyone after the commit, points reserved, VIRTUAL_BALANCE_UPDATE', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    expect(item).toMatchObject({ state: 'live', amount: 100, username: 'server' });

    sendBid(alice.auction, item.itemId, 100);
    const created = await bidCreated(alice.auction, item.itemId, 100, alice.username);
    expect(created).toEqual({
      type: 'BID_CREATED',
      data: { itemId: item.itemId, itemName: 'Golden Sword', amount: 100, username: alice.username, timer: 600, timestamp: clock.t, endsAt: item.endsAt, extensions: 0 },
    });
    // the same frame reached another player
    expect(await bidCreated(watcher.auction, item.itemId, 100, alice.username)).toEqual(created);
    expect(await alice.user.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 1_000, reserved: 100, available: 900 } });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 100, state: 'live' });
    await expectBooksBalance(server.db);
  });

  it('a later bid needs amount + minIncrement: an equal bid loses; the outbid player gets OUTBID and their points back', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 25 });
    sendBid(alice.auction, item.itemId, 150);
    await bidCreated(alice.auction, item.itemId, 150, alice.username);
    await alice.user.nextOf('VIRTUAL_BALANCE_UPDATE');

    const before = await snapshot(item.itemId, alice, bob);
    for (const amount of [150, 174]) {
      const { requestId, answer } = await rejected(bob, item.itemId, amount);
      expect(answer).toEqual(error('BID_AMOUNT_ERROR', item.itemId, requestId));
    }
    expect(await snapshot(item.itemId, alice, bob)).toEqual(before);

    sendBid(bob.auction, item.itemId, 175);
    const created = await bidCreated(bob.auction, item.itemId, 175, bob.username);
    expect(await alice.auction.nextOf('OUTBID')).toEqual({ type: 'OUTBID', data: created.data });
    expect(await alice.user.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 1_000, reserved: 0, available: 1_000 } });
    expect(await bob.user.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 1_000, reserved: 175, available: 825 } });
    // OUTBID goes to the one outbid only
    expect(bob.auction.drain().some((f) => f.type === 'OUTBID')).toBe(false);
    expect(watcher.auction.drain().some((f) => f.type === 'OUTBID')).toBe(false);
    await expectBooksBalance(server.db);
  });

  it('a leader raising their own bid counts their lead as free: reserved is the new amount, not the sum', async () => {
    const carol = await bidder(server, admin.token, 500);
    const item = await createItem(server, admin.token, { start_price: 300, minIncrement: 100 });
    sendBid(carol.auction, item.itemId, 300);
    await bidCreated(carol.auction, item.itemId, 300, carol.username);
    sendBid(carol.auction, item.itemId, 500);
    await bidCreated(carol.auction, item.itemId, 500, carol.username);
    expect(await userRow(server.db, carol.id)).toMatchObject({ balance: 500, reserved: 500 });
    expect(carol.auction.drain().some((f) => f.type === 'OUTBID')).toBe(false);
    const { requestId, answer } = await rejected(carol, item.itemId, 600);
    expect(answer).toEqual(error('OUT_OF_BALANCE', item.itemId, requestId));
    await expectBooksBalance(server.db);
  });
});

describe('rejected bids change nothing', () => {
  let dave: Bidder;
  let itemId: number;
  beforeAll(async () => {
    dave = await bidder(server, admin.token, 1_000);
    ({ itemId } = await createItem(server, admin.token, { start_price: 10, minIncrement: 5 }));
  });

  it.each([
    ['a fraction', 50.5],
    ['zero', 0],
    ['a negative amount', -50],
    ['more than MAX_PRICE', MAX_PRICE + 1],
    ['an unsafe integer', 2 ** 60],
    ['a string', '50'],
    ['null', null],
    ['a boolean', true],
    ['an object', { points: 50 }],
  ])('BID_AMOUNT_ERROR for %s', async (_name, amount) => {
    const before = await snapshot(itemId, dave);
    const { requestId, answer } = await rejected(dave, itemId, amount);
    expect(answer).toEqual(error('BID_AMOUNT_ERROR', itemId, requestId));
    expect(await snapshot(itemId, dave)).toEqual(before);
  });

  it('BID_AMOUNT_ERROR for a missing amount and for 1e400 (Infinity once parsed)', async () => {
    const before = await snapshot(itemId, dave);
    dave.auction.send({ type: 'CREATE_BID', data: { itemId, requestId: 'no-amount' } });
    expect(await errorFor(dave.auction, 'no-amount')).toEqual(error('BID_AMOUNT_ERROR', itemId, 'no-amount'));
    dave.auction.send(`{"type":"CREATE_BID","data":{"itemId":${itemId},"amount":1e400,"requestId":"infinite"}}`);
    expect(await errorFor(dave.auction, 'infinite')).toEqual(error('BID_AMOUNT_ERROR', itemId, 'infinite'));
    expect(await snapshot(itemId, dave)).toEqual(before);
  });

  it('BID_AMOUNT_ERROR below the start price', async () => {
    const { requestId, answer } = await rejected(dave, itemId, 9);
    expect(answer).toEqual(error('BID_AMOUNT_ERROR', itemId, requestId));
  });

  it('UNKNOWN_ITEM for an item that does not exist', async () => {
    const before = await counts(server.db);
    const { requestId, answer } = await rejected(dave, 987_654, 50);
    expect(answer).toEqual(error('UNKNOWN_ITEM', 987_654, requestId));
    expect(await counts(server.db)).toEqual(before);
  });

  it('OUT_OF_BALANCE when the available points (balance − reserved) do not cover the bid', async () => {
    const erin = await bidder(server, admin.token, 300);
    const other = await createItem(server, admin.token, { start_price: 200 });
    sendBid(erin.auction, other.itemId, 200);
    await bidCreated(erin.auction, other.itemId, 200, erin.username);
    const before = await snapshot(itemId, erin);
    const { requestId, answer } = await rejected(erin, itemId, 101); // 100 available
    expect(answer).toEqual(error('OUT_OF_BALANCE', itemId, requestId));
    expect(await snapshot(itemId, erin)).toEqual(before);
    sendBid(erin.auction, itemId, 100);
    await bidCreated(erin.auction, itemId, 100, erin.username);
    expect(await userRow(server.db, erin.id)).toMatchObject({ balance: 300, reserved: 300 });
    await expectBooksBalance(server.db);
  });

  it('BID_OPEN_ERROR on a scheduled, a cancelled and a finished item, and on a live one whose end has passed', async () => {
    const scheduled = await createItem(server, admin.token, { startsAt: clock.t + 3_600_000 });
    expect(scheduled.state).toBe('scheduled');
    const cancelled = await createItem(server, admin.token);
    await call(server, 'POST', `/store/items/${cancelled.itemId}/cancel`, { token: admin.token });
    const ending = await createItem(server, admin.token, { duration: 10 });
    clock.advance(10_000); // its end has passed; the scheduler has not run yet
    for (const id of [scheduled.itemId, cancelled.itemId, ending.itemId]) {
      const before = await snapshot(id, dave);
      const { requestId, answer } = await rejected(dave, id, 500);
      expect(answer).toEqual(error('BID_OPEN_ERROR', id, requestId));
      expect(await snapshot(id, dave)).toEqual(before);
    }
    await server.auction.tick();
    expect((await itemRow(server.db, ending.itemId)).state).toBe('finished');
    const { requestId, answer } = await rejected(dave, ending.itemId, 500);
    expect(answer).toEqual(error('BID_OPEN_ERROR', ending.itemId, requestId));
  });

  it('BID_NOT_ALLOWED by rank and by group; the group check reads the membership at bid time', async () => {
    const council = await bidder(server, admin.token, 1_000, 'council');
    await call(server, 'POST', `/admin/users/${council.username}/rank`, { token: admin.token, body: { rank: 'council' } });
    const byRank = await createItem(server, admin.token, { eligibility: { ranks: ['council', 'admin'] } });
    const byGroup = await createItem(server, admin.token, { eligibility: { groups: ['Vanguard'] } });

    for (const id of [byRank.itemId, byGroup.itemId]) {
      const before = await snapshot(id, dave);
      const { requestId, answer } = await rejected(dave, id, 100);
      expect(answer).toEqual(error('BID_NOT_ALLOWED', id, requestId));
      expect(await snapshot(id, dave)).toEqual(before);
    }
    sendBid(council.auction, byRank.itemId, 100);
    await bidCreated(council.auction, byRank.itemId, 100, council.username);

    await addToGroup(server.db, dave.id, 'vanguard'); // names compare without regard to case
    sendBid(dave.auction, byGroup.itemId, 100);
    await bidCreated(dave.auction, byGroup.itemId, 100, dave.username);
  });
});

describe('idempotent requestId', () => {
  it('the same requestId twice gets the same answer and makes one bid', async () => {
    const frank = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token);
    const requestId = sendBid(frank.auction, item.itemId, 200);
    const first = await bidCreated(frank.auction, item.itemId, 200, frank.username);
    await frank.user.nextOf('VIRTUAL_BALANCE_UPDATE');
    // the watcher's copy of the bid too (on PostgreSQL it may come after the bidder's), before the slate is wiped
    await bidCreated(watcher.auction, item.itemId, 200, frank.username);
    watcher.auction.drain();
    frank.auction.drain();
    const before = await counts(server.db);

    sendBid(frank.auction, item.itemId, 200, requestId);
    expect(await frank.auction.next()).toEqual(first);
    // a different amount under the same requestId still gets the first answer
    sendBid(frank.auction, item.itemId, 900, requestId);
    expect(await frank.auction.next()).toEqual(first);
    expect(await counts(server.db)).toEqual(before);
    expect(await userRow(server.db, frank.id)).toMatchObject({ reserved: 200 });
    // the echo is for the sender only, and moves no balance
    await server.auction.exclusive(async () => undefined);
    expect(await watcher.auction.roundTrip()).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    // (a notice may come meanwhile: the item ends within Frank's 'ending soon' lead; what must not come is a balance)
    expect((await frank.user.roundTrip({ type: 'GET_STATUS' }, (frame) => frame.type === 'NOTICE')).type).toBe('STATUS');
  });

  it('a rejected requestId stays rejected, even once the bid would pass', async () => {
    const gina = await bidder(server, admin.token, 50);
    const item = await createItem(server, admin.token, { start_price: 100 });
    const requestId = sendBid(gina.auction, item.itemId, 100);
    expect(await errorFor(gina.auction, requestId)).toEqual(error('OUT_OF_BALANCE', item.itemId, requestId));
    await grant(server, admin.token, gina.username, 1_000);
    sendBid(gina.auction, item.itemId, 100, requestId);
    expect(await errorFor(gina.auction, requestId)).toEqual(error('OUT_OF_BALANCE', item.itemId, requestId));
    expect((await itemRow(server.db, item.itemId)).leader_id).toBeNull();
  });

  it('requestIds are per user: another player may use the same one', async () => {
    const [hank, ivy] = await Promise.all([bidder(server, admin.token, 1_000), bidder(server, admin.token, 1_000)]);
    const item = await createItem(server, admin.token);
    sendBid(hank.auction, item.itemId, 100, 'shared-id');
    await bidCreated(hank.auction, item.itemId, 100, hank.username);
    sendBid(ivy.auction, item.itemId, 110, 'shared-id');
    await bidCreated(ivy.auction, item.itemId, 110, ivy.username);
  });
});

describe('soft close', () => {
  it('an accepted bid in the last extendWindow seconds moves the end to now + extendWindow, at most maxExtensions times; rejected bids never do', async () => {
    const [jack, kate] = await Promise.all([bidder(server, admin.token, 10_000), bidder(server, admin.token, 10_000)]);
    const item = await createItem(server, admin.token, { duration: 60, extendWindow: 10, maxExtensions: 2, start_price: 100, minIncrement: 10 });
    const end0 = item.endsAt;

    // outside the window: no extension
    clock.t = end0 - 30_000;
    sendBid(jack.auction, item.itemId, 100);
    expect((await bidCreated(jack.auction, item.itemId, 100, jack.username)).data).toMatchObject({ endsAt: end0, timer: 30 });

    // inside the window: a rejected bid (too low, too expensive) does not move it
    clock.t = end0 - 5_000;
    const low = await rejected(kate, item.itemId, 105);
    expect(low.answer.error_type).toBe('BID_AMOUNT_ERROR');
    const costly = await rejected(kate, item.itemId, 10_001);
    expect(costly.answer.error_type).toBe('OUT_OF_BALANCE');
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ ends_at: end0, extensions: 0 });

    // accepted: extended to now + 10 s
    sendBid(kate.auction, item.itemId, 110);
    const first = await bidCreated(kate.auction, item.itemId, 110, kate.username);
    expect(first.data).toMatchObject({ endsAt: clock.t + 10_000, timer: 10, timestamp: clock.t });
    const end1 = clock.t + 10_000;

    clock.t = end1 - 2_000;
    sendBid(jack.auction, item.itemId, 120);
    expect((await bidCreated(jack.auction, item.itemId, 120, jack.username)).data).toMatchObject({ endsAt: clock.t + 10_000 });
    const end2 = clock.t + 10_000;
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ ends_at: end2, extensions: 2 });

    // the third time in the window: accepted, but the end stays
    clock.t = end2 - 1_000;
    sendBid(kate.auction, item.itemId, 130);
    expect((await bidCreated(kate.auction, item.itemId, 130, kate.username)).data).toMatchObject({ endsAt: end2, timer: 1 });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ ends_at: end2, extensions: 2 });

    // a tick before the end does nothing; at the end the item settles to kate
    await server.auction.tick();
    expect((await itemRow(server.db, item.itemId)).state).toBe('live');
    clock.t = end2;
    await server.auction.tick();
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'finished', leader_id: kate.id, amount: 130 });
    await expectBooksBalance(server.db);
  });
});

describe('errors inside the engine', () => {
  it('DATABASE_ERROR when SQLite refuses the write; the transaction rolls back and a retry of the same requestId is a fresh attempt', async () => {
    const liam = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token);
    const allowBids = await failInserts(server.db, 'bids', 'disk says no');
    const before = await snapshot(item.itemId, liam);
    const requestId = sendBid(liam.auction, item.itemId, 100);
    expect(await errorFor(liam.auction, requestId)).toEqual(error('DATABASE_ERROR', item.itemId, requestId));
    expect(await snapshot(item.itemId, liam)).toEqual(before);
    await allowBids();
    sendBid(liam.auction, item.itemId, 100, requestId);
    await bidCreated(liam.auction, item.itemId, 100, liam.username);
  });

  it('SYSTEM_ERROR for anything unexpected, and nothing is stored', async () => {
    const mia = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token);
    const before = await snapshot(item.itemId, mia);
    const requestId = newRequestId();
    // what the item's start set going reads the clock first (its event told back, the reactions' pass)
    await server.auction.idle();
    await server.reactions.idle();
    clock.failNext = true;
    sendBid(mia.auction, item.itemId, 100, requestId);
    expect(await errorFor(mia.auction, requestId)).toEqual(error('SYSTEM_ERROR', item.itemId, requestId));
    expect(await snapshot(item.itemId, mia)).toEqual(before);
    expect(mia.auction.isOpen).toBe(true);
  });
});

describe('group commit', () => {
  it('bids that arrive in one turn commit in one transaction, each judged on the ones before it; a bid whose write fails is undone alone', async () => {
    const olga = await bidder(server, admin.token, 10_000);
    const pavel = await bidder(server, admin.token, 10_000);
    const shield = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const bow = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    // the bow's bid of 120 fails to write, as a full disk would make it
    const allow = await failInserts(server.db, 'bids', 'disk says no', `new.item_id = ${bow.itemId} and new.amount = 120`);
    await server.auction.idle();
    const before = server.auction.bidCommits;
    const id = (n: number) => `group-${n}-${newRequestId()}`;
    const requests = [
      { user: olga, itemId: shield.itemId, amount: 100, requestId: id(1) },
      { user: pavel, itemId: shield.itemId, amount: 105, requestId: id(2) }, // judged after olga's 100: below 110
      { user: pavel, itemId: shield.itemId, amount: 110, requestId: id(3) }, // outbids olga
      { user: olga, itemId: bow.itemId, amount: 120, requestId: id(4) }, // the write fails
      { user: pavel, itemId: bow.itemId, amount: 100, requestId: id(5) },
    ];
    // one turn: no await between them
    const answers = await Promise.all(requests.map((r) => server.auction.createBid({ id: r.user.id }, { itemId: r.itemId, amount: r.amount, requestId: r.requestId })));
    await allow();
    const after = server.auction.bidCommits;
    expect({ transactions: after.transactions - before.transactions, bids: after.bids - before.bids }).toEqual({ transactions: 1, bids: 5 });
    expect(answers).toEqual([
      null,
      error('BID_AMOUNT_ERROR', shield.itemId, requests[1].requestId),
      null,
      error('DATABASE_ERROR', bow.itemId, requests[3].requestId),
      null,
    ]);
    expect(await itemRow(server.db, shield.itemId)).toMatchObject({ leader_id: pavel.id, amount: 110 });
    expect(await itemRow(server.db, bow.itemId)).toMatchObject({ leader_id: pavel.id, amount: 100 });
    // the failed bid left nothing: no bid, no remembered answer, no points reserved for it
    const stored = await server.db.selectFrom('bid_requests').select('request_id').where('request_id', 'in', requests.map((r) => r.requestId)).execute();
    expect(stored.map((r) => r.request_id).sort()).toEqual([requests[0], requests[1], requests[2], requests[4]].map((r) => r.requestId).sort());
    expect((await userRow(server.db, olga.id)).reserved).toBe(0);
    expect((await userRow(server.db, pavel.id)).reserved).toBe(210);
    // everyone heard the accepted ones, in commit order
    await bidCreated(olga.auction, shield.itemId, 100, olga.username);
    await bidCreated(olga.auction, shield.itemId, 110, pavel.username);
    await bidCreated(olga.auction, bow.itemId, 100, pavel.username);
    await expectBooksBalance(server.db);
  });

  it.runIf(onPostgres)('on PostgreSQL a group takes two round trips however many bids it carries: its opening, then its writes with the commit', async () => {
    const sam = await bidder(server, admin.token, 10_000);
    const tia = await bidder(server, admin.token, 10_000);
    const items = [await createItem(server, admin.token), await createItem(server, admin.token), await createItem(server, admin.token)];
    await server.auction.idle();
    const roundTrips = async (bids: { who: Bidder; itemId: number; amount: number }[]) => {
      const before = server.auction.bidCommits;
      const answers = await Promise.all(bids.map((b) => server.auction.createBid({ id: b.who.id }, { itemId: b.itemId, amount: b.amount, requestId: newRequestId() })));
      const after = server.auction.bidCommits;
      return { answers, transactions: after.transactions - before.transactions, roundTrips: (after.roundTrips ?? 0) - (before.roundTrips ?? 0) };
    };
    // one bid alone
    expect(await roundTrips([{ who: sam, itemId: items[0].itemId, amount: 100 }])).toEqual({ answers: [null], transactions: 1, roundTrips: 2 });
    // five in one turn, one of them refused (below the increment): still two
    expect(
      await roundTrips([
        { who: tia, itemId: items[0].itemId, amount: 110 },
        { who: sam, itemId: items[0].itemId, amount: 115 },
        { who: sam, itemId: items[1].itemId, amount: 100 },
        { who: tia, itemId: items[1].itemId, amount: 110 },
        { who: sam, itemId: items[2].itemId, amount: 100 },
      ]),
    ).toEqual({ answers: [null, error('BID_AMOUNT_ERROR', items[0].itemId, expect.any(String)), null, null, null], transactions: 1, roundTrips: 2 });
    expect(await itemRow(server.db, items[1].itemId)).toMatchObject({ leader_id: tia.id, amount: 110 });
    expect((await userRow(server.db, sam.id)).reserved).toBe(100);
    expect((await userRow(server.db, tia.id)).reserved).toBe(220);
    await expectBooksBalance(server.db);
  });

  it.runIf(onPostgres)('on PostgreSQL a write that changes nothing fails the batched string; the group runs again the careful way and only that bid fails', async () => {
    const uma = await bidder(server, admin.token, 10_000);
    const cup = await createItem(server, admin.token);
    const jar = await createItem(server, admin.token);
    // the jar's row silently refuses every update (a trigger that returns null): its bid's accept updates no item
    const name = `skip_items_${jar.itemId}`;
    await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin return null; end $$`).execute(server.db);
    await sql.raw(`create trigger ${name} before update on items for each row when (new.id = ${jar.itemId}) execute function ${name}()`).execute(server.db);
    await server.auction.idle();
    const before = server.auction.bidCommits;
    const requests = [
      { itemId: cup.itemId, amount: 100, requestId: newRequestId() },
      { itemId: jar.itemId, amount: 100, requestId: newRequestId() },
    ];
    const answers = await Promise.all(requests.map((r) => server.auction.createBid({ id: uma.id }, r)));
    await sql.raw(`drop trigger ${name} on items`).execute(server.db);
    await sql.raw(`drop function ${name}()`).execute(server.db);
    const after = server.auction.bidCommits;
    expect(answers).toEqual([null, error('SYSTEM_ERROR', jar.itemId, requests[1].requestId)]);
    // batched: the opening, the string that failed, its rollback; careful: the opening, per bid a savepoint and a write, the rollback to the failed one's savepoint, the commit
    expect({ transactions: after.transactions - before.transactions, roundTrips: (after.roundTrips ?? 0) - (before.roundTrips ?? 0) }).toEqual({ transactions: 1, roundTrips: 3 + 7 });
    expect(await itemRow(server.db, cup.itemId)).toMatchObject({ leader_id: uma.id, amount: 100 });
    expect(await itemRow(server.db, jar.itemId)).toMatchObject({ leader_id: null });
    // the failed bid left nothing: no bid, no remembered answer, no points reserved for it
    expect(await server.db.selectFrom('bids').select('id').where('item_id', '=', jar.itemId).execute()).toEqual([]);
    expect(await server.db.selectFrom('bid_requests').select('request_id').where('request_id', '=', requests[1].requestId).execute()).toEqual([]);
    expect((await userRow(server.db, uma.id)).reserved).toBe(100);
    await expectBooksBalance(server.db);
  });

  it('a change queued between two bids keeps its place: the bids after it commit apart from the ones before', async () => {
    const rosa = await bidder(server, admin.token, 10_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    await server.auction.idle();
    const before = server.auction.bidCommits;
    const bid = (amount: number) => server.auction.createBid({ id: rosa.id }, { itemId: item.itemId, amount, requestId: newRequestId() });
    const first = bid(100);
    const history = server.auction.history();
    const second = bid(120);
    expect(await Promise.all([first, second])).toEqual([null, null]);
    const snapshot = await history;
    const seen = snapshot.bids.filter((b) => b.itemId === item.itemId).map((b) => b.amount);
    const after = server.auction.bidCommits;
    if (onPostgres) {
      // with several processes HISTORY is ordered with the events, not in the queue, so it splits no
      // group: the two bids commit together, and the snapshot has both or neither, whenever it was read
      expect(after.transactions - before.transactions).toBe(1);
      expect([[], [120, 100]]).toContainEqual(seen);
    } else {
      // the snapshot was taken between them: it has the first bid and not the second
      expect(seen).toEqual([100]);
      expect(snapshot.items.find((i) => i.itemId === item.itemId)).toMatchObject({ amount: 100 });
      expect(after.transactions - before.transactions).toBe(2);
    }
  });

  it('a change of the queue between two bids splits their group: the bid after it is judged on what it did', async () => {
    const rosa = await bidder(server, admin.token, 10_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    await server.auction.idle();
    const before = server.auction.bidCommits;
    const bid = (amount: number) => server.auction.createBid({ id: rosa.id }, { itemId: item.itemId, amount, requestId: newRequestId() });
    const first = bid(100);
    // leadership closes the store between them: the second is refused, the first was not
    const change = server.auction.exclusive(() => server.db.updateTable('kingdom_settings').set({ store_open: 0 }).where('id', '=', 1).execute());
    const second = bid(120);
    const answers = await Promise.all([first, second]);
    await change;
    await server.db.updateTable('kingdom_settings').set({ store_open: 1 }).where('id', '=', 1).execute();
    await server.auction.exclusive(() => Promise.resolve());
    expect(answers[0]).toBeNull();
    expect(answers[1]).toMatchObject({ error_type: 'BID_OPEN_ERROR' });
    expect(server.auction.bidCommits.transactions - before.transactions).toBe(2);
  });
});

describe('HISTORY on authentication', () => {
  it('has the latest bids newest first and every live item with its leader, amount and time left', async () => {
    const nick = await bidder(server, admin.token, 5_000);
    const fresh = await createItem(server, admin.token, { itemName: 'Untouched Shield', start_price: 40, minIncrement: 4, description: 'Shiny', imageUrl: 'https://example.com/s.png' });
    const item = await createItem(server, admin.token, { itemName: 'Bid Upon Helm' });
    sendBid(nick.auction, item.itemId, 100);
    await bidCreated(nick.auction, item.itemId, 100, nick.username);
    clock.advance(1_500);
    sendBid(nick.auction, item.itemId, 150);
    await bidCreated(nick.auction, item.itemId, 150, nick.username);

    const socket = await authedSocket(server.auctionUrl, nick.token);
    const history = (await socket.nextOf('HISTORY')) as { data: { bids: { amount: number; itemId: number }[]; items: Record<string, unknown>[] } };
    expect(history.data.bids.slice(0, 2).map((b) => [b.itemId, b.amount])).toEqual([
      [item.itemId, 150],
      [item.itemId, 100],
    ]);
    expect(history.data.bids.length).toBeLessThanOrEqual(50);
    const untouched = history.data.items.find((i) => i.itemId === fresh.itemId);
    expect(untouched).toMatchObject({
      itemName: 'Untouched Shield',
      type: 'auction',
      amount: 40,
      username: 'server',
      state: 'live',
      start_price: 40,
      minIncrement: 4,
      description: 'Shiny',
      imageUrl: 'https://example.com/s.png',
      timestamp: clock.t,
      endsAt: fresh.endsAt,
      timer: Math.ceil((fresh.endsAt - clock.t) / 1000),
    });
    expect(history.data.items.find((i) => i.itemId === item.itemId)).toMatchObject({ amount: 150, username: nick.username, state: 'live' });
    expect(history.data.items.every((i) => i.state === 'live' || i.state === 'finished')).toBe(true);
    socket.close();
  });
});
