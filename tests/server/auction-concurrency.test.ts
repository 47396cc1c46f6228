import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bidder, counts, createItem, expectBooksBalance, itemRow, newRequestId, type Bidder } from './auction-helpers';
import { authedSocket, signedIn, startTestServer, type TestSocket } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  server = await startTestServer({
    frameRateLimit: { perSecond: 10_000, burst: 10_000 },
    loginRateLimit: { perEmail: 100, perAddress: 10_000, windowMs: 60_000 },
  });
  admin = await signedIn(server, 'admin');
});
afterAll(() => server.close());

type Answer = { accepted: true; amount: number } | { accepted: false; errorType: string };

/** Waits for the answer to one bid: its own BID_CREATED, or the ERROR naming its requestId. */
function answerOf(who: Bidder, socket: TestSocket, itemId: number, amount: number, requestId: string): Promise<Answer> {
  return socket
    .waitFor((f) => {
      const d = (f.data ?? {}) as { itemId?: number; amount?: number; username?: string; requestId?: string };
      if (f.type === 'ERROR') return d.requestId === requestId;
      return f.type === 'BID_CREATED' && d.itemId === itemId && d.amount === amount && d.username === who.username;
    }, 10_000)
    .then((f) => (f.type === 'ERROR' ? { accepted: false, errorType: f.error_type as string } : { accepted: true, amount }));
}

describe('many sockets bidding at once on one item', () => {
  it('ends consistent: the highest valid bid leads, accepted bids rise by at least minIncrement, reserved is right for everyone', async () => {
    const players = await Promise.all(Array.from({ length: 20 }, () => bidder(server, admin.token, 100_000, 'crowd')));
    const observer = await authedSocket(server.auctionUrl, admin.token);
    await observer.nextOf('HISTORY');
    const item = await createItem(server, admin.token, { start_price: 100, minIncrement: 7, duration: 3_600 });

    // every player fires 5 bids at once, rising, with overlapping amounts
    const pending: Promise<Answer & { who: Bidder }>[] = [];
    for (const [n, who] of players.entries()) {
      for (let k = 0; k < 5; k++) {
        const amount = 100 + k * 40 + n * 3;
        const requestId = newRequestId();
        pending.push(answerOf(who, who.auction, item.itemId, amount, requestId).then((a) => ({ ...a, who })));
        who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount, requestId } });
      }
    }
    const answers = await Promise.all(pending);
    const accepted = answers.filter((a): a is { accepted: true; amount: number; who: Bidder } => a.accepted);
    expect(accepted.length).toBeGreaterThan(0);
    for (const a of answers) if (!a.accepted) expect(a.errorType).toBe('BID_AMOUNT_ERROR');

    const bids = await server.db.selectFrom('bids').select(['amount', 'user_id']).where('item_id', '=', item.itemId).orderBy('id').execute();
    expect(bids.map((b) => b.amount).sort((x, y) => x - y)).toEqual(accepted.map((a) => a.amount).sort((x, y) => x - y));
    for (let i = 1; i < bids.length; i++) expect(bids[i].amount - bids[i - 1].amount).toBeGreaterThanOrEqual(7);
    const top = bids[bids.length - 1];
    expect(await itemRow(server.db, item.itemId)).toMatchObject({ amount: top.amount, leader_id: top.user_id });

    // everyone heard the accepted bids in commit order
    const heard: number[] = [];
    while (heard.length < bids.length) {
      const frame = await observer.waitFor((f) => f.type === 'BID_CREATED' && (f.data as { itemId: number }).itemId === item.itemId);
      heard.push((frame.data as { amount: number }).amount);
    }
    expect(heard).toEqual(bids.map((b) => b.amount));

    for (const who of players) {
      const row = await server.db.selectFrom('users').select('reserved').where('id', '=', who.id).executeTakeFirstOrThrow();
      expect(row.reserved).toBe(who.id === top.user_id ? top.amount : 0);
    }
    await expectBooksBalance(server.db);
    observer.close();
  });
});

describe('one player, all their points, two items, two sockets, at once', () => {
  it('exactly one bid is accepted and the other gets OUT_OF_BALANCE (ten rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const who = await bidder(server, admin.token, 1_000, 'spender');
      const second = await authedSocket(server.auctionUrl, who.token);
      await second.nextOf('HISTORY');
      const [one, two] = await Promise.all([createItem(server, admin.token), createItem(server, admin.token)]);
      const [r1, r2] = [newRequestId(), newRequestId()];
      const answers = Promise.all([answerOf(who, who.auction, one.itemId, 1_000, r1), answerOf(who, second, two.itemId, 1_000, r2)]);
      who.auction.send({ type: 'CREATE_BID', data: { itemId: one.itemId, amount: 1_000, requestId: r1 } });
      second.send({ type: 'CREATE_BID', data: { itemId: two.itemId, amount: 1_000, requestId: r2 } });
      const [a1, a2] = await answers;
      expect([a1.accepted, a2.accepted].filter(Boolean)).toHaveLength(1);
      const refused = a1.accepted ? a2 : a1;
      expect(refused).toEqual({ accepted: false, errorType: 'OUT_OF_BALANCE' });
      const row = await server.db.selectFrom('users').select(['balance', 'reserved']).where('id', '=', who.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ balance: 1_000, reserved: 1_000 });
      second.close();
      who.auction.close();
      who.user.close();
    }
    await expectBooksBalance(server.db);
  });
});

describe('the same requestId from two sockets at once', () => {
  it('makes one bid, and both sockets get BID_CREATED for it', async () => {
    const who = await bidder(server, admin.token, 1_000, 'twin');
    const second = await authedSocket(server.auctionUrl, who.token);
    await second.nextOf('HISTORY');
    const item = await createItem(server, admin.token);
    const before = (await counts(server.db)).bids;
    const requestId = newRequestId();
    const answers = Promise.all([answerOf(who, who.auction, item.itemId, 300, requestId), answerOf(who, second, item.itemId, 300, requestId)]);
    who.auction.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 300, requestId } });
    second.send({ type: 'CREATE_BID', data: { itemId: item.itemId, amount: 300, requestId } });
    expect(await answers).toEqual([
      { accepted: true, amount: 300 },
      { accepted: true, amount: 300 },
    ]);
    expect((await counts(server.db)).bids).toBe(before + 1);
    expect(await server.db.selectFrom('users').select('reserved').where('id', '=', who.id).executeTakeFirstOrThrow()).toEqual({ reserved: 300 });
    second.close();
  });
});
