import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bidCreated, bidder, counts, createItem, errorFor, expectBooksBalance, itemRow, ManualClock, sendBid, userRow } from './auction-helpers';
import { authedSocket, call, leadershipServer, signedIn, startTestServer } from './helpers';

/**
 * Closing the store holds every live auction: no item ends while the
 * store is closed, so a leader cannot win at the price of the moment while rivals are refused
 * with BID_OPEN_ERROR; on reopening each live item ends the time it had left after the opening.
 * Everyone hears STORE_STATE, and HISTORY says whether the store is open.
 */
const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: clock.now }));
});
afterAll(() => server.close());

const setStore = async (open: boolean) => {
  const answer = await call(server, 'POST', '/kingdom/settings', { token: council.token, body: { storeOpen: open } });
  expect(answer.status).toBe(200);
};

describe('a closed store holds the live auctions', () => {
  it('a leader cannot win while rivals are refused: the end waits for the reopening, then the time left runs on', async () => {
    const alice = await bidder(server, admin.token, 5_000, 'alice');
    const bob = await bidder(server, admin.token, 5_000, 'bob');
    const item = await createItem(server, admin.token, { itemName: 'Held Crown', duration: 60, start_price: 100, minIncrement: 10 });
    sendBid(alice.auction, item.itemId, 100);
    await bidCreated(bob.auction, item.itemId, 100, alice.username);

    clock.advance(20_000); // 40 s left
    const closedAt = clock.t;
    await setStore(false);
    const closed = await bob.auction.nextOf('STORE_STATE');
    expect(closed).toEqual({ type: 'STORE_STATE', data: { state: 'closed', timestamp: closedAt, items: [{ itemId: item.itemId, endsAt: item.endsAt, heldMs: 40_000 }] } });
    expect(await alice.auction.nextOf('STORE_STATE')).toEqual(closed);

    // long past the old end: nothing ends, nothing is sold, bob's bid is refused
    clock.advance(3_600_000);
    await server.auction.tick();
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live', leader_id: alice.id, held_ms: 40_000 });
    const refused = sendBid(bob.auction, item.itemId, 500);
    expect(await errorFor(bob.auction, refused)).toMatchObject({ error_type: 'BID_OPEN_ERROR' });
    expect((await counts(server.db)).sales).toBe(0);
    expect(await userRow(server.db, alice.id)).toMatchObject({ balance: 5_000, reserved: 100 });

    // HISTORY of a reload while closed: the store is closed and the item keeps 40 s
    const late = await signedIn(server, 'reload');
    const socket = await authedSocket(server.auctionUrl, late.token);
    const snapshot = (await socket.nextOf('HISTORY')) as { data: { store: string; items: { itemId: number; heldMs?: number; timer: number }[] } };
    expect(snapshot.data.store).toBe('closed');
    expect(snapshot.data.items.find((i) => i.itemId === item.itemId)).toMatchObject({ heldMs: 40_000, timer: 40 });
    socket.close();

    // reopen: the end is the opening time plus the 40 s it had left, told to everyone
    const reopenAt = clock.t;
    await setStore(true);
    const opened = await bob.auction.nextOf('STORE_STATE');
    expect(opened).toEqual({ type: 'STORE_STATE', data: { state: 'open', timestamp: reopenAt, items: [{ itemId: item.itemId, endsAt: reopenAt + 40_000 }] } });
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live', ends_at: reopenAt + 40_000, held_ms: null });

    // the rival gets his chance now
    sendBid(bob.auction, item.itemId, 500);
    await bidCreated(alice.auction, item.itemId, 500, bob.username);
    clock.advance(39_000);
    await server.auction.tick();
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live' });
    clock.advance(1_000);
    await server.auction.tick();
    expect(await alice.auction.nextOf('SALE_COMPLETED')).toMatchObject({ data: { itemId: item.itemId, username: bob.username, amount: 500 } });
    await expectBooksBalance(server.db);
    for (const b of [alice, bob]) {
      b.auction.close();
      b.user.close();
    }
  });

  it('an item whose end came before the close is settled, not held', async () => {
    const carol = await bidder(server, admin.token, 1_000, 'carol');
    const item = await createItem(server, admin.token, { itemName: 'Late Cup', duration: 10 });
    sendBid(carol.auction, item.itemId, 100);
    await bidCreated(carol.auction, item.itemId, 100, carol.username);
    clock.advance(10_000); // its end has come; the timer has not run yet
    await setStore(false);
    expect(await carol.auction.nextOf('WINNER')).toMatchObject({ data: { itemId: item.itemId, amount: 100 } });
    const closed = (await carol.auction.nextOf('STORE_STATE')) as { data: { items: { itemId: number }[] } };
    expect(closed.data.items.map((i) => i.itemId)).not.toContain(item.itemId);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'finished', held_ms: null });
    await setStore(true);
    await expectBooksBalance(server.db);
    carol.auction.close();
    carol.user.close();
  });

  it('an item that goes live while the store is closed is held with its whole duration, and BIDDING_STARTED says so', async () => {
    const dave = await bidder(server, admin.token, 1_000, 'dave');
    await setStore(false);
    await dave.auction.nextOf('STORE_STATE');
    const now = await createItem(server, admin.token, { itemName: 'Quiet Lamp', duration: 120 });
    expect(await dave.auction.nextOf('BIDDING_STARTED')).toMatchObject({ data: { itemId: now.itemId, heldMs: 120_000, timer: 120 } });
    const later = await createItem(server, admin.token, { itemName: 'Quiet Bell', duration: 60, startsAt: clock.t + 5_000 });
    clock.advance(5_000);
    await server.auction.tick();
    expect(await dave.auction.nextOf('BIDDING_STARTED')).toMatchObject({ data: { itemId: later.itemId, heldMs: 60_000 } });

    clock.advance(600_000);
    await server.auction.tick();
    const reopenAt = clock.t;
    await setStore(true);
    const opened = (await dave.auction.nextOf('STORE_STATE')) as { data: { items: { itemId: number; endsAt: number }[] } };
    expect(opened.data.items).toEqual(
      expect.arrayContaining([
        { itemId: now.itemId, endsAt: reopenAt + 120_000 },
        { itemId: later.itemId, endsAt: reopenAt + 60_000 },
      ]),
    );
    dave.auction.close();
    dave.user.close();
  });

  it('a held item survives a restart of the engine: still held, and nothing settles it', async () => {
    const erin = await bidder(server, admin.token, 1_000, 'erin');
    const item = await createItem(server, admin.token, { itemName: 'Sleeping Ring', duration: 30 });
    sendBid(erin.auction, item.itemId, 100);
    await bidCreated(erin.auction, item.itemId, 100, erin.username);
    await setStore(false);
    clock.advance(120_000);
    await server.auction.stop();
    await server.auction.start();
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live', held_ms: 30_000 });
    await setStore(true);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live', ends_at: clock.t + 30_000, held_ms: null });
    erin.auction.close();
    erin.user.close();
  });
});
