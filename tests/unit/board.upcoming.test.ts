import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { UPCOMING_REFRESH_MS, selectLive, selectUpcoming, selectUpcomingError } from '../../src/machines/board.machine';
import type { StoreItem } from '../../src/protocol/store';
import { startBoard } from './support/board';
import { T0, auction, deferred, itemOf, type Deferred } from './support/fixtures';

/**
 * The board keeps the upcoming (scheduled) items as well as the live and finished ones: the
 * store's REST list comes in as UPCOMING_LOADED (the answer of the `fetchUpcoming` actor the app
 * provides), an item leaves it when it starts or is cancelled, and the board fetches the list
 * while a view watches it, again every UPCOMING_REFRESH_MS on the actor system's clock.
 */
const scheduled = (itemId: number, startsAt: number, overrides: Partial<StoreItem> = {}): StoreItem => ({
  itemId,
  itemName: `Item ${itemId}`,
  description: '',
  imageUrl: null,
  type: 'auction',
  state: 'scheduled',
  start_price: 100,
  minIncrement: 10,
  amount: 100,
  username: 'server',
  startsAt,
  endsAt: startsAt + 60_000,
  timer: 60,
  timestamp: T0,
  extendWindow: 10,
  maxExtensions: 5,
  extensions: 0,
  eligibility: {},
  ...overrides,
});

const ids = (items: readonly StoreItem[]) => items.map((it) => it.itemId);

/** A board whose fetches of the upcoming items each wait for the test to answer them, in order. */
function boardWithFetches() {
  const calls: Deferred<StoreItem[]>[] = [];
  const t = startBoard({
    fetchUpcoming: () => {
      const call = deferred<StoreItem[]>();
      calls.push(call);
      return call.promise;
    },
  });
  const upcoming = () => selectUpcoming(t.board.getSnapshot());
  /** Answers the latest fetch and waits until the board has taken the answer in. */
  const answer = async (items: StoreItem[]) => {
    calls[calls.length - 1].resolve(items);
    await waitFor(t.board, (s) => s.matches({ upcoming: 'waiting' }));
  };
  return { ...t, calls, upcoming, answer };
}

describe('board: upcoming items', () => {
  it('starts with none, fetching nothing until a view watches them', () => {
    const t = boardWithFetches();
    expect(t.upcoming()).toEqual([]);
    expect(t.board.getSnapshot().matches({ upcoming: 'idle' })).toBe(true);
    t.clock.increment(10 * UPCOMING_REFRESH_MS);
    expect(t.calls).toHaveLength(0);
  });

  it('UPCOMING_LOADED keeps the scheduled items, soonest start first (then by id)', () => {
    const t = startBoard();
    const a = scheduled(8, T0 + 90_000);
    const b = scheduled(5, T0 + 30_000);
    const c = scheduled(6, T0 + 90_000);
    const notScheduled = scheduled(9, T0 + 10_000, { state: 'live' });
    t.board.send({ type: 'UPCOMING_LOADED', items: [a, b, notScheduled, c] });
    expect(ids(t.ctx().upcoming)).toEqual([5, 6, 8]);
    expect(t.ctx().upcoming[0]).toEqual(b);
  });

  it('an answer leaves out items the board already has live or finished, and items it heard were cancelled', () => {
    const t = startBoard();
    t.server(auction.started({ itemId: 3, itemName: 'Item 3', start_price: 100, timestamp: T0, endsAt: T0 + 60_000 }));
    t.server(auction.started({ itemId: 4, itemName: 'Item 4', start_price: 100, timestamp: T0, endsAt: T0 + 60_000 }));
    t.server(auction.noBuyer({ itemId: 4, itemName: 'Item 4' }));
    t.server({ type: 'ITEM_CANCELLED', data: { itemId: 7, itemName: 'Item 7' } });
    t.board.send({ type: 'UPCOMING_LOADED', items: [scheduled(3, T0), scheduled(4, T0), scheduled(5, T0 + 1), scheduled(7, T0 + 2)] });
    expect(ids(t.ctx().upcoming)).toEqual([5]);
  });

  it('BIDDING_STARTED moves an upcoming item to live', () => {
    const t = startBoard();
    t.board.send({ type: 'UPCOMING_LOADED', items: [scheduled(5, T0 + 30_000), scheduled(6, T0 + 60_000)] });
    const before = t.ctx().upcoming;
    t.server(auction.started({ itemId: 5, itemName: 'Item 5', start_price: 100, timestamp: T0 + 30_000, endsAt: T0 + 90_000 }));
    expect(ids(t.ctx().upcoming)).toEqual([6]);
    expect(t.ctx().live).toEqual([5]);
    expect(selectLive(t.board.getSnapshot()).map((ref) => ref.getSnapshot().context.itemId)).toEqual([5]);
    // a new list, the old one untouched (no mutation in a transition)
    expect(ids(before)).toEqual([5, 6]);
  });

  it('the first bid heard of an upcoming item (its start missed) moves it to live too', () => {
    const t = startBoard();
    t.board.send({ type: 'UPCOMING_LOADED', items: [scheduled(5, T0)] });
    t.server(auction.bid({ itemId: 5, itemName: 'Item 5', amount: 150, username: 'Beorn', timer: 30, timestamp: T0 + 1_000, endsAt: T0 + 31_000 }));
    expect(t.ctx().upcoming).toEqual([]);
    expect(t.ctx().live).toEqual([5]);
  });

  it('ITEM_CANCELLED takes a cancelled upcoming item off the list', () => {
    const t = startBoard();
    t.board.send({ type: 'UPCOMING_LOADED', items: [scheduled(5, T0 + 30_000), scheduled(6, T0 + 60_000)] });
    t.server({ type: 'ITEM_CANCELLED', data: { itemId: 6, itemName: 'Item 6' } });
    expect(ids(t.ctx().upcoming)).toEqual([5]);
    expect(t.ctx().live).toEqual([]);
  });

  it('a HISTORY that lists an upcoming item as live or finished takes it off the list', () => {
    const t = startBoard();
    t.board.send({ type: 'UPCOMING_LOADED', items: [scheduled(3, T0), scheduled(5, T0 + 1), scheduled(6, T0 + 2)] });
    t.server(auction.history([], [itemOf({ itemId: 3, state: 'live' }), itemOf({ itemId: 6, state: 'finished' })]));
    expect(ids(t.ctx().upcoming)).toEqual([5]);
  });

  it('frames about items that were never upcoming leave the list as it was (the same list)', () => {
    const t = startBoard();
    t.board.send({ type: 'UPCOMING_LOADED', items: [scheduled(5, T0)] });
    const before = t.ctx().upcoming;
    t.server(auction.started({ itemId: 3, itemName: 'Item 3', start_price: 100, timestamp: T0, endsAt: T0 + 60_000 }));
    t.server(auction.bid({ itemId: 3, itemName: 'Item 3', amount: 150, username: 'Beorn', timer: 30, timestamp: T0 + 1_000, endsAt: T0 + 60_000 }));
    expect(t.ctx().upcoming).toBe(before);
  });

  it('a view that watches makes the board fetch at once, then every UPCOMING_REFRESH_MS on the actor system clock', async () => {
    const t = boardWithFetches();
    t.board.send({ type: 'UPCOMING_WATCH' });
    expect(t.calls).toHaveLength(1);
    await t.answer([scheduled(5, T0 + 30_000)]);
    expect(ids(t.upcoming())).toEqual([5]);
    t.clock.increment(UPCOMING_REFRESH_MS - 1);
    expect(t.calls).toHaveLength(1);
    t.clock.increment(1);
    expect(t.calls).toHaveLength(2);
    await t.answer([scheduled(5, T0 + 30_000), scheduled(6, T0 + 20_000)]);
    expect(ids(t.upcoming())).toEqual([6, 5]);
  });

  it('when the last view stops watching, the board stops fetching (and keeps what it has); a view that comes back fetches at once', async () => {
    const t = boardWithFetches();
    t.board.send({ type: 'UPCOMING_WATCH' });
    t.board.send({ type: 'UPCOMING_WATCH' });
    await t.answer([scheduled(5, T0)]);
    t.board.send({ type: 'UPCOMING_UNWATCH' });
    t.clock.increment(UPCOMING_REFRESH_MS);
    expect(t.calls).toHaveLength(2); // one view still watches
    await t.answer([scheduled(5, T0)]);
    t.board.send({ type: 'UPCOMING_UNWATCH' });
    expect(t.board.getSnapshot().matches({ upcoming: 'idle' })).toBe(true);
    t.clock.increment(10 * UPCOMING_REFRESH_MS);
    expect(t.calls).toHaveLength(2);
    expect(ids(t.upcoming())).toEqual([5]);
    t.board.send({ type: 'UPCOMING_WATCH' });
    expect(t.calls).toHaveLength(3);
  });

  it('a view that stops watching while a fetch is under way drops its answer', async () => {
    const t = boardWithFetches();
    t.board.send({ type: 'UPCOMING_WATCH' });
    t.board.send({ type: 'UPCOMING_UNWATCH' });
    t.calls[0].resolve([scheduled(5, T0)]);
    await t.calls[0].promise;
    await Promise.resolve();
    expect(t.upcoming()).toEqual([]);
    expect(t.board.getSnapshot().matches({ upcoming: 'idle' })).toBe(true);
  });

  it('an answer that comes after an item started does not bring the item back', async () => {
    const t = boardWithFetches();
    t.board.send({ type: 'UPCOMING_WATCH' });
    t.server(auction.started({ itemId: 5, itemName: 'Item 5', start_price: 100, timestamp: T0, endsAt: T0 + 60_000 }));
    await t.answer([scheduled(5, T0), scheduled(6, T0 + 1)]);
    expect(ids(t.upcoming())).toEqual([6]);
    expect(t.ctx().live).toEqual([5]);
  });

  it("a failed fetch says why, keeps the list, and is tried again after UPCOMING_REFRESH_MS; a good answer clears it", async () => {
    const t = boardWithFetches();
    t.board.send({ type: 'UPCOMING_WATCH' });
    await t.answer([scheduled(5, T0)]);
    t.clock.increment(UPCOMING_REFRESH_MS);
    t.calls[1].reject(new Error('Service unavailable'));
    await waitFor(t.board, (s) => s.matches({ upcoming: 'waiting' }));
    expect(selectUpcomingError(t.board.getSnapshot())).toBe('Service unavailable');
    expect(ids(t.upcoming())).toEqual([5]);
    t.clock.increment(UPCOMING_REFRESH_MS);
    expect(t.calls).toHaveLength(3);
    await t.answer([]);
    expect(selectUpcomingError(t.board.getSnapshot())).toBeNull();
    expect(t.upcoming()).toEqual([]);
  });

  it('the upcoming part of the context is plain JSON data', async () => {
    const t = boardWithFetches();
    t.board.send({ type: 'UPCOMING_WATCH' });
    await t.answer([scheduled(5, T0), scheduled(6, T0 + 1)]);
    const { upcoming, upcomingError, upcomingWatchers } = t.ctx();
    const part = { upcoming, upcomingError, upcomingWatchers };
    expect(JSON.parse(JSON.stringify(part))).toEqual(part);
  });
});
