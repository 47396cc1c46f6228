import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINTS_ERRORS } from '../../src/protocol/points';
import { MAX_PRICE, STARTS_AT_PAST_TOLERANCE_MS, STORE_ERRORS, storeItem } from '../../src/protocol/store';
import { bidCreated, bidder, createItem, expectBooksBalance, itemBody, itemRow, ManualClock, sendBid, userRow } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';

const clock = new ManualClock();
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;
let player: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  server = await startTestServer({}, { now: clock.now });
  admin = await signedIn(server, 'admin');
  council = await signedIn(server, 'council');
  await call(server, 'POST', `/admin/users/${council.username}/rank`, { token: admin.token, body: { rank: 'council' } });
  player = await signedIn(server, 'player');
});
afterAll(() => server.close());

describe('POST /store/items', () => {
  it('creates a live item now when startsAt is absent, with every field on the answer', async () => {
    const answer = await call(server, 'POST', '/store/items', {
      token: council.token,
      body: itemBody({
        itemName: '  Crown of Ages  ',
        description: 'Worn by kings',
        imageUrl: '/uploads/crown.png',
        type: 'auction',
        start_price: 0,
        minIncrement: 5,
        duration: 90,
        extendWindow: 15,
        maxExtensions: 3,
        eligibility: { ranks: ['council'], groups: ['Vanguard'] },
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBe(true);
    const item = answer.body.item as Record<string, unknown>;
    expect(storeItem.safeParse(item).success).toBe(true);
    expect(item).toMatchObject({
      itemName: 'Crown of Ages',
      description: 'Worn by kings',
      imageUrl: '/uploads/crown.png',
      type: 'auction',
      state: 'live',
      start_price: 0,
      minIncrement: 5,
      amount: 0,
      username: 'server',
      startsAt: clock.t,
      endsAt: clock.t + 90_000,
      timer: 90,
      timestamp: clock.t,
      extendWindow: 15,
      maxExtensions: 3,
      extensions: 0,
      eligibility: { ranks: ['council'], groups: ['Vanguard'] },
    });
  });

  it('schedules an item with a future startsAt; a start a little in the past (clock skew) counts as now', async () => {
    const later = await createItem(server, admin.token, { startsAt: clock.t + 60_000 });
    expect(later).toMatchObject({ state: 'scheduled', startsAt: clock.t + 60_000 });
    const skewed = await createItem(server, admin.token, { startsAt: clock.t - 5_000, duration: 10 });
    expect(skewed).toMatchObject({ state: 'live', startsAt: clock.t, endsAt: clock.t + 10_000 });
  });

  it.each([
    [{ itemName: '' }, STORE_ERRORS.itemNameRequired],
    [{ itemName: undefined }, STORE_ERRORS.itemNameRequired],
    [{ itemName: 'x'.repeat(101) }, STORE_ERRORS.itemNameTooLong],
    [{ description: 'd'.repeat(1001) }, STORE_ERRORS.descriptionTooLong],
    [{ imageUrl: 'javascript:alert(1)' }, STORE_ERRORS.imageUrl],
    [{ type: 'raffle' }, STORE_ERRORS.type],
    [{ start_price: -1 }, STORE_ERRORS.startPrice],
    [{ start_price: 1.5 }, STORE_ERRORS.startPrice],
    [{ start_price: MAX_PRICE + 1 }, STORE_ERRORS.startPrice],
    [{ minIncrement: 0 }, STORE_ERRORS.minIncrement],
    [{ startsAt: 'tomorrow' }, STORE_ERRORS.startsAt],
    [{ duration: 9 }, STORE_ERRORS.duration],
    [{ extendWindow: -1 }, STORE_ERRORS.extendWindow],
    [{ maxExtensions: 1001 }, STORE_ERRORS.maxExtensions],
    [{ eligibility: { ranks: ['king'] } }, STORE_ERRORS.eligibility],
  ])('refuses %j with 400 and its text, creating nothing', async (overrides, error) => {
    const before = await call(server, 'GET', '/store/items', { token: admin.token });
    const answer = await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody(overrides) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
    const after = await call(server, 'GET', '/store/items', { token: admin.token });
    expect(after.body.total).toBe(before.body.total);
  });

  it('refuses a start more than the tolerance in the past', async () => {
    const answer = await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ startsAt: clock.t - STARTS_AT_PAST_TOLERANCE_MS - 1 }) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.startsAt });
  });
});

describe('GET /store/items', () => {
  it('lists items of one state in their order, for any signed-in player', async () => {
    const a = await createItem(server, admin.token, { duration: 500 });
    const b = await createItem(server, admin.token, { duration: 100 });
    const answer = await call(server, 'GET', '/store/items?state=live', { token: player.token });
    expect(answer.status).toBe(200);
    const items = answer.body.items as { itemId: number; state: string; endsAt: number }[];
    expect(items.every((i) => i.state === 'live')).toBe(true);
    expect(items.findIndex((i) => i.itemId === b.itemId)).toBeLessThan(items.findIndex((i) => i.itemId === a.itemId));
    expect(answer.body).toMatchObject({ result: true, page: 1, pageSize: 500 });
  });

  it('refuses a bad state or page', async () => {
    for (const query of ['state=open', 'state=', 'page=0', 'page=x']) {
      const answer = await call(server, 'GET', `/store/items?${query}`, { token: player.token });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: query.startsWith('state') ? STORE_ERRORS.badState : STORE_ERRORS.badPage });
    }
  });
});

describe('POST /store/items/:itemId/cancel', () => {
  it('cancels a live item: the leader’s points are released, their balance page hears it, boards get ITEM_CANCELLED (not NO_BUYER)', async () => {
    const leader = await bidder(server, admin.token, 1_000);
    const watcher = await bidder(server, admin.token, 0);
    const item = await createItem(server, admin.token, { itemName: 'Cursed Ring' });
    sendBid(leader.auction, item.itemId, 250);
    await bidCreated(leader.auction, item.itemId, 250, leader.username);
    await leader.user.nextOf('VIRTUAL_BALANCE_UPDATE');

    const answer = await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: council.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, item: { itemId: item.itemId, state: 'cancelled' } });
    expect(await leader.user.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 1_000, reserved: 0, available: 1_000 } });
    expect(await watcher.auction.nextOf('ITEM_CANCELLED')).toEqual({ type: 'ITEM_CANCELLED', data: { itemId: item.itemId, itemName: 'Cursed Ring' } });
    expect(watcher.auction.drain().filter((f) => f.type === 'NO_BUYER')).toEqual([]);
    expect(await userRow(server.db, leader.id)).toMatchObject({ balance: 1_000, reserved: 0 });
    await expectBooksBalance(server.db);

    // not twice, and nothing settles it later
    const again = await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: council.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ result: false, error: STORE_ERRORS.notCancellable });
    clock.advance(700_000);
    await server.auction.tick();
    expect((await itemRow(server.db, item.itemId)).state).toBe('cancelled');
    expect(await server.db.selectFrom('sales').selectAll().where('item_id', '=', item.itemId).execute()).toEqual([]);
  });

  it('cancels a scheduled item without a broadcast, so it never starts', async () => {
    const watcher = await bidder(server, admin.token, 0);
    const item = await createItem(server, admin.token, { startsAt: clock.t + 1_000 });
    const answer = await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
    expect(answer.body).toMatchObject({ result: true, item: { state: 'cancelled' } });
    clock.advance(2_000);
    await server.auction.tick();
    expect((await itemRow(server.db, item.itemId)).state).toBe('cancelled');
    expect(watcher.auction.drain().filter((f) => (f.data as { itemId?: number } | undefined)?.itemId === item.itemId)).toEqual([]);
  });

  it('404 for an unknown item, 409 for a finished one', async () => {
    for (const id of ['999999', 'abc', '0', '-1']) {
      const answer = await call(server, 'POST', `/store/items/${id}/cancel`, { token: admin.token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.unknownItem });
    }
    const item = await createItem(server, admin.token, { duration: 10 });
    clock.advance(10_000);
    await server.auction.tick();
    const answer = await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: admin.token });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.notCancellable });
  });
});

describe('GET /store/history', () => {
  it('lists every sale newest first, optionally one buyer, paginated', async () => {
    const buyers = await Promise.all([bidder(server, admin.token, 10_000), bidder(server, admin.token, 10_000)]);
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const buyer = buyers[i % 2];
      const item = await createItem(server, admin.token, { itemName: `Relic ${i}`, duration: 10 });
      sendBid(buyer.auction, item.itemId, 100 + i);
      await bidCreated(buyer.auction, item.itemId, 100 + i, buyer.username);
      clock.advance(10_000);
      await server.auction.tick();
      names.push(`Relic ${i}`);
    }
    const all = await call(server, 'GET', '/store/history', { token: council.token });
    expect(all.status).toBe(200);
    const sales = all.body.sales as { itemName: string; username: string; amount: number; at: number }[];
    expect(sales.slice(0, 3).map((s) => s.itemName)).toEqual(names.reverse());
    expect(all.body).toMatchObject({ result: true, page: 1, pageSize: 50 });

    const one = await call(server, 'GET', `/store/history?user=${buyers[1].username}`, { token: admin.token });
    expect(one.body).toMatchObject({ total: 1, sales: [{ itemName: 'Relic 1', username: buyers[1].username, amount: 101 }] });
    const empty = await call(server, 'GET', '/store/history?page=99', { token: admin.token });
    expect(empty.body).toMatchObject({ result: true, sales: [], page: 99 });

    const nobody = await call(server, 'GET', '/store/history?user=nobody-here', { token: admin.token });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ result: false, error: POINTS_ERRORS.unknownUser });
    const badPage = await call(server, 'GET', '/store/history?page=-2', { token: admin.token });
    expect(badPage.status).toBe(400);
    expect(badPage.body).toEqual({ result: false, error: STORE_ERRORS.badPage });
    await expectBooksBalance(server.db);
  });
});

describe('ranks on the store routes', () => {
  const id = () => '1';
  it.each([
    ['GET', '/store/items', 'signed-in'],
    ['GET', '/store/my-history', 'signed-in'],
    ['POST', '/store/items', 'council'],
    ['POST', `/store/items/${id()}/cancel`, 'council'],
    ['GET', '/store/history', 'council'],
  ])('%s %s: anonymous 401%s', async (method, url, who) => {
    const body = method === 'POST' && url === '/store/items' ? itemBody() : undefined;
    const anonymous = await call(server, method, url, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ result: false });
    const asPlayer = await call(server, method, url, { token: player.token, body });
    if (who === 'council') {
      expect(asPlayer.status).toBe(403);
      expect(asPlayer.body).toMatchObject({ result: false });
    } else expect(asPlayer.status).toBe(200);
  });

  it('a player’s refused create or cancel changes nothing', async () => {
    const item = await createItem(server, admin.token);
    const before = await call(server, 'GET', '/store/items', { token: admin.token });
    await call(server, 'POST', '/store/items', { token: player.token, body: itemBody() });
    await call(server, 'POST', `/store/items/${item.itemId}/cancel`, { token: player.token });
    const after = await call(server, 'GET', '/store/items', { token: admin.token });
    expect(after.body.total).toBe(before.body.total);
    expect((await itemRow(server.db, item.itemId)).state).toBe('live');
  });
});
