import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../src/protocol/socket';
import { bidCreated, bidder, counts, createItem, expectBooksBalance, type Bidder } from './auction-helpers';
import { DEFAULT_SOCKET_LIMITS } from '../../server/sockets/limits';
import { authedSocket, signedIn, startTestServer, TestSocket } from './helpers';

describe('the per-connection flood limit', () => {
  // the budgets' clock, moved by hand
  let t = 0;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    server = await startTestServer({ frameRateLimit: { perSecond: 10, burst: 5 } }, { socketClock: () => t });
    admin = await signedIn(server, 'admin');
  });
  afterAll(() => server.close());

  it('drops frames over the limit, warning once with WS_ERROR naming the first dropped bid, stores none of them, and recovers', async () => {
    const who = await bidder(server, admin.token, 100_000);
    t += 60_000; // the bucket refills after the frames the setup sent
    const item = await createItem(server, admin.token, { start_price: 1, minIncrement: 1 });
    const before = await counts(server.db);
    const ids = Array.from({ length: 12 }, (_, i) => `flood-${i}`);
    ids.forEach((requestId, i) => who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 10 + i, requestId } }));

    const accepted: number[] = [];
    for (let i = 0; i < 5; i++) accepted.push(((await who.auction.nextOf('BID_CREATED')).data as { amount: number }).amount);
    expect(accepted).toEqual([10, 11, 12, 13, 14]);
    expect(await who.auction.nextOf('ERROR')).toEqual({ type: 'ERROR', error_type: 'WS_ERROR', data: { itemId: item.itemId, requestId: 'flood-5' } });
    // once refilled, the next frame answers the next request: the dropped bids were never answered
    t += 60_000;
    await server.auction.exclusive(async () => undefined);
    expect(await who.auction.roundTrip(undefined, (f) => f.type === 'BIDDING_STARTED')).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    expect(who.auction.drain().filter((f) => f.type !== 'BIDDING_STARTED')).toEqual([]);
    // the dropped ones were never seen by the engine: no bid, no remembered answer
    const remembered = await server.db.selectFrom('bid_requests').select('request_id').where('request_id', 'in', ids.slice(5)).execute();
    expect(remembered).toEqual([]);
    expect((await counts(server.db)).bids).toBe(before.bids + accepted.length);

    t += 1_000;
    who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 1_000, requestId: 'after-the-flood' } });
    await bidCreated(who.auction, item.itemId, 1_000, who.username);
    await expectBooksBalance(server.db);
  });

  it('limits unauthenticated connections too: over the budget, the connection is destroyed unanswered', async () => {
    t += 60_000;
    const socket = await TestSocket.open(server.userUrl);
    for (let i = 0; i < 5; i++) expect(await socket.roundTrip({ type: 'GET_STATUS' })).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
    for (let i = 0; i < 3; i++) socket.send({ type: 'GET_STATUS' });
    expect((await socket.closed).code).toBe(1006);
    expect(socket.drain()).toEqual([]);
  });
});

describe('nothing a client sends can crash the server or change data wrongly', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let who: Bidder;
  beforeAll(async () => {
    const unlimited = { perSecond: 100_000, burst: 100_000 };
    server = await startTestServer({ frameRateLimit: unlimited, socketLimits: { ...DEFAULT_SOCKET_LIMITS, accountFrames: unlimited, addressFrames: unlimited } });
    admin = await signedIn(server, 'admin');
    who = await bidder(server, admin.token, 1_000);
  });
  afterAll(() => server.close());

  it('a CREATE_BID over the size limit gets WS_ERROR and is not stored', async () => {
    const item = await createItem(server, admin.token);
    who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 500, requestId: 'big' }, pad: 'x'.repeat(MAX_FRAME_BYTES) });
    expect(await who.auction.nextOf('ERROR')).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    expect(await server.db.selectFrom('bid_requests').selectAll().where('request_id', '=', 'big').execute()).toEqual([]);
  });

  it('a requestId with a NUL gets WS_ERROR and leaves the bids beside it alone (PostgreSQL cannot store a NUL: in a group it failed every bid)', async () => {
    const other = await bidder(server, admin.token, 1_000, 'beside');
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 1 });
    // in one turn of the server, so that on PostgreSQL they would share one group commit
    who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 20, requestId: 'nul\u0000id' } });
    other.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 15, requestId: 'beside-1' } });
    expect(await who.auction.nextOf('ERROR')).toEqual({ type: 'ERROR', error_type: 'WS_ERROR' });
    await bidCreated(other.auction, item.itemId, 15, other.username);
    expect(await server.db.selectFrom('bid_requests').select('request_id').where('item_id', '=', item.itemId).execute()).toEqual([{ request_id: 'beside-1' }]);
    other.auction.close();
    other.user.close();
  });

  it('survives a storm of random frames on both sockets; every answer is an ERROR or a bid it allowed', async () => {
    const item = await createItem(server, admin.token, { start_price: 10, minIncrement: 1 });
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const values = () =>
      pick<unknown>([
        null,
        true,
        -1,
        0,
        1.5,
        item.itemId,
        2 ** 53,
        1e308,
        'x',
        '',
        '💥'.repeat(30),
        [],
        {},
        { nested: { deeper: [1, 2, 3] } },
        'CREATE_BID',
        'a'.repeat(65),
      ]);
    // (a bad AUTHENTICATION closes the socket with 4401 by design, so the storm leaves it out)
    const frames: unknown[] = [];
    for (let i = 0; i < 300; i++) {
      const kind = random();
      if (kind < 0.2) frames.push(`{"type":"CREATE_BID","data":${pick(['{', '[]', 'null', '1e999', '"x"'])}}`);
      else if (kind < 0.6) frames.push({ type: 'CREATE_BID', data: { itemId: values(), amount: values(), requestId: values() } });
      else if (kind < 0.8) frames.push({ type: pick(['GET_STATUS', 'HISTORY', 'WINNER', '__proto__', 'constructor']), data: values(), access_token: values() });
      else frames.push(values());
    }
    const user = await authedSocket(server.userUrl, who.token);
    for (const frame of frames) {
      const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
      who.auction.send(text);
      user.send(text);
    }
    // both still answer, in order, after the storm
    user.send({ type: 'GET_STATUS' });
    await user.nextOf('STATUS', 10_000);
    who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 900, requestId: 'after-the-storm' } });
    await bidCreated(who.auction, item.itemId, 900, who.username, 10_000);

    for (const frame of who.auction.drain()) {
      if (frame.type === 'BID_CREATED' || frame.type === 'BIDDING_STARTED') continue;
      expect(frame.type, JSON.stringify(frame)).toBe('ERROR');
    }
    const bids = await server.db.selectFrom('bids').select(['amount', 'user_id']).where('item_id', '=', item.itemId).orderBy('id').execute();
    expect(bids.at(-1)).toEqual({ amount: 900, user_id: who.id });
    for (const b of bids) expect(Number.isSafeInteger(b.amount) && b.amount > 0).toBe(true);
    await expectBooksBalance(server.db);
    user.close();
  });
});
