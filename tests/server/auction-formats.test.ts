import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_ERRORS } from '../../src/protocol/store';
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
  userRow,
  type Bidder,
} from './auction-helpers';
import { authedSocket, call } from './helpers';

/**
 * The auction formats on the server: a reserve, a buy-now price, sealed first- and second-price
 * items; what each player hears, what is reserved, what is sold and at what price.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof auctionTestServer>>['server'];
let admin: Awaited<ReturnType<typeof auctionTestServer>>['admin'];
let watcher: Bidder;

beforeAll(async () => {
  ({ server, admin, watcher } = await auctionTestServer(clock));
});
afterAll(() => server.close());

/** Ends every live item now and settles it. */
async function endAll(): Promise<void> {
  clock.advance(24 * 3600 * 1000);
  await server.auction.tick();
  await server.auction.idle();
}

async function accepted(who: Bidder, itemId: number, amount: number) {
  const answer = await server.auction.createBid({ id: who.id }, { itemId, amount, requestId: newRequestId() });
  expect(answer).toBeNull();
}

describe('a reserve price', () => {
  it('is read as a number by council and admin only; everyone reads reserveMet', async () => {
    const item = await createItem(server, admin.token, { reservePrice: 300 });
    expect(item).toMatchObject({ format: 'english', reserveMet: false });
    const asAdmin = await call(server, 'GET', '/store/items?state=live', { token: admin.token });
    expect((asAdmin.body.items as { itemId: number }[]).find((i) => i.itemId === item.itemId)).toMatchObject({ reservePrice: 300, reserveMet: false });
    const asPlayer = await call(server, 'GET', '/store/items?state=live', { token: watcher.token });
    const seen = (asPlayer.body.items as { itemId: number }[]).find((i) => i.itemId === item.itemId);
    expect(seen).toMatchObject({ reserveMet: false });
    expect(seen).not.toHaveProperty('reservePrice');
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
  });

  it('not met at the end: nothing sold, the leader\'s points released, NO_BUYER reserve-not-met', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { reservePrice: 300 });
    await accepted(alice, item.itemId, 200);
    expect((await bidCreated(watcher.auction, item.itemId, 200, alice.username)).data).toMatchObject({ reserveMet: false });
    expect((await userRow(server.db, alice.id)).reserved).toBe(200);
    const before = await counts(server.db);
    await endAll();
    expect(await watcher.auction.nextOf('NO_BUYER')).toEqual({ type: 'NO_BUYER', data: { itemId: item.itemId, itemName: 'Golden Sword', reason: 'reserve-not-met' } });
    expect(await userRow(server.db, alice.id)).toMatchObject({ reserved: 0, balance: 1_000 });
    expect((await counts(server.db)).sales).toBe(before.sales);
    expect((await alice.user.waitFor((f) => f.type === 'VIRTUAL_BALANCE_UPDATE' && (f.data as { reserved: number }).reserved === 0)).data).toEqual({ balance: 1_000, reserved: 0, available: 1_000 });
    await expectBooksBalance(server.db);
  });

  it('met: sold as usual; no bid at all: NO_BUYER no-bids', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const sold = await createItem(server, admin.token, { reservePrice: 300 });
    const unsold = await createItem(server, admin.token, { reservePrice: 300, itemName: 'Nobody' });
    await accepted(alice, sold.itemId, 300);
    expect((await bidCreated(watcher.auction, sold.itemId, 300, alice.username)).data).toMatchObject({ reserveMet: true });
    await endAll();
    expect((await watcher.auction.waitFor((f) => f.type === 'SALE_COMPLETED' && (f.data as { itemId: number }).itemId === sold.itemId)).data).toMatchObject({ amount: 300, username: alice.username });
    expect((await watcher.auction.waitFor((f) => f.type === 'NO_BUYER' && (f.data as { itemId: number }).itemId === unsold.itemId)).data).toMatchObject({ reason: 'no-bids' });
    expect(await userRow(server.db, alice.id)).toMatchObject({ reserved: 0, balance: 700 });
  });
});

describe('a buy-now price', () => {
  it('a bid of at least it buys at once at that price, exactly once, though two players press it in the same millisecond', async () => {
    const alice = await bidder(server, admin.token, 600);
    const bob = await bidder(server, admin.token, 5_000);
    const item = await createItem(server, admin.token, { buyNowPrice: 500, duration: 3600 });
    expect(item.buyNowPrice).toBe(500);
    // no reserve: nothing said about one
    expect(item).not.toHaveProperty('reserveMet');
    const before = await counts(server.db);
    // alice has 600 points: a bid of 900 is judged at the price it pays, 500
    const [first, second] = await Promise.all([
      server.auction.createBid({ id: alice.id }, { itemId: item.itemId, amount: 900, requestId: newRequestId() }),
      server.auction.createBid({ id: bob.id }, { itemId: item.itemId, amount: 2_000, requestId: newRequestId() }),
    ]);
    expect(first).toBeNull();
    expect(second).toMatchObject({ type: 'ERROR', error_type: 'BID_OPEN_ERROR' });
    await bidCreated(watcher.auction, item.itemId, 500, alice.username);
    // settled at once, without the clock reaching the item's end
    await server.auction.idle();
    expect((await alice.auction.nextOf('WINNER')).data).toEqual({ itemId: item.itemId, itemName: 'Golden Sword', amount: 500, username: alice.username });
    expect((await watcher.auction.waitFor((f) => f.type === 'SALE_COMPLETED' && (f.data as { itemId: number }).itemId === item.itemId)).data).toMatchObject({ amount: 500 });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'finished', amount: 500, leader_id: alice.id });
    const after = await counts(server.db);
    expect(after.sales - before.sales).toBe(1);
    expect(after.bids - before.bids).toBe(1);
    expect(await userRow(server.db, alice.id)).toMatchObject({ balance: 100, reserved: 0 });
    expect(await userRow(server.db, bob.id)).toMatchObject({ balance: 5_000, reserved: 0 });
    await server.auction.tick();
    expect((await counts(server.db)).sales - before.sales).toBe(1);
    expect((await checkLedger(server.db)).ok).toBe(true);
  });

  it('below it, a bid is an ordinary bid; refused on a sealed item with a sentence', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { buyNowPrice: 500 });
    await accepted(alice, item.itemId, 499);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live', amount: 499 });
    const sealed = await call(server, 'POST', '/store/items', { token: admin.token, body: { itemName: 'X', start_price: 1, minIncrement: 1, duration: 60, extendWindow: 0, maxExtensions: 0, format: 'sealed-first', buyNowPrice: 5 } });
    expect(sealed.status).toBe(400);
    expect(sealed.body).toEqual({ result: false, error: STORE_ERRORS.buyNowSealed });
    const low = await call(server, 'POST', '/store/items', { token: admin.token, body: { itemName: 'X', start_price: 100, minIncrement: 1, duration: 60, extendWindow: 0, maxExtensions: 0, reservePrice: 50 } });
    expect(low.body).toEqual({ result: false, error: STORE_ERRORS.reserveBelowStart });
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
    expect((await userRow(server.db, alice.id)).reserved).toBe(0);
  });
});

describe('sealed items', () => {
  it('each bid masked to everyone else, in full to its bidder; one bid per player, raised by the increment; all reserved; no soft close', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { format: 'sealed-first', start_price: 100, minIncrement: 10, extendWindow: 60, maxExtensions: 5, duration: 30 });
    watcher.auction.drain();
    await accepted(alice, item.itemId, 200);
    // bob's bid is below alice's: still taken (he cannot know it)
    await accepted(bob, item.itemId, 150);
    const masked = [await watcher.auction.nextOf('BID_CREATED'), await watcher.auction.nextOf('BID_CREATED')];
    expect(masked.map((f) => f.data)).toEqual([
      { itemId: item.itemId, itemName: 'Golden Sword', sealed: true, bids: 1, timer: 30, timestamp: clock.t, endsAt: item.endsAt },
      { itemId: item.itemId, itemName: 'Golden Sword', sealed: true, bids: 2, timer: 30, timestamp: clock.t, endsAt: item.endsAt },
    ]);
    expect((await alice.auction.nextOf('BID_CREATED')).data).toMatchObject({ amount: 200, username: alice.username });
    // alice hears of bob's bid only as a count
    expect((await alice.auction.nextOf('BID_CREATED')).data).toMatchObject({ sealed: true, bids: 2 });
    expect(await userRow(server.db, alice.id)).toMatchObject({ reserved: 200 });
    expect(await userRow(server.db, bob.id)).toMatchObject({ reserved: 150 });
    await expectBooksBalance(server.db);
    // a raise by less than the increment over one's own bid: refused; by the increment: taken, no extension
    expect(await server.auction.createBid({ id: bob.id }, { itemId: item.itemId, amount: 159, requestId: newRequestId() })).toMatchObject({ error_type: 'BID_AMOUNT_ERROR' });
    await accepted(bob, item.itemId, 160);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ leader_id: alice.id, amount: 200, ends_at: item.endsAt, extensions: 0, bids_count: 2 });
    expect((await userRow(server.db, bob.id)).reserved).toBe(160);
    // a new reader: the item shows the start price, no leader, the count; only their own bids
    const late = await authedSocket(server.auctionUrl, bob.token);
    const history = (await late.nextOf('HISTORY')).data as { bids: { itemId: number; username: string }[]; items: { itemId: number }[] };
    expect(history.items.find((i) => i.itemId === item.itemId)).toMatchObject({ amount: 100, username: 'server', bids: 2, format: 'sealed-first' });
    expect(history.bids.filter((b) => b.itemId === item.itemId).map((b) => b.username)).toEqual([bob.username, bob.username]);
    late.close();
    const rest = await call(server, 'GET', '/store/items?state=live', { token: admin.token });
    expect((rest.body.items as { itemId: number }[]).find((i) => i.itemId === item.itemId)).toMatchObject({ amount: 100, username: 'server', bids: 2 });
    await endAll();
    // sealed-first: the highest pays its bid; every other standing bid released
    expect((await alice.auction.nextOf('WINNER')).data).toMatchObject({ amount: 200 });
    expect(await userRow(server.db, alice.id)).toMatchObject({ balance: 800, reserved: 0 });
    expect(await userRow(server.db, bob.id)).toMatchObject({ balance: 1_000, reserved: 0 });
    await expectBooksBalance(server.db);
  });

  it('second price: the second bid plus the increment, at most the winner\'s bid; the start price when alone; the earlier wins a tie', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const carol = await bidder(server, admin.token, 1_000);
    const second = await createItem(server, admin.token, { format: 'sealed-second', start_price: 100, minIncrement: 10, itemName: 'Second' });
    const alone = await createItem(server, admin.token, { format: 'sealed-second', start_price: 100, minIncrement: 10, itemName: 'Alone' });
    const tie = await createItem(server, admin.token, { format: 'sealed-second', start_price: 100, minIncrement: 10, itemName: 'Tie' });
    await accepted(alice, second.itemId, 400);
    await accepted(bob, second.itemId, 250);
    await accepted(carol, second.itemId, 120);
    await accepted(alice, alone.itemId, 300);
    await accepted(bob, tie.itemId, 200);
    await accepted(carol, tie.itemId, 200);
    await endAll();
    const sale = async (itemId: number) => server.db.selectFrom('sales').selectAll().where('item_id', '=', itemId).executeTakeFirstOrThrow();
    expect(await sale(second.itemId)).toMatchObject({ user_id: alice.id, amount: 260 });
    expect(await sale(alone.itemId)).toMatchObject({ user_id: alice.id, amount: 100 });
    expect(await sale(tie.itemId)).toMatchObject({ user_id: bob.id, amount: 200 });
    expect(await userRow(server.db, alice.id)).toMatchObject({ balance: 640, reserved: 0 });
    expect(await userRow(server.db, bob.id)).toMatchObject({ balance: 800, reserved: 0 });
    expect(await userRow(server.db, carol.id)).toMatchObject({ balance: 1_000, reserved: 0 });
    expect((await checkLedger(server.db)).ok).toBe(true);
    // after the end, store history shows every standing bid, highest first (the earlier first on a tie)
    const history = await call(server, 'GET', '/store/history', { token: admin.token });
    const entries = history.body.entries as { itemId: number; format: string; sealedBids?: unknown }[];
    expect(entries.find((e) => e.itemId === second.itemId)).toMatchObject({
      format: 'sealed-second',
      amount: 260,
      sealedBids: [
        { username: alice.username, amount: 400 },
        { username: bob.username, amount: 250 },
        { username: carol.username, amount: 120 },
      ],
    });
    expect(entries.find((e) => e.itemId === tie.itemId)?.sealedBids).toMatchObject([{ username: bob.username }, { username: carol.username }]);
  });

  it('cancelled: every standing bid released', async () => {
    const alice = await bidder(server, admin.token, 1_000);
    const bob = await bidder(server, admin.token, 1_000);
    const item = await createItem(server, admin.token, { format: 'sealed-first' });
    await accepted(alice, item.itemId, 300);
    await accepted(bob, item.itemId, 200);
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
    expect((await userRow(server.db, alice.id)).reserved).toBe(0);
    expect((await userRow(server.db, bob.id)).reserved).toBe(0);
    await expectBooksBalance(server.db);
  });
});
