import { describe, expect, it } from 'vitest';
import { BID_TIMEOUT_MS } from '../../src/machines/board.machine';
import { viewCard } from '../../src/auction/board-view';
import type { ServerMsg } from '../../src/protocol/socket';
import { checkBid } from '../../src/auction/bid-rule';
import { startBoard } from './support/board';
import { T0, auction, bidOf, itemOf } from './support/fixtures';

/**
 * The auction's rules as the board holds them: an item that starts
 * while the page is open is judged like one from HISTORY, a cancellation takes the item off the
 * board, the store's state and each item's held time come live, a bid with no answer stops
 * waiting, and the soft close's extensions are counted.
 */
const RULES = {
  minIncrement: 100,
  eligibility: { ranks: ['council'] },
  extendWindow: 30,
  maxExtensions: 2,
  extensions: 0,
  imageUrl: '/uploads/crown.png',
  description: 'A crown',
};

const startedFull = (itemId: number, extra: Record<string, unknown> = {}): ServerMsg => ({
  type: 'BIDDING_STARTED',
  data: { itemId, itemName: 'Crown', start_price: 300, timer: 60, timestamp: T0, endsAt: T0 + 60_000, ...RULES, ...extra },
});

describe('an item that starts while the page is open', () => {
  it('has the increment, eligibility, soft close and image of BIDDING_STARTED: next minimum 400 after a 300 bid, rank-limited', () => {
    const t = startBoard();
    t.server(startedFull(3));
    t.server(auction.bid({ itemId: 3, itemName: 'Crown', amount: 300, username: 'alice', endsAt: T0 + 60_000, extensions: 0 }));
    const card = viewCard(t.item(3).getSnapshot().context);
    expect(card).toMatchObject({ minimum: 400, minIncrement: 100, ranks: ['council'], groups: [], extendWindow: 30, maxExtensions: 2, imageUrl: '/uploads/crown.png' });
    const user = { username: 'bob', rank: 'user', available: 10_000 };
    expect(checkBid(400, t.item(3).getSnapshot().context, user)).toEqual({ ok: false, messageId: 'store.check.rank' });
    expect(checkBid(301, t.item(3).getSnapshot().context, { ...user, rank: 'council' })).toMatchObject({ ok: false, messageId: 'store.check.tooLow', values: { amount: 400 } });
  });

  it('is the same card after a reload (HISTORY) as it was live', () => {
    const live = startBoard();
    live.server(startedFull(3));
    const snapshot = startBoard();
    snapshot.server(auction.history([], [itemOf({ itemId: 3, itemName: 'Crown', amount: 300, start_price: 300, endsAt: T0 + 60_000, ...RULES })]));
    expect(viewCard(live.item(3).getSnapshot().context)).toEqual(viewCard(snapshot.item(3).getSnapshot().context));
  });
});

describe('soft close', () => {
  it('counts the extensions the server reports, and infers one from a later end in logs without the count', () => {
    const t = startBoard();
    t.server(startedFull(3));
    t.server(auction.bid({ itemId: 3, amount: 300, username: 'a', endsAt: T0 + 60_000, extensions: 0 }));
    t.server(auction.bid({ itemId: 3, amount: 400, username: 'b', timestamp: T0 + 40_000, endsAt: T0 + 70_000, extensions: 1 }));
    expect(viewCard(t.item(3).getSnapshot().context).extensions).toBe(1);
    // a reordered, older frame changes nothing
    t.server(auction.bid({ itemId: 3, amount: 350, username: 'c', endsAt: T0 + 60_000, extensions: 0 }));
    expect(viewCard(t.item(3).getSnapshot().context).extensions).toBe(1);
    // an old log: no count on the bid, the end moved
    const old = bidOf({ itemId: 3, amount: 500, username: 'd', timestamp: T0 + 50_000, endsAt: T0 + 80_000 });
    delete (old as { extensions?: number }).extensions;
    t.server({ type: 'BID_CREATED', data: old });
    expect(viewCard(t.item(3).getSnapshot().context).extensions).toBe(2);
  });
});

describe('ITEM_CANCELLED', () => {
  it('takes the item and its bids off the board, as a reload would; late frames about it change nothing', () => {
    const t = startBoard();
    t.server(startedFull(3));
    t.server(startedFull(4, { itemName: 'Horn' }));
    t.server(auction.bid({ itemId: 3, itemName: 'Crown', amount: 300, username: 'alice', endsAt: T0 + 60_000 }));
    t.server(auction.bid({ itemId: 4, itemName: 'Horn', amount: 300, username: 'bob', endsAt: T0 + 60_000 }));
    const ref = t.item(3);
    t.server({ type: 'ITEM_CANCELLED', data: { itemId: 3, itemName: 'Crown' } });
    expect(Object.keys(t.ctx().items)).toEqual(['4']);
    expect(ref.getSnapshot().status).toBe('stopped');
    expect(t.ctx().latestBids.map((b) => b.itemId)).toEqual([4]);
    t.server(auction.bid({ itemId: 3, itemName: 'Crown', amount: 500, username: 'carol', endsAt: T0 + 60_000 }));
    expect(Object.keys(t.ctx().items)).toEqual(['4']);
    // a HISTORY is the truth again
    t.server(auction.history([], [itemOf({ itemId: 3 })]));
    expect(Object.keys(t.ctx().items)).toEqual(['3']);
  });

  it('in one batch with the item’s start: the item is never on the board', () => {
    const t = startBoard();
    const frames = [startedFull(5), { type: 'ITEM_CANCELLED', data: { itemId: 5, itemName: 'Crown' } } as ServerMsg].map((msg) => ({ event: { type: 'message' as const, msg } }));
    t.board.send({ type: 'SERVER', frames });
    expect(t.ctx().items).toEqual({});
  });
});

describe('the store open or closed', () => {
  it('HISTORY says which (absent: open); STORE_STATE changes it live and holds, then resumes, each item', () => {
    const t = startBoard();
    t.server(auction.history([], [itemOf({ itemId: 3, endsAt: T0 + 60_000 })]));
    expect(t.ctx().store).toBe('open');
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'open' });

    t.clock.set(20_000);
    t.server({ type: 'STORE_STATE', data: { state: 'closed', timestamp: T0 + 20_000, items: [{ itemId: 3, endsAt: T0 + 60_000, heldMs: 40_000 }] } });
    expect(t.ctx().store).toBe('closed');
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'held' });
    expect(viewCard(t.item(3).getSnapshot().context).heldMs).toBe(40_000);
    // far past the old end: still held, never closing
    t.clock.set(600_000);
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'held' });

    t.server({ type: 'STORE_STATE', data: { state: 'open', timestamp: T0 + 600_000, items: [{ itemId: 3, endsAt: T0 + 640_000 }] } });
    expect(t.ctx().store).toBe('open');
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'open' });
    expect(t.item(3).getSnapshot().context).toMatchObject({ endsAt: T0 + 640_000, heldMs: null });
    t.clock.set(639_000);
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'open' });
    t.clock.set(640_000);
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'closing' });
  });

  it('a HISTORY while closed builds held items', () => {
    const t = startBoard();
    t.server({ type: 'HISTORY', data: { bids: [], items: [itemOf({ itemId: 3, endsAt: T0 + 10_000, heldMs: 9_000 })], store: 'closed' } });
    t.clock.set(60_000);
    expect(t.ctx().store).toBe('closed');
    expect(t.item(3).getSnapshot().value).toEqual({ live: 'held' });
  });
});

describe('a bid whose answer never comes', () => {
  it(`stops waiting after ${BID_TIMEOUT_MS / 1000} s on the actor system's clock and says so; the next bid clears it`, () => {
    const t = startBoard();
    t.server(startedFull(3));
    t.bid(3, 300);
    expect(Object.values(t.ctx().pending)).toEqual([{ itemId: 3, amount: 300 }]);
    t.clock.increment(BID_TIMEOUT_MS - 1);
    expect(Object.keys(t.ctx().pending)).toHaveLength(1);
    t.clock.increment(1);
    expect(t.ctx().pending).toEqual({});
    expect(t.ctx().unanswered).toEqual({ '3': 300 });
    t.bid(3, 300);
    expect(t.ctx().unanswered).toEqual({});
  });

  it('an answer in time cancels nothing else: the timeout of an answered bid changes nothing; a late answer clears the message', () => {
    const t = startBoard();
    t.server(startedFull(3));
    t.bid(3, 300);
    t.server(auction.bid({ itemId: 3, amount: 300, username: 'me', endsAt: T0 + 60_000 }));
    expect(t.ctx().pending).toEqual({});
    t.clock.increment(BID_TIMEOUT_MS);
    expect(t.ctx().unanswered).toEqual({});

    t.bid(3, 400);
    t.clock.increment(BID_TIMEOUT_MS);
    expect(t.ctx().unanswered).toEqual({ '3': 400 });
    t.server(auction.bid({ itemId: 3, amount: 400, username: 'me', endsAt: T0 + 60_000 }));
    expect(t.ctx().unanswered).toEqual({});
  });
});

describe('the bid check', () => {
  it('says how many points are available when the amount is more than that', () => {
    const target = { amount: 100, username: 'server', start_price: 100, minIncrement: 10 };
    expect(checkBid(5_000, target, { username: 'me', rank: 'user', available: 1_234 })).toEqual({
      ok: false,
      messageId: 'store.check.overBalance',
      values: { available: 1_234 },
    });
  });
});

describe('which items are live and finished (kept by the board, not by the views)', () => {
  const start = (itemId: number | string) => auction.started({ itemId, itemName: `Item ${itemId}`, start_price: 10, timestamp: T0, endsAt: T0 + 60_000 });

  it('live ones in id order, numbers first then strings, whatever order they started in', () => {
    const t = startBoard();
    for (const id of ['b-2', 10, 'a-1', 2]) t.server(start(id));
    expect(t.ctx().live).toEqual([2, 10, 'a-1', 'b-2']);
    expect(t.ctx().finished).toEqual([]);
  });

  it('finished ones most recently finished first; a cancelled item leaves both lists', () => {
    const t = startBoard();
    for (const id of [1, 2, 3]) t.server(start(id));
    t.server(auction.sold({ itemId: 2, itemName: 'Item 2', username: 'alice', amount: 50 }));
    t.server(auction.noBuyer({ itemId: 1, itemName: 'Item 1' }));
    expect(t.ctx().live).toEqual([3]);
    expect(t.ctx().finished).toEqual([1, 2]);
    t.server({ type: 'ITEM_CANCELLED', data: { itemId: 3, itemName: 'Item 3' } });
    expect(t.ctx().live).toEqual([]);
    expect(t.ctx().finished).toEqual([1, 2]);
  });

  it('a HISTORY gives its own lists: finished by most recent end', () => {
    const t = startBoard();
    t.server(start(9));
    t.server(
      auction.history(
        [],
        [
          itemOf({ itemId: 4, state: 'finished', endsAt: T0 + 1_000 }),
          itemOf({ itemId: 5, state: 'live' }),
          itemOf({ itemId: 6, state: 'finished', endsAt: T0 + 2_000 }),
        ],
      ),
    );
    expect(t.ctx().live).toEqual([5]);
    expect(t.ctx().finished).toEqual([6, 4]);
  });
});
