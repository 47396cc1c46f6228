import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { User } from '../../src/protocol/auth';
import type { ServerMsg } from '../../src/protocol/socket';
import { appWith } from '../../src/machines/app.machine';
import { authMachine } from '../../src/machines/auth.machine';
import { projectBoard } from './support/board';
import { fakeSocketFactory } from './support/fake-socket';
import { T0, UNAUTHENTICATED, auction, bidOf, itemOf } from './support/fixtures';

/** The app's auction wiring: the auction socket → board, notifications, the start chime, bids out. */
const URLS = { auction: 'ws://kingdom.test:8081', user: 'ws://kingdom.test:8082' };

function start() {
  const sockets = fakeSocketFactory();
  const playStartSound = vi.fn();
  const machine = appWith(sockets.createSocket).provide({
    actors: {
      auth: authMachine.provide({
        actors: {
          fetchUser: fromPromise<User, { token: string }>(() => new Promise<User>(() => {})),
          logout: fromPromise<void, { token: string }>(async () => {}),
        },
        actions: { storeToken: () => {}, clearStoredToken: () => {} },
      }),
    },
    actions: { playStartSound: () => playStartSound() },
  });
  const clock = new SimulatedClock();
  let requests = 0;
  const app = createActor(machine, {
    clock,
    input: {
      token: 'tok-1',
      urls: URLS,
    },
  }).start();
  const ctx = () => app.getSnapshot().context;
  return {
    app,
    clock,
    sockets,
    playStartSound,
    ctx,
    /** A bid as the bid box places it, with a fresh request id (req-1, req-2, …). */
    bid: (itemId: number, amount: number) => ctx().board.send({ type: 'PLACE_BID', itemId, amount, requestId: `req-${++requests}` }),
    board: () => ctx().board.getSnapshot().context,
    project: () => projectBoard(ctx().board),
    notifications: () => ctx().notifications.getSnapshot().context.items.map(({ kind, titleId, textId, values }) => ({ kind, titleId, textId, values })),
    auction: () => sockets.last(URLS.auction),
    user: () => sockets.last(URLS.user),
  };
}

/** Both sockets open and authenticated; the auction socket's HISTORY is `history`. */
function connected(history: ServerMsg = auction.history([], [])) {
  const t = start();
  t.auction().open();
  t.auction().receive(history);
  t.user().open();
  t.user().receive({ type: 'STATUS', data: { username: 'Aethelred', rank: 'user', balance: 1200, reserved: 0, available: 1200 } });
  return t;
}

const STARTED = auction.started({ itemId: 5, itemName: 'Dragon Banner', start_price: 200, timestamp: T0, endsAt: T0 + 60_000 });

describe('app machine: the live auction', () => {
  it("the auction socket's HISTORY builds the board", () => {
    const bid = bidOf({ amount: 180, username: 'Beorn' });
    const t = connected(auction.history([bid], [itemOf({ amount: 180, username: 'Beorn' })]));
    expect(t.project()).toEqual({
      connected: true,
      latestBids: [bid],
      items: { '3': { itemId: 3, itemName: 'Golden Key', amount: 180, username: 'Beorn', state: { live: 'open' }, endsAt: T0 + 30_000 } },
    });
  });

  it('auction frames after HISTORY fold into the board', () => {
    const t = connected();
    t.auction().receive(STARTED);
    const bid = bidOf({ itemId: 5, itemName: 'Dragon Banner', amount: 250, username: 'Cynric', timestamp: T0 + 1_000, endsAt: T0 + 60_000 });
    t.auction().receive(auction.bid(bid));
    expect(t.board().latestBids).toEqual([bid]);
    expect(t.project().items['5']).toMatchObject({ amount: 250, username: 'Cynric', state: { live: 'open' } });
  });

  it('messages on the user socket do not reach the board', () => {
    const t = connected();
    const before = t.project();
    t.user().receive(STARTED);
    t.user().receive(auction.bid(bidOf({ amount: 999 })));
    expect(t.project()).toEqual(before);
  });

  describe('the connected flag', () => {
    it("is false until the auction socket is authenticated, then true; the user socket's status does not touch it", () => {
      const t = start();
      t.user().open();
      t.user().receive({ type: 'STATUS', data: { username: 'Aethelred', rank: 'user', balance: 1, reserved: 0, available: 1 } });
      expect(t.board().connected).toBe(false);
      t.auction().open();
      expect(t.board().connected).toBe(false); // open, not yet authenticated
      t.auction().receive(auction.history([], []));
      expect(t.board().connected).toBe(true);
    });

    it('drops with the auction socket and comes back with it', () => {
      const t = connected();
      t.auction().close(1006);
      expect(t.board().connected).toBe(false);
      t.clock.increment(1_000);
      t.auction().open();
      t.auction().receive(auction.history([], []));
      expect(t.board().connected).toBe(true);
    });

    it('a drop of the user socket leaves it alone', () => {
      const t = connected();
      t.user().close(1006);
      expect(t.board().connected).toBe(true);
    });
  });

  describe('notifications', () => {
    it('are raised for auction messages, with the catalogue for errors', () => {
      const t = connected();
      t.auction().receive(STARTED);
      t.auction().receive(auction.bid(bidOf({ itemId: 5, itemName: 'Dragon Banner', amount: 250, username: 'Cynric' })));
      t.auction().receive(auction.error('BID_AMOUNT_ERROR', { itemId: 5 }));
      expect(t.notifications()).toEqual([
        { kind: 'info', titleId: 'notify.biddingStarted.title', textId: 'notify.biddingStarted.text', values: { itemName: 'Dragon Banner' } },
        { kind: 'info', titleId: 'notify.newBid.title', textId: 'notify.newBid.text', values: { username: 'Cynric', amount: 250, itemName: 'Dragon Banner' } },
        { kind: 'error', titleId: 'error.bid.title', textId: 'error.bidAmount.text', values: undefined },
      ]);
    });

    it('WINNER, SALE_COMPLETED, NO_BUYER and OUTBID each raise one', () => {
      // at most three show at once (the oldest goes), so each is checked as it comes
      const t = connected();
      const raised: string[] = [];
      const newest = () => t.notifications()[t.notifications().length - 1].titleId;
      t.auction().receive(auction.outbid(bidOf({ amount: 300, username: 'Beorn' })));
      raised.push(newest());
      t.auction().receive(auction.winner({ itemId: 3, itemName: 'Golden Key', username: 'Aethelred', amount: 300 }));
      raised.push(newest());
      t.auction().receive(auction.sold({ itemId: 3, itemName: 'Golden Key', username: 'Aethelred', amount: 300 }));
      raised.push(newest());
      t.auction().receive(auction.noBuyer({ itemId: 6, itemName: 'Iron Crown' }));
      raised.push(newest());
      expect(raised).toEqual(['notify.outbid.title', 'notify.won.title', 'notify.saleCompleted.title', 'notify.saleFailed.title']);
      expect(t.notifications().map((n) => n.titleId)).toEqual(['notify.won.title', 'notify.saleCompleted.title', 'notify.saleFailed.title']);
    });

    it('HISTORY raises none', () => {
      const t = connected(auction.history([bidOf()], [itemOf()]));
      expect(t.notifications()).toEqual([]);
    });

    it('ERROR UNAUTHENTICATED raises none (the connection handles it); other system errors do', () => {
      const refused = start();
      refused.auction().open();
      refused.auction().receive(UNAUTHENTICATED);
      expect(refused.notifications()).toEqual([]);

      const t = connected();
      t.auction().receive(auction.error('DATABASE_ERROR'));
      expect(t.notifications()).toEqual([{ kind: 'error', titleId: 'error.system.title', textId: 'error.system.text', values: undefined }]);
    });
  });

  describe('the start chime', () => {
    it('plays on BIDDING_STARTED, once per frame', () => {
      const t = connected();
      t.auction().receive(STARTED);
      expect(t.playStartSound).toHaveBeenCalledTimes(1);
      t.auction().receive(auction.started({ itemId: 6, itemName: 'Iron Crown', start_price: 40, timestamp: T0, endsAt: T0 + 20_000 }));
      expect(t.playStartSound).toHaveBeenCalledTimes(2);
    });

    it('does not play for anything else', () => {
      const t = connected(auction.history([bidOf()], [itemOf()]));
      t.auction().receive(auction.bid(bidOf({ amount: 300 })));
      t.auction().receive(auction.sold({ itemId: 3, itemName: 'Golden Key', username: 'Aethelred', amount: 300 }));
      t.auction().receive(auction.noBuyer({ itemId: 6, itemName: 'Iron Crown' }));
      t.auction().receive(auction.winner({ itemId: 3, itemName: 'Golden Key', username: 'Aethelred', amount: 300 }));
      t.auction().receive(auction.error('SYSTEM_ERROR'));
      expect(t.playStartSound).not.toHaveBeenCalled();
    });
  });

  describe('placing a bid', () => {
    it("the board's CREATE_BID reaches the auction socket as a frame, and only that socket", () => {
      const t = connected();
      const auctionSentBefore = t.auction().sent.length;
      const userSentBefore = t.user().sent.length;
      t.bid(3, 200);
      expect(t.auction().sent.slice(auctionSentBefore)).toEqual([{ type: 'CREATE_BID', data: { itemId: 3, amount: 200, requestId: 'req-1' } }]);
      expect(t.user().sent.length).toBe(userSentBefore);
      expect(t.board().pending).toEqual({ 'req-1': { itemId: 3, amount: 200 } });
    });

    it("the server's answer settles it: BID_CREATED for it, or an ERROR with its requestId (which is also told to the player)", () => {
      const t = connected(auction.history([], [itemOf()]));
      t.bid(3, 200);
      t.bid(3, 5000);
      t.auction().receive(auction.bid(bidOf({ amount: 200, username: 'Aethelred' })));
      expect(Object.keys(t.board().pending)).toEqual(['req-2']);
      t.auction().receive(auction.error('OUT_OF_BALANCE', { itemId: 3, requestId: 'req-2' }));
      expect(t.board().pending).toEqual({});
      expect(t.notifications().at(-1)).toEqual({ kind: 'error', titleId: 'error.outOfBalance.title', textId: 'error.outOfBalance.text', values: undefined });
    });
  });
});
