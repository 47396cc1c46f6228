import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bidCreated, bidder, counts, createItem, expectBooksBalance, itemRow, ManualClock, sendBid, userRow } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';

describe('the scheduler', () => {
  const clock = new ManualClock();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    server = await startTestServer({}, { now: clock.now });
    admin = await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('starts a scheduled item at its startsAt on its own timer: BIDDING_STARTED to everyone, with every rule of the item', async () => {
    const [ann, ben] = await Promise.all([bidder(server, admin.token, 0), bidder(server, admin.token, 0)]);
    const startsAt = clock.t + 200;
    const item = await createItem(server, admin.token, {
      startsAt,
      duration: 60,
      start_price: 70,
      minIncrement: 100,
      extendWindow: 15,
      maxExtensions: 3,
      imageUrl: 'https://example.com/sword.png',
      description: 'Sharp',
      eligibility: { ranks: ['council'], groups: ['Vanguard'] },
    });
    expect(item).toMatchObject({ state: 'scheduled', startsAt, endsAt: startsAt + 60_000, timer: 0 });
    const listed = await call(server, 'GET', '/store/items?state=scheduled', { token: ann.token });
    expect((listed.body.items as { itemId: number }[]).map((i) => i.itemId)).toContain(item.itemId);

    clock.advance(200); // the engine's clock says it is time; the real timer (200 ms) fires by itself
    const expected = {
      type: 'BIDDING_STARTED',
      // the whole Item, as HISTORY gives it after a reload: a card built from it judges bids the same way
      data: {
        itemId: item.itemId,
        itemName: 'Golden Sword',
        type: 'auction',
        amount: 70,
        username: 'server',
        state: 'live',
        start_price: 70,
        minIncrement: 100,
        timer: 60,
        timestamp: clock.t,
        startsAt,
        endsAt: startsAt + 60_000,
        duration: 60,
        extendWindow: 15,
        maxExtensions: 3,
        extensions: 0,
        imageUrl: 'https://example.com/sword.png',
        description: 'Sharp',
        eligibility: { ranks: ['council'], groups: ['Vanguard'] },
        format: 'english',
      },
    };
    expect(await ann.auction.nextOf('BIDDING_STARTED')).toEqual(expected);
    expect(await ben.auction.nextOf('BIDDING_STARTED')).toEqual(expected);
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'live', started_at: clock.t });
  });

  it('settles at the end: WINNER to the winner only, SALE_COMPLETED to all, the reservation becomes a purchase on the ledger', async () => {
    const [winner, loser, other] = await Promise.all([
      bidder(server, admin.token, 1_000, 'winner'),
      bidder(server, admin.token, 1_000, 'loser'),
      bidder(server, admin.token, 0, 'other'),
    ]);
    const item = await createItem(server, admin.token, { itemName: 'Dragon Egg', duration: 30, start_price: 100, minIncrement: 50 });
    sendBid(loser.auction, item.itemId, 100);
    await bidCreated(loser.auction, item.itemId, 100, loser.username);
    sendBid(winner.auction, item.itemId, 400);
    await bidCreated(winner.auction, item.itemId, 400, winner.username);
    await winner.user.nextOf('VIRTUAL_BALANCE_UPDATE');
    const ledgerBefore = (await counts(server.db)).ledger;

    clock.advance(30_000);
    await server.auction.tick();

    const result = { itemId: item.itemId, itemName: 'Dragon Egg', amount: 400, username: winner.username };
    expect(await winner.auction.nextOf('WINNER')).toEqual({ type: 'WINNER', data: result });
    const sale = { type: 'SALE_COMPLETED', data: { itemId: item.itemId, itemName: 'Dragon Egg', username: winner.username, amount: 400 } };
    for (const who of [winner, loser, other]) expect(await who.auction.nextOf('SALE_COMPLETED')).toEqual(sale);
    for (const who of [loser, other]) expect(who.auction.drain().some((f) => f.type === 'WINNER')).toBe(false);
    expect(await winner.user.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 600, reserved: 0, available: 600 } });

    expect(await itemRow(server.db, item.itemId)).toMatchObject({ state: 'finished', leader_id: winner.id, amount: 400, settled_at: clock.t });
    expect(await userRow(server.db, winner.id)).toMatchObject({ balance: 600, reserved: 0 });
    expect(await userRow(server.db, loser.id)).toMatchObject({ balance: 1_000, reserved: 0 });
    const purchase = await server.db.selectFrom('points_transactions').selectAll().where('user_id', '=', winner.id).where('kind', '=', 'purchase').execute();
    expect(purchase).toEqual([expect.objectContaining({ delta: -400, reason: 'Won "Dragon Egg"', actor_id: null, balance_after: 600 })]);
    expect((await counts(server.db)).ledger).toBe(ledgerBefore + 1);
    const sales = await server.db.selectFrom('sales').selectAll().where('item_id', '=', item.itemId).execute();
    expect(sales).toEqual([expect.objectContaining({ user_id: winner.id, amount: 400, at: item.endsAt })]);

    const mine = await call(server, 'GET', '/store/my-history', { token: winner.token });
    expect(mine.body).toMatchObject({ result: true, total: 1, sales: [{ itemId: item.itemId, itemName: 'Dragon Egg', username: winner.username, amount: 400, at: item.endsAt }] });
    const theirs = await call(server, 'GET', '/store/my-history', { token: loser.token });
    expect(theirs.body).toMatchObject({ result: true, total: 0, sales: [] });
    await expectBooksBalance(server.db);

    // a second tick finds nothing to settle
    await server.auction.tick();
    expect((await counts(server.db)).ledger).toBe(ledgerBefore + 1);
  });

  it('ends an item nobody bid on with NO_BUYER to everyone and no sale', async () => {
    const [a, b] = await Promise.all([bidder(server, admin.token, 0), bidder(server, admin.token, 0)]);
    const item = await createItem(server, admin.token, { itemName: 'Dusty Rug', duration: 10 });
    const before = await counts(server.db);
    clock.advance(10_000);
    await server.auction.tick();
    for (const who of [a, b]) expect(await who.auction.nextOf('NO_BUYER')).toEqual({ type: 'NO_BUYER', data: { itemId: item.itemId, itemName: 'Dusty Rug', reason: 'no-bids' } });
    expect((await itemRow(server.db, item.itemId)).state).toBe('finished');
    expect(await counts(server.db)).toEqual(before);
    for (const who of [a, b]) expect(who.auction.drain().some((f) => f.type === 'WINNER' || f.type === 'SALE_COMPLETED')).toBe(false);
  });

  it('keeps one timer armed for the next start or end', async () => {
    const soon = await createItem(server, admin.token, { startsAt: clock.t + 5_000 });
    expect(server.auction.scheduler.armedFor).toBeLessThanOrEqual(soon.startsAt);
  });
});

describe('after a restart', () => {
  it('starts, ends and settles what fell due while the server was down, each exactly once', async () => {
    const clock = new ManualClock();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-restart-'));
    const start = () => startTestServer({ dataDir }, { now: clock.now });
    let server = await start();
    const admin = await signedIn(server, 'admin');
    const bob = await bidder(server, admin.token, 1_000);
    const sold = await createItem(server, admin.token, { itemName: 'Sold While Down', duration: 60 });
    const open = await createItem(server, admin.token, { itemName: 'Still Open', duration: 3_600 });
    const unsold = await createItem(server, admin.token, { itemName: 'Unsold While Down', duration: 60 });
    const startsLate = await createItem(server, admin.token, { itemName: 'Starts While Down', startsAt: clock.t + 30_000, duration: 3_600 });
    const wholeLife = await createItem(server, admin.token, { itemName: 'Whole Life While Down', startsAt: clock.t + 10_000, duration: 10 });
    sendBid(bob.auction, sold.itemId, 300);
    await bidCreated(bob.auction, sold.itemId, 300, bob.username);
    sendBid(bob.auction, open.itemId, 200);
    await bidCreated(bob.auction, open.itemId, 200, bob.username);
    expect(await userRow(server.db, bob.id)).toMatchObject({ balance: 1_000, reserved: 500 });
    bob.auction.close();
    bob.user.close();
    await server.close();

    clock.advance(120_000); // two minutes pass while it is down
    server = await start();
    expect(await itemRow(server.db, sold.itemId)).toMatchObject({ state: 'finished', leader_id: bob.id, amount: 300 });
    expect(await itemRow(server.db, unsold.itemId)).toMatchObject({ state: 'finished', leader_id: null });
    expect(await itemRow(server.db, startsLate.itemId)).toMatchObject({ state: 'live', ends_at: startsLate.endsAt });
    expect(await itemRow(server.db, wholeLife.itemId)).toMatchObject({ state: 'finished', leader_id: null });
    expect(await itemRow(server.db, open.itemId)).toMatchObject({ state: 'live', leader_id: bob.id });
    expect(await userRow(server.db, bob.id)).toMatchObject({ balance: 700, reserved: 200 });
    const sales = await server.db.selectFrom('sales').selectAll().execute();
    expect(sales).toEqual([expect.objectContaining({ item_id: sold.itemId, user_id: bob.id, amount: 300, at: sold.endsAt })]);
    await expectBooksBalance(server.db);
    const afterFirst = await counts(server.db);
    await server.close();

    // and again: nothing settles twice
    server = await start();
    expect(await counts(server.db)).toEqual(afterFirst);
    expect(await userRow(server.db, bob.id)).toMatchObject({ balance: 700, reserved: 200 });
    const purchases = await server.db.selectFrom('points_transactions').select('reason').where('kind', '=', 'purchase').execute();
    expect(purchases).toEqual([{ reason: 'Won "Sold While Down"' }]);
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
