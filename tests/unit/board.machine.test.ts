import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LATEST_BIDS, insertBid, mergeBids, serverTime } from '../../src/machines/board.machine';
import type { MessageFrame } from '../../src/machines/connection.machine';
import { clientFrame, isSealedBid, type Bid } from '../../src/protocol/socket';
import { fold, startBoard, type LogEntry } from './support/board';
import { T0, auction, bidOf, itemOf } from './support/fixtures';

/**
 * In these tests the local clock starts at 0 and the server's clock reads T0 then: a frame the
 * server stamped at T0 + t that arrives at once arrives at local time t.
 */
const NAMES: Record<number, string> = { 3: 'Golden Key', 4: 'Silver Horn', 5: 'Dragon Banner', 6: 'Iron Crown', 7: 'Horn of the North' };

/** A bid on `itemId` stamped `t` ms after T0. */
const b = (itemId: number, amount: number, username: string, t: number, endsAt: number): Bid =>
  bidOf({ itemId, itemName: NAMES[itemId], amount, username, timestamp: T0 + t, endsAt });

const started = (itemId: number, start_price: number, t: number, endsAt: number) =>
  auction.started({ itemId, itemName: NAMES[itemId], start_price, timestamp: T0 + t, endsAt });

// ── a recorded session: four items, bids, a soft close, a sale and an item nobody bought ──────
const BID_3_100 = b(3, 100, 'Aethelred', 5_000, T0 + 60_000);
const BID_4_60 = b(4, 60, 'Beorn', 8_000, T0 + 31_000);
const BID_3_120 = b(3, 120, 'Cynric', 12_000, T0 + 60_000);
const BID_4_70 = b(4, 70, 'Aethelred', 20_000, T0 + 31_000);
const BID_3_150 = b(3, 150, 'Aethelred', 25_000, T0 + 60_000);
const BID_4_90 = b(4, 90, 'Cynric', 28_000, T0 + 38_000); // in the last 10 s: the end moves
const BID_3_180 = b(3, 180, 'Beorn', 45_000, T0 + 60_000);

const LOG: LogEntry[] = [
  { t: 0, msg: started(3, 100, 0, T0 + 60_000) },
  { t: 1_000, msg: started(4, 50, 1_000, T0 + 31_000) },
  { t: 2_000, msg: started(6, 40, 2_000, T0 + 20_000) },
  { t: 5_000, msg: auction.bid(BID_3_100) },
  { t: 8_000, msg: auction.bid(BID_4_60) },
  { t: 12_000, msg: auction.bid(BID_3_120) },
  { t: 20_000, msg: auction.bid(BID_4_70) },
  { t: 20_500, msg: auction.noBuyer({ itemId: 6, itemName: NAMES[6] }) },
  { t: 25_000, msg: auction.bid(BID_3_150) },
  { t: 28_000, msg: auction.bid(BID_4_90) },
  { t: 38_500, msg: auction.sold({ itemId: 4, itemName: NAMES[4], username: 'Cynric', amount: 90 }) },
  { t: 40_000, msg: started(5, 200, 40_000, T0 + 100_000) },
  { t: 45_000, msg: auction.bid(BID_3_180) },
];
const END = 61_000;

/** The board after LOG, at END: item 3's end has passed (closing), 4 sold, 5 open, 6 unsold. */
const EXPECTED = {
  connected: true,
  latestBids: [BID_3_180, BID_4_90, BID_3_150, BID_4_70, BID_3_120],
  items: {
    '3': { itemId: 3, itemName: 'Golden Key', amount: 180, username: 'Beorn', state: { live: 'closing' }, endsAt: T0 + 60_000 },
    '4': { itemId: 4, itemName: 'Silver Horn', amount: 90, username: 'Cynric', state: 'finished', endsAt: T0 + 38_000 },
    '5': { itemId: 5, itemName: 'Dragon Banner', amount: 200, username: 'server', state: { live: 'open' }, endsAt: T0 + 100_000 },
    '6': { itemId: 6, itemName: 'Iron Crown', amount: 40, username: 'server', state: 'finished', endsAt: T0 + 20_000 },
  },
};

/** A snapshot at END that disagrees with everything LOG built. */
const SNAPSHOT_BIDS = [b(7, 300, 'Dunstan', 60_500, T0 + 90_000), b(3, 180, 'Beorn', 45_000, T0 + 60_000)];
const SNAPSHOT_ITEMS = [
  itemOf({ itemId: 7, itemName: NAMES[7], amount: 300, username: 'Dunstan', timestamp: T0 + END, endsAt: T0 + 90_000 }),
  itemOf({ itemId: 3, itemName: NAMES[3], amount: 180, username: 'Beorn', timestamp: T0 + END, endsAt: T0 + 60_000, state: 'finished' }),
];
const SNAPSHOT = auction.history(SNAPSHOT_BIDS, SNAPSHOT_ITEMS);
const EXPECTED_AFTER_SNAPSHOT = {
  connected: true,
  latestBids: SNAPSHOT_BIDS,
  items: {
    '3': { itemId: 3, itemName: 'Golden Key', amount: 180, username: 'Beorn', state: 'finished', endsAt: T0 + 60_000 },
    '7': { itemId: 7, itemName: NAMES[7], amount: 300, username: 'Dunstan', state: { live: 'open' }, endsAt: T0 + 90_000 },
  },
};

describe('mergeBids', () => {
  it('puts the newest first by server time, whatever order they came in', () => {
    const [x, y, z] = [b(3, 100, 'A', 1_000, T0), b(4, 60, 'B', 2_000, T0), b(3, 120, 'C', 3_000, T0)];
    expect(mergeBids([x], [z, y])).toEqual([z, y, x]);
    expect(mergeBids([z], [x])).toEqual([z, x]);
  });

  it(`keeps at most ${LATEST_BIDS}`, () => {
    expect(LATEST_BIDS).toBe(5);
    const bids = [1, 2, 3, 4, 5, 6, 7].map((i) => b(3, 100 + i * 10, 'A', i * 1_000, T0));
    expect(mergeBids(bids.slice(0, 5), bids.slice(5))).toEqual(bids.slice(2).reverse());
  });

  it('drops a bid it already has (same item, same amount)', () => {
    const x = b(3, 100, 'A', 1_000, T0);
    const y = b(4, 100, 'B', 2_000, T0);
    expect(mergeBids([y, x], [x])).toEqual([y, x]);
    expect(mergeBids([], [x, x, y, y])).toEqual([y, x]);
  });

  it('orders bids with the same timestamp by amount, highest first', () => {
    const low = b(3, 100, 'A', 1_000, T0);
    const high = b(4, 200, 'B', 1_000, T0);
    expect(mergeBids([high], [low])).toEqual([high, low]);
    expect(mergeBids([low], [high])).toEqual([high, low]);
  });
});

describe('insertBid', () => {
  it('puts one bid where mergeBids would, ties and repeats included', () => {
    const arbBid = fc
      .record({ itemId: fc.integer({ min: 3, max: 5 }), amount: fc.integer({ min: 1, max: 6 }), who: fc.constantFrom('A', 'B'), t: fc.integer({ min: 0, max: 4 }) })
      .map(({ itemId, amount, who, t }) => b(itemId, amount * 10, who, t, T0));
    fc.assert(
      fc.property(fc.array(arbBid, { maxLength: 30 }), (bids) => {
        let merged: Bid[] = [];
        let inserted: Bid[] = [];
        for (const bid of bids) {
          merged = mergeBids(merged, [bid]);
          inserted = insertBid(inserted, bid);
          expect(inserted).toEqual(merged);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('board machine', () => {
  it('starts empty and not connected, with no server-time estimate', () => {
    const t = startBoard();
    expect(t.project()).toEqual({ connected: false, latestBids: [], items: {} });
    expect(t.ctx().pending).toEqual({});
    expect(t.ctx().serverOffset).toBeNull();
  });

  it('CONNECTED sets and clears the connected flag', () => {
    const t = startBoard();
    t.board.send({ type: 'CONNECTED', connected: true });
    expect(t.ctx().connected).toBe(true);
    t.board.send({ type: 'CONNECTED', connected: false });
    expect(t.ctx().connected).toBe(false);
  });

  describe('items', () => {
    it('BIDDING_STARTED spawns a live item at its start price, led by `server`', () => {
      const t = startBoard();
      t.server(started(5, 200, 0, T0 + 30_000));
      expect(t.project().items).toEqual({
        '5': { itemId: 5, itemName: 'Dragon Banner', amount: 200, username: 'server', state: { live: 'open' }, endsAt: T0 + 30_000 },
      });
      expect(Object.keys(t.board.getSnapshot().children)).toHaveLength(1);
      expect(t.ctx().latestBids).toEqual([]);
    });

    it('BID_CREATED for an item it has not seen spawns it live with the bid as the lead', () => {
      const t = startBoard();
      t.server(auction.bid(b(4, 60, 'Beorn', 0, T0 + 31_000)));
      expect(t.project().items['4']).toEqual({ itemId: 4, itemName: 'Silver Horn', amount: 60, username: 'Beorn', state: { live: 'open' }, endsAt: T0 + 31_000 });
    });

    it('later frames go to the same item actor (no second spawn)', () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 30_000));
      const ref = t.item(3);
      t.server(auction.bid(b(3, 110, 'Beorn', 1_000, T0 + 30_000)));
      t.server(auction.bid(b(3, 120, 'Cynric', 2_000, T0 + 30_000)));
      expect(t.item(3)).toBe(ref);
      expect(Object.keys(t.board.getSnapshot().children)).toHaveLength(1);
      expect(ref.getSnapshot().context).toMatchObject({ amount: 120, username: 'Cynric' });
    });

    it('SALE_COMPLETED finishes the item, sold', () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 30_000));
      t.server(auction.bid(b(3, 150, 'Beorn', 1_000, T0 + 30_000)));
      t.clock.set(30_100);
      t.server(auction.sold({ itemId: 3, itemName: 'Golden Key', username: 'Beorn', amount: 150 }));
      expect(t.item(3).getSnapshot().value).toBe('finished');
      expect(t.item(3).getSnapshot().context).toMatchObject({ sold: true, username: 'Beorn', amount: 150 });
    });

    it('NO_BUYER finishes the item, unsold', () => {
      const t = startBoard();
      t.server(started(6, 40, 0, T0 + 20_000));
      t.clock.set(20_100);
      t.server(auction.noBuyer({ itemId: 6, itemName: 'Iron Crown' }));
      expect(t.item(6).getSnapshot().value).toBe('finished');
      expect(t.item(6).getSnapshot().context.sold).toBe(false);
    });

    it('a settlement for an item it has not seen adds it, finished', () => {
      const t = startBoard();
      t.server(auction.sold({ itemId: 4, itemName: 'Silver Horn', username: 'Cynric', amount: 90 }));
      t.server(auction.noBuyer({ itemId: 6, itemName: 'Iron Crown' }));
      expect(t.project().items).toMatchObject({
        '4': { itemName: 'Silver Horn', username: 'Cynric', amount: 90, state: 'finished' },
        '6': { itemName: 'Iron Crown', state: 'finished' },
      });
    });

    it('messages for one item leave the others alone', () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 30_000));
      t.server(started(4, 50, 0, T0 + 30_000));
      t.server(auction.bid(b(4, 60, 'Beorn', 1_000, T0 + 30_000)));
      t.server(auction.sold({ itemId: 4, itemName: 'Silver Horn', username: 'Beorn', amount: 60 }));
      expect(t.project().items['3']).toEqual({ itemId: 3, itemName: 'Golden Key', amount: 100, username: 'server', state: { live: 'open' }, endsAt: T0 + 30_000 });
    });

    it('messages that are not about items (WINNER, OUTBID, ERROR, STATUS) change no item and no bid', () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 30_000));
      const before = t.project();
      t.server(auction.winner({ itemId: 3, itemName: 'Golden Key', username: 'Beorn', amount: 500 }));
      t.server(auction.outbid(b(3, 400, 'Cynric', 1_000, T0 + 30_000)));
      t.server(auction.error('BID_AMOUNT_ERROR', { itemId: 3 }));
      t.server({ type: 'STATUS', data: { username: 'Beorn', rank: 'user', balance: 1, reserved: 0, available: 1 } });
      expect(t.project()).toEqual(before);
      expect(Object.keys(t.board.getSnapshot().children)).toHaveLength(1);
    });
  });

  describe('latest bids', () => {
    it('keeps the 5 newest first', () => {
      const t = startBoard();
      const bids = [1, 2, 3, 4, 5, 6, 7].map((i) => b(i % 2 ? 3 : 4, 100 + i * 10, 'Aethelred', i * 1_000, T0 + 60_000));
      for (const bid of bids) {
        t.clock.set(bid.timestamp - T0);
        t.server(auction.bid(bid));
      }
      expect(t.ctx().latestBids).toEqual(bids.slice(2).reverse());
    });

    it('a duplicated BID_CREATED appears once', () => {
      const t = startBoard();
      const x = b(3, 110, 'Beorn', 1_000, T0 + 30_000);
      const y = b(3, 120, 'Cynric', 2_000, T0 + 30_000);
      t.server(auction.bid(x));
      t.server(auction.bid(y));
      t.server(auction.bid(x));
      t.server(auction.bid(y));
      expect(t.ctx().latestBids).toEqual([y, x]);
    });

    it('a lower bid that comes after a higher one is listed by its time, and the item keeps the higher', () => {
      const t = startBoard();
      const high = b(3, 150, 'Beorn', 2_000, T0 + 30_000);
      const low = b(3, 120, 'Cynric', 1_000, T0 + 30_000);
      t.server(auction.bid(high));
      t.server(auction.bid(low));
      expect(t.ctx().latestBids).toEqual([high, low]);
      expect(t.item(3).getSnapshot().context).toMatchObject({ amount: 150, username: 'Beorn' });
    });
  });

  describe('HISTORY: a snapshot that replaces the board', () => {
    it('builds items from its items and latest bids from its bids', () => {
      const t = startBoard();
      t.server(SNAPSHOT);
      expect(t.project()).toEqual({ ...EXPECTED_AFTER_SNAPSHOT, connected: false });
    });

    it('keeps only the 5 newest of its bids, newest first', () => {
      const bids = [7, 6, 5, 4, 3, 2, 1].map((i) => b(3, 100 + i * 10, 'Aethelred', i * 1_000, T0 + 60_000));
      const t = startBoard();
      t.server(auction.history(bids, []));
      expect(t.ctx().latestBids).toEqual(bids.slice(0, 5));
    });

    it('leaves out scheduled and cancelled items', () => {
      const t = startBoard();
      t.server(
        auction.history(
          [],
          [
            itemOf({ itemId: 3, state: 'live' }),
            itemOf({ itemId: 4, state: 'scheduled' }),
            itemOf({ itemId: 5, state: 'cancelled' }),
            itemOf({ itemId: 6, state: 'finished' }),
          ],
        ),
      );
      expect(Object.keys(t.ctx().items).sort()).toEqual(['3', '6']);
      expect(Object.keys(t.board.getSnapshot().children)).toHaveLength(2);
    });

    it('replaces bids and items that came before it, and stops the old item actors', () => {
      const t = fold(LOG, { until: END, connected: true });
      const old = Object.values(t.ctx().items);
      expect(old).toHaveLength(4);
      t.server(SNAPSHOT);
      expect(t.project()).toEqual(EXPECTED_AFTER_SNAPSHOT);
      for (const ref of old) expect(ref.getSnapshot().status).toBe('stopped');
      expect(Object.keys(t.board.getSnapshot().children)).toHaveLength(2);
      expect(Object.values(t.board.getSnapshot().children).every((ref) => ref?.getSnapshot().status === 'active')).toBe(true);
    });

    it('an item in both the old board and the snapshot is rebuilt from the snapshot, not from its old actor', () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 60_000));
      t.server(auction.bid(b(3, 500, 'Cynric', 1_000, T0 + 60_000)));
      t.clock.set(2_000);
      t.server(auction.history([], [itemOf({ itemId: 3, amount: 180, username: 'Beorn', timestamp: T0 + 2_000, endsAt: T0 + 60_000 })]));
      expect(t.project().items['3']).toMatchObject({ amount: 180, username: 'Beorn', state: { live: 'open' } });
      // the rebuilt item takes the next raising bid and is the one the board forwards to
      t.server(auction.bid(b(3, 190, 'Dunstan', 3_000, T0 + 60_000)));
      expect(t.project().items['3']).toMatchObject({ amount: 190, username: 'Dunstan' });
    });

    it('a second snapshot replaces the first', () => {
      const t = startBoard();
      t.server(SNAPSHOT);
      t.server(auction.history([], []));
      expect(t.project()).toEqual({ connected: false, latestBids: [], items: {} });
      expect(Object.keys(t.board.getSnapshot().children)).toHaveLength(0);
    });

    it('leaves the connected flag alone', () => {
      const t = startBoard();
      t.board.send({ type: 'CONNECTED', connected: true });
      t.server(SNAPSHOT);
      expect(t.ctx().connected).toBe(true);
    });

    it('frames after the snapshot fold on top of it', () => {
      const t = startBoard();
      t.clock.set(END);
      t.server(SNAPSHOT);
      t.clock.set(END + 1_000);
      t.server(auction.bid(b(7, 320, 'Beorn', END + 1_000, T0 + 90_000)));
      t.server(started(5, 200, END + 1_000, T0 + 120_000));
      expect(t.project().items['7']).toMatchObject({ amount: 320, username: 'Beorn' });
      expect(t.project().items['5']).toMatchObject({ amount: 200, username: 'server', state: { live: 'open' } });
      expect(t.ctx().latestBids.map((x) => x.amount)).toEqual([320, 300, 180]);
    });
  });

  describe('placing a bid', () => {
    it('sends its parent BOARD.SEND with a CREATE_BID frame carrying a fresh requestId, and tracks it as pending', () => {
      const t = startBoard();
      t.bid(3, 200);
      expect(t.sent).toEqual([{ type: 'CREATE_BID', data: { itemId: 3, amount: 200, requestId: 'req-1' } }]);
      expect(clientFrame.safeParse(t.sent[0]).success).toBe(true);
      expect(t.ctx().pending).toEqual({ 'req-1': { itemId: 3, amount: 200 } });
    });

    it('each bid gets its own requestId', () => {
      const t = startBoard();
      t.bid(3, 200);
      t.bid(3, 200);
      t.bid(4, 70);
      expect(t.sent.map((f) => (f.type === 'CREATE_BID' ? f.data.requestId : null))).toEqual(['req-1', 'req-2', 'req-3']);
      expect(Object.keys(t.ctx().pending)).toEqual(['req-1', 'req-2', 'req-3']);
    });

    it('placing a bid changes neither the latest bids nor the item (the server decides)', () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 30_000));
      const before = t.project();
      t.bid(3, 200);
      expect(t.project()).toEqual(before);
    });

    it('the matching BID_CREATED (same item and amount) settles it; another bid does not', () => {
      const t = startBoard();
      t.bid(3, 200);
      t.bid(4, 70);
      t.server(auction.bid(b(3, 190, 'Beorn', 1_000, T0 + 30_000)));
      t.server(auction.bid(b(4, 200, 'Beorn', 1_000, T0 + 30_000)));
      expect(Object.keys(t.ctx().pending)).toEqual(['req-1', 'req-2']);
      t.server(auction.bid(b(3, 200, 'Aethelred', 2_000, T0 + 30_000)));
      expect(t.ctx().pending).toEqual({ 'req-2': { itemId: 4, amount: 70 } });
    });

    it('an ERROR with its requestId settles it, and only it', () => {
      const t = startBoard();
      t.bid(3, 200);
      t.bid(3, 300);
      t.server(auction.error('OUT_OF_BALANCE', { itemId: 3, requestId: 'req-2' }));
      expect(t.ctx().pending).toEqual({ 'req-1': { itemId: 3, amount: 200 } });
    });

    it('an ERROR without a requestId, or with one it did not send, settles nothing', () => {
      const t = startBoard();
      t.bid(3, 200);
      t.server(auction.error('SYSTEM_ERROR'));
      t.server(auction.error('BID_AMOUNT_ERROR', { itemId: 3 }));
      t.server(auction.error('BID_AMOUNT_ERROR', { itemId: 3, requestId: 'someone-else' }));
      expect(t.ctx().pending).toEqual({ 'req-1': { itemId: 3, amount: 200 } });
    });
  });

  describe('server time', () => {
    it('estimates the offset from the first stamped frame: server time = local clock + offset', () => {
      const t = startBoard();
      t.clock.set(1_000);
      expect(serverTime(t.ctx(), t.clock.now())).toBe(1_000);
      t.server(auction.bid(b(3, 110, 'Beorn', 1_000, T0 + 30_000)));
      expect(t.ctx().serverOffset).toBe(T0);
      t.clock.set(7_500);
      expect(serverTime(t.ctx(), t.clock.now())).toBe(T0 + 7_500);
    });

    it('keeps the largest (server timestamp − local time): a frame that came late does not lower it, an earlier one raises it', () => {
      const t = startBoard();
      t.clock.set(1_000);
      t.server(started(3, 100, 1_000, T0 + 60_000));
      t.clock.set(5_000);
      t.server(auction.bid(b(3, 110, 'Beorn', 2_000, T0 + 60_000))); // 3 s late
      expect(t.ctx().serverOffset).toBe(T0);
      t.clock.set(6_000);
      t.server(auction.bid(b(3, 120, 'Cynric', 6_400, T0 + 60_000))); // the server is 400 ms further on than thought
      expect(t.ctx().serverOffset).toBe(T0 + 400);
    });

    it("HISTORY's stamp counts too", () => {
      const t = startBoard();
      t.clock.set(2_000);
      t.server(auction.history([], [itemOf({ timestamp: T0 + 2_000, endsAt: T0 + 30_000 })]));
      expect(t.ctx().serverOffset).toBe(T0);
    });

    it("a live item's countdown follows server time, not the time its frames came", () => {
      const t = startBoard();
      t.server(started(3, 100, 0, T0 + 30_000)); // server T0 = local 0
      t.clock.set(12_000);
      t.server(auction.bid(b(3, 110, 'Beorn', 10_000, T0 + 40_000))); // stamped T0 + 10 s, came 2 s late
      t.clock.set(39_999);
      expect(t.project().items['3'].state).toEqual({ live: 'open' });
      t.clock.set(40_000); // server T0 + 40 s, not 40 s − 10 s after the frame came
      expect(t.project().items['3'].state).toEqual({ live: 'closing' });
    });

    it("an item's end follows a later, better estimate of server time (not the late frame that started it)", () => {
      const t = startBoard();
      t.clock.set(2_000);
      t.server(started(3, 100, 0, T0 + 30_000)); // stamped T0 but came 2 s late: the first estimate is 2 s behind
      t.clock.set(5_000);
      t.server(started(4, 50, 5_000, T0 + 90_000)); // came at once: the estimate is right from here on
      t.clock.set(29_999);
      expect(serverTime(t.ctx(), t.clock.now())).toBe(T0 + 29_999);
      expect(t.project().items['3'].state).toEqual({ live: 'open' });
      t.clock.set(30_000); // server T0 + 30 s by the board's own estimate: item 3 has ended
      expect(serverTime(t.ctx(), t.clock.now())).toBe(T0 + 30_000);
      expect(t.project().items['3'].state).toEqual({ live: 'closing' });
    });

    it('the same frames give the same board whether the first of them came late or on time, once a later frame fixed the estimate', () => {
      const late = fold([{ t: 2_000, msg: started(3, 100, 0, T0 + 30_000) }, { t: 5_000, msg: started(4, 50, 5_000, T0 + 90_000) }], { until: 30_000 });
      const onTime = fold([{ t: 0, msg: started(3, 100, 0, T0 + 30_000) }, { t: 5_000, msg: started(4, 50, 5_000, T0 + 90_000) }], { until: 30_000 });
      expect(onTime.project().items['3'].state).toEqual({ live: 'closing' });
      expect(late.project()).toEqual(onTime.project());
    });

    it("an item from HISTORY closes at its `endsAt` in server time", () => {
      const t = startBoard({ localStart: 500 });
      t.server(auction.history([], [itemOf({ timestamp: T0, endsAt: T0 + 20_000 })]));
      t.clock.set(20_499);
      expect(t.project().items['3'].state).toEqual({ live: 'open' });
      t.clock.set(20_500);
      expect(t.project().items['3'].state).toEqual({ live: 'closing' });
    });
  });

  describe('determinism: a board is a fold of its log and the clock', () => {
    it('the recorded log folds into the board it describes', () => {
      expect(fold(LOG, { until: END, connected: true }).project()).toEqual(EXPECTED);
    });

    it('the same log folded twice, into fresh actors, gives identical boards', () => {
      const first = fold(LOG, { until: END, connected: true });
      const second = fold(LOG, { until: END, connected: true });
      expect(second.project()).toEqual(first.project());
      expect(second.item(3)).not.toBe(first.item(3));
    });

    it('the same log gives the same board whatever the local clock read when it started', () => {
      expect(fold(LOG, { until: END, connected: true, localStart: 9_000_000 }).project()).toEqual(EXPECTED);
      expect(fold(LOG, { until: END, connected: true, localStart: 123 }).project()).toEqual(EXPECTED);
    });

    it('every frame twice gives the same board', () => {
      const doubled = LOG.flatMap((entry) => [entry, entry]);
      expect(fold(doubled, { until: END, connected: true }).project()).toEqual(EXPECTED);
    });

    it('old frames delivered again, late, change nothing', () => {
      const replayed: LogEntry[] = [
        ...LOG,
        { t: 50_000, msg: started(3, 100, 0, T0 + 60_000) },
        { t: 50_000, msg: auction.bid(BID_3_120) },
        { t: 50_000, msg: auction.bid(BID_4_60) },
        { t: 50_000, msg: started(6, 40, 2_000, T0 + 20_000) },
        { t: 50_000, msg: auction.sold({ itemId: 4, itemName: NAMES[4], username: 'Cynric', amount: 90 }) },
        { t: 50_000, msg: auction.bid(BID_3_180) },
      ];
      expect(fold(replayed, { until: END, connected: true }).project()).toEqual(EXPECTED);
    });

    it('bids that come out of order (a lower amount after a higher one) give the same board', () => {
      const heldBack = ({ msg }: LogEntry) => {
        if (msg.type !== 'BID_CREATED') return false;
        const data = msg.data;
        return !isSealedBid(data) && [BID_3_120, BID_4_70].some((x) => x.itemId === data.itemId && x.amount === data.amount);
      };
      const reordered: LogEntry[] = LOG.filter((e) => !heldBack(e));
      // 120 on item 3 held back until after 150; 70 on item 4 until after 90
      reordered.splice(reordered.findIndex((e) => e.t === 25_000) + 1, 0, { t: 25_000, msg: auction.bid(BID_3_120) });
      reordered.splice(reordered.findIndex((e) => e.t === 28_000) + 1, 0, { t: 28_000, msg: auction.bid(BID_4_70) });
      expect(reordered).toHaveLength(LOG.length);
      expect(fold(reordered, { until: END, connected: true }).project()).toEqual(EXPECTED);
    });

    it('a snapshot after other frames replaces everything: the same board as the snapshot alone', () => {
      const afterLog = fold([...LOG, { t: END, msg: SNAPSHOT }], { until: END, connected: true });
      const alone = fold([{ t: END, msg: SNAPSHOT }], { until: END, connected: true });
      expect(afterLog.project()).toEqual(EXPECTED_AFTER_SNAPSHOT);
      expect(afterLog.project()).toEqual(alone.project());
    });

    it('the log in batches (SERVER, each frame with the time it came) gives the board frame by frame gives, at any split', () => {
      const full = [...LOG, { t: END, msg: SNAPSHOT }, { t: END + 500, msg: auction.bid(b(7, 320, 'Eadric', END + 500, T0 + 95_000)) }];
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: full.length }), { maxLength: 8 }), fc.integer({ min: 1, max: full.length }), (cuts, upTo) => {
          const log = full.slice(0, upTo);
          const until = Math.max(END, log[log.length - 1].t);
          const oneByOne = fold(log, { until, connected: true });
          const batched = startBoard();
          batched.board.send({ type: 'CONNECTED', connected: true });
          const points = [...new Set([0, ...cuts.filter((c) => c < log.length), log.length])].sort((x, y) => x - y);
          for (let i = 0; i + 1 < points.length; i++) {
            const batch = log.slice(points[i], points[i + 1]);
            if (batch.length === 0) continue;
            // delivered when the batch's last frame came, each frame with its own time
            batched.clock.set(batch[batch.length - 1].t);
            const frames: MessageFrame[] = batch.map(({ t, msg }) => ({ event: { type: 'message', msg }, at: t }));
            batched.board.send({ type: 'SERVER', frames });
          }
          batched.clock.set(until);
          expect(batched.project()).toEqual(oneByOne.project());
          expect(batched.ctx().serverOffset).toBe(oneByOne.ctx().serverOffset);
          for (const step of [5_000, 30_000]) {
            batched.clock.increment(step);
            oneByOne.clock.increment(step);
            expect(batched.project()).toEqual(oneByOne.project());
          }
        }),
        { numRuns: 200 },
      );
    });

    it('the folds stay equal as the clock goes on (same countdowns)', () => {
      const a = fold(LOG, { until: END, connected: true });
      const b2 = fold(LOG.flatMap((entry) => [entry, entry]), { until: END, connected: true, localStart: 777 });
      for (const step of [10_000, 29_000, 1_000, 60_000]) {
        a.clock.increment(step);
        b2.clock.increment(step);
        expect(b2.project()).toEqual(a.project());
      }
      expect(a.project().items['5'].state).toEqual({ live: 'closing' });
    });
  });
});
