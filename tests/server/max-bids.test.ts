import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../server/points/ledger';
import {
  auctionTestServer,
  bidCreated,
  bidder,
  counts,
  createItem,
  expectBooksBalance,
  itemRow,
  ManualClock,
  newRequestId,
  setMax,
  userRow,
  type Bidder,
} from './auction-helpers';
import { authedSocket, call } from './helpers';

/**
 * Maximum (proxy) bids in the engine: SET_MAX_BID judged like a bid, the maxima's answer in the
 * transaction of every bid (the higher max wins at the lower plus the increment, equal maxima: the
 * first set), automatic bids as ordinary bids, a max dropped for balance, one exhausted, and what
 * only the owner reads.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof auctionTestServer>>['server'];
let admin: Awaited<ReturnType<typeof auctionTestServer>>['admin'];
let watcher: Bidder;

beforeAll(async () => {
  ({ server, admin, watcher } = await auctionTestServer(clock));
});
afterAll(() => server.close());

async function endAll(): Promise<void> {
  clock.advance(24 * 3600 * 1000);
  await server.auction.tick();
  await server.auction.idle();
}

async function accepted(who: Bidder, itemId: number, amount: number) {
  expect(await server.auction.createBid({ id: who.id }, { itemId, amount, requestId: newRequestId() })).toBeNull();
}

async function maxRow(userId: number, itemId: number) {
  return server.db.selectFrom('max_bids').selectAll().where('user_id', '=', userId).where('item_id', '=', itemId).executeTakeFirst();
}

async function eventsOf(kind: string, itemId: number) {
  const rows = await server.db.selectFrom('events').select(['kind', 'data']).where('kind', '=', kind).execute();
  return rows.map((r) => JSON.parse(r.data) as { itemId: number; userId: number; max: number; itemName: string }).filter((d) => d.itemId === itemId);
}

describe('SET_MAX_BID', () => {
  it('bids the next minimum at once for its owner, tells every tab of theirs MAX_BID, and nobody else the max', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const otherTab = await authedSocket(server.auctionUrl, alice.token);
    await otherTab.nextOf('HISTORY');
    // nobody leads: the max bids the start price
    expect((await setMax(alice, item.itemId, 500)).data).toEqual({ itemId: item.itemId, max: 500, leading: true });
    expect((await otherTab.nextOf('MAX_BID')).data).toEqual({ itemId: item.itemId, max: 500, leading: true });
    expect((await bidCreated(watcher.auction, item.itemId, 100, alice.username)).data).toMatchObject({ auto: true });
    // another leads: at once, the next minimum over them
    await accepted(bob, item.itemId, 200);
    expect((await bidCreated(watcher.auction, item.itemId, 200, bob.username)).data).not.toHaveProperty('auto');
    expect((await bidCreated(watcher.auction, item.itemId, 210, alice.username)).data).toMatchObject({ auto: true });
    expect((await bob.auction.nextOf('OUTBID')).data).toMatchObject({ amount: 210, username: alice.username, auto: true });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 210 });
    expect(await userRow(server.db, alice.id)).toMatchObject({ reserved: 210 });
    expect(await userRow(server.db, bob.id)).toMatchObject({ reserved: 0 });
    await expectBooksBalance(server.db);
    // a new reader: HISTORY carries their own maxima only
    const again = await authedSocket(server.auctionUrl, alice.token);
    expect(((await again.nextOf('HISTORY')).data as { maxBids?: unknown }).maxBids).toEqual([{ itemId: item.itemId, max: 500, leading: true }]);
    const other = await authedSocket(server.auctionUrl, bob.token);
    expect((await other.nextOf('HISTORY')).data).not.toHaveProperty('maxBids');
    for (const s of [again, other, otherTab]) s.close();
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });

  it('two maxima: the higher wins at the lower plus the increment; equal maxima: the first set leads', async () => {
    const alice = await bidder(server, admin.token, 2_000);
    const bob = await bidder(server, admin.token, 2_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    await setMax(alice, item.itemId, 700);
    await bidCreated(watcher.auction, item.itemId, 100, alice.username);
    // bob's lower max: alice answers at bob's max + 10, in the same transaction; bob's max exhausted
    expect((await setMax(bob, item.itemId, 450)).data).toEqual({ itemId: item.itemId, max: 450, leading: false });
    await bidCreated(watcher.auction, item.itemId, 460, alice.username);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 460 });
    expect(await eventsOf('max.exhausted', item.itemId)).toEqual([{ itemId: item.itemId, itemName: 'Golden Sword', userId: bob.id, max: 450 }]);
    // bob raises to alice's max: equal, alice set hers first, she leads at it
    await setMax(bob, item.itemId, 700);
    await bidCreated(watcher.auction, item.itemId, 700, alice.username);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 700 });
    // a max must reach the next minimum (710 now)
    expect(await setMax(bob, item.itemId, 705)).toMatchObject({ type: 'ERROR', error_type: 'BID_AMOUNT_ERROR' });
    // bob goes higher: he wins at alice's max + 10
    await setMax(bob, item.itemId, 900);
    await bidCreated(watcher.auction, item.itemId, 710, bob.username);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: bob.id, amount: 710 });
    expect(await userRow(server.db, alice.id)).toMatchObject({ reserved: 0 });
    expect(await userRow(server.db, bob.id)).toMatchObject({ reserved: 710 });
    expect((await eventsOf('max.exhausted', item.itemId)).map((e) => [e.userId, e.max])).toEqual([
      [bob.id, 450],
      [bob.id, 700],
      [alice.id, 700],
    ]);
    await expectBooksBalance(server.db);
    await endAll();
    expect((await bob.auction.nextOf('WINNER')).data).toMatchObject({ amount: 710 });
    // after the end, the winning max for council and admin
    const history = await call(server, 'GET', '/store/history', { token: admin.token });
    expect((history.body.entries as { itemId: number }[]).find((e) => e.itemId === item.itemId)).toMatchObject({ amount: 710, winningMax: 900, username: bob.username });
    const asPlayer = await call(server, 'GET', '/store/history', { token: bob.token });
    expect(asPlayer.status).toBe(403);
  });

  it('a manual bid below a standing max is stored and shown, then answered; automatic bids extend the soft close', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10, duration: 60, extendWindow: 30, maxExtensions: 3 });
    await setMax(alice, item.itemId, 400);
    await bidCreated(watcher.auction, item.itemId, 100, alice.username);
    const before = await counts(server.db);
    clock.advance(45_000);
    await accepted(bob, item.itemId, 300);
    const manual = await bidCreated(watcher.auction, item.itemId, 300, bob.username);
    const raise = await bidCreated(watcher.auction, item.itemId, 310, alice.username);
    expect(raise.data).toMatchObject({ auto: true, endsAt: clock.t + 30_000 });
    expect((manual.data as { endsAt: number }).endsAt).toBe(clock.t + 30_000);
    expect((await counts(server.db)).bids - before.bids).toBe(2);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 310, ends_at: clock.t + 30_000, extensions: 1 });
    // a bid at the max itself is not answered (the max cannot add the increment): it leads, the max is spent
    await accepted(bob, item.itemId, 400);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: bob.id, amount: 400 });
    expect(await eventsOf('max.exhausted', item.itemId)).toMatchObject([{ userId: alice.id, max: 400 }]);
    await expectBooksBalance(server.db);
    await endAll();
  });

  it('a raise its owner cannot cover drops the max: MAX_BID max 0 reason balance, and max.dropped', async () => {
    const alice = await bidder(server, admin.token, 500);
    const bob = await bidder(server, admin.token, 2_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10, itemName: 'Shield' });
    const elsewhere = await createItem(server, admin.token, { start_price: 300, minIncrement: 10, itemName: 'Helm' });
    await setMax(alice, item.itemId, 500);
    await bidCreated(watcher.auction, item.itemId, 100, alice.username);
    // alice spends 300 elsewhere: 100 + 100 free is all she has for the sword now
    await accepted(alice, elsewhere.itemId, 300);
    await accepted(bob, item.itemId, 250);
    expect((await alice.auction.nextOf('MAX_BID')).data).toEqual({ itemId: item.itemId, max: 0, leading: false, reason: 'balance' });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: bob.id, amount: 250 });
    expect(await maxRow(alice.id, item.itemId)).toBeUndefined();
    expect(await eventsOf('max.dropped', item.itemId)).toEqual([{ itemId: item.itemId, itemName: 'Shield', userId: alice.id, max: 500 }]);
    expect(await userRow(server.db, alice.id)).toMatchObject({ reserved: 300 });
    await expectBooksBalance(server.db);
    await endAll();
    expect((await checkLedger(server.db)).ok).toBe(true);
  });

  it('max 0 withdraws it (the lead stays); a repeated requestId gets the first answer and changes nothing', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const requestId = newRequestId();
    await setMax(alice, item.itemId, 600, requestId);
    await bidCreated(watcher.auction, item.itemId, 100, alice.username);
    const before = await counts(server.db);
    alice.auction.send({ type: 'SET_MAX_BID', data: { itemId: item.itemId, max: 600, requestId } });
    expect((await alice.auction.nextOf('MAX_BID')).data).toEqual({ itemId: item.itemId, max: 600, leading: true });
    expect(await counts(server.db)).toEqual(before);
    expect((await setMax(alice, item.itemId, 0)).data).toEqual({ itemId: item.itemId, max: 0, leading: true });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 100 });
    await accepted(bob, item.itemId, 110);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: bob.id, amount: 110 });
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });

  it('bad input gets the catalogue\'s error type and changes nothing', async () => {
    const alice = await bidder(server, admin.token, 300);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10 });
    const sealed = await createItem(server, admin.token, { format: 'sealed-first', itemName: 'Sealed' });
    const council = await createItem(server, admin.token, { itemName: 'Council only', eligibility: { ranks: ['council'] } });
    await accepted(bob, item.itemId, 150);
    const before = await counts(server.db);
    const refused = async (itemId: number, max: unknown, type: string) => {
      const requestId = newRequestId();
      expect((await setMax(alice, itemId, max, requestId)).data, `${itemId} ${String(max)}`).toEqual({ itemId, requestId });
      const again = await setMax(alice, itemId, max, requestId);
      expect(again).toMatchObject({ type: 'ERROR', error_type: type });
      return again;
    };
    expect(await refused(item.itemId, 155, 'BID_AMOUNT_ERROR')).toMatchObject({ error_type: 'BID_AMOUNT_ERROR' });
    await refused(item.itemId, 301, 'OUT_OF_BALANCE');
    await refused(item.itemId, 'lots', 'BID_AMOUNT_ERROR');
    await refused(item.itemId, 200.5, 'BID_AMOUNT_ERROR');
    await refused(sealed.itemId, 200, 'BID_ERROR');
    await refused(council.itemId, 200, 'BID_NOT_ALLOWED');
    await refused(999_999, 200, 'UNKNOWN_ITEM');
    expect(await counts(server.db)).toEqual(before);
    expect(await server.db.selectFrom('max_bids').selectAll().where('user_id', '=', alice.id).execute()).toEqual([]);
    // exactly the points available is a max
    expect((await setMax(alice, item.itemId, 300)).data).toEqual({ itemId: item.itemId, max: 300, leading: true });
    for (const id of [item.itemId, sealed.itemId, council.itemId]) await call(server, 'POST', `/store/items/${id}/cancel`, { token: admin.token });
    await expectBooksBalance(server.db);
  });
});

describe('a max never leaks while its item runs', () => {
  it('no frame and no REST answer another player (or council) gets names it; after the end store history gives the winning max to council and admin', async () => {
    // amounts no other number of the test can be
    const HIGH = 7_919;
    const LOW = 6_173;
    const alice = await bidder(server, admin.token, 20_000);
    const bob = await bidder(server, admin.token, 20_000);
    const carol = await bidder(server, admin.token, 20_000);
    // a fresh listener: every frame it gets is read
    const spy = await authedSocket(server.auctionUrl, carol.token);
    await spy.nextOf('HISTORY');
    const spyUser = await authedSocket(server.userUrl, carol.token);
    spyUser.send({ type: 'GET_STATUS' });
    await spyUser.nextOf('STATUS');
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 10, itemName: 'Crown', extendWindow: 30, maxExtensions: 5 });
    await setMax(alice, item.itemId, HIGH);
    await accepted(carol, item.itemId, 500);
    await setMax(bob, item.itemId, LOW);
    await accepted(carol, item.itemId, LOW + 20);
    // carol's refusals name no max either
    expect(await server.auction.createBid({ id: carol.id }, { itemId: item.itemId, amount: 200, requestId: newRequestId() })).toMatchObject({ error_type: 'BID_AMOUNT_ERROR' });
    expect(await setMax(carol, item.itemId, 100)).toMatchObject({ type: 'ERROR', error_type: 'BID_AMOUNT_ERROR' });
    await bidCreated(spy, item.itemId, LOW + 30, alice.username);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: LOW + 30 });
    // everything anyone but alice can read now
    const late = await authedSocket(server.auctionUrl, carol.token);
    const seen: unknown[] = [await late.nextOf('HISTORY')];
    late.close();
    for (const token of [carol.token, bob.token, admin.token]) {
      seen.push((await call(server, 'GET', '/store/items?state=live', { token })).body);
      seen.push((await call(server, 'GET', `/store/items?state=live&page=1`, { token })).body);
    }
    // (finished items of the earlier tests show their winning max there: this item is not finished)
    const running = (await call(server, 'GET', '/store/history', { token: admin.token })).body.entries as { itemId: number }[];
    expect(running.find((e) => e.itemId === item.itemId)).toBeUndefined();
    seen.push((await call(server, 'GET', '/store/my-history', { token: carol.token })).body);
    seen.push((await call(server, 'GET', '/store/watchlist', { token: carol.token })).body);
    seen.push(...spy.drain(), ...spyUser.drain(), ...watcher.auction.drain(), ...watcher.user.drain(), ...carol.auction.drain(), ...carol.user.drain());
    const text = JSON.stringify(seen);
    expect(text).toContain(`"amount":${LOW + 30}`);
    expect(text).not.toContain(String(HIGH));
    expect(text).not.toContain(String(LOW) + ',');
    expect(text).not.toMatch(/"max"|maxBids|winningMax/);
    // bob's max was beaten: he is told nothing of alice's
    expect(JSON.stringify([...bob.auction.drain(), ...bob.user.drain()])).not.toContain(String(HIGH));
    await endAll();
    const history = await call(server, 'GET', '/store/history', { token: admin.token });
    expect((history.body.entries as { itemId: number }[]).find((e) => e.itemId === item.itemId)).toMatchObject({ username: alice.username, amount: LOW + 30, winningMax: HIGH });
    spy.close();
    spyUser.close();
  });
});
