import { describe, expect, it } from 'vitest';
import { availableFor, checkBid, minimumOf } from '../../src/auction/bid-rule';
import { viewCard } from '../../src/auction/board-view';
import { bidFault, MAX_PRICE, NO_LEADER } from '../../src/protocol/store';
import { buysNow, judgeBid, UNKNOWN, type BidFacts, type ItemFacts } from '../../server/auction/bid-view';

// The bid rule has one home (src/protocol/store.ts); the bid box, the board's cards and the
// server's verdict all read it. Each boundary is tested on each side: exactly the available
// points is a bid and one more is not; exactly the minimum is a bid and one less is not.

describe('the bid rule (protocol)', () => {
  it('takes exactly the available points and refuses one more', () => {
    expect(bidFault(500, 100, 500)).toBeNull();
    expect(bidFault(501, 100, 500)).toBe('points');
  });
  it('takes exactly the minimum and refuses one less', () => {
    expect(bidFault(100, 100, 500)).toBeNull();
    expect(bidFault(99, 100, 500)).toBe('minimum');
  });
  it('wants a whole number from 1 to MAX_PRICE', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '100', null, MAX_PRICE + 1]) expect(bidFault(bad, 1, MAX_PRICE * 2)).toBe('amount');
    expect(bidFault(MAX_PRICE, 1, MAX_PRICE)).toBeNull();
  });
  it('judges only the amount and the minimum while the available points are unknown', () => {
    expect(bidFault(10_000, 100)).toBeNull();
  });
});

describe('the bid box', () => {
  const me = { username: 'me', rank: 'user', available: 500 };
  const item = { amount: 100, username: 'rival', start_price: 50, minIncrement: 10 };

  it('takes exactly the available points and refuses one more', () => {
    expect(checkBid(500, item, me)).toEqual({ ok: true });
    expect(checkBid(501, item, me)).toEqual({ ok: false, messageId: 'store.check.overBalance', values: { available: 500 } });
  });
  it('counts the player’s own lead on the item as available', () => {
    const mine = { ...item, username: 'me' };
    expect(availableFor(mine, me)).toBe(600);
    expect(checkBid(600, mine, me)).toEqual({ ok: true });
    expect(checkBid(601, mine, me)).toMatchObject({ ok: false, messageId: 'store.check.overBalance', values: { available: 600 } });
  });
  it('takes exactly the next minimum and refuses one less', () => {
    expect(minimumOf(item)).toBe(110);
    expect(checkBid(110, item, me)).toEqual({ ok: true });
    expect(checkBid(109, item, me)).toEqual({ ok: false, messageId: 'store.check.tooLow', values: { amount: 110 } });
    // before the first bid the start price is the minimum
    expect(minimumOf({ ...item, username: NO_LEADER })).toBe(50);
  });
  it('asks for a whole number', () => {
    expect(checkBid(120.5, item, me)).toEqual({ ok: false, messageId: 'store.check.whole' });
  });
});

describe('the board’s card', () => {
  it('shows the minimum the bid box starts from', () => {
    const card = viewCard({ itemName: 'Gem', amount: 100, username: 'rival', start_price: 50, minIncrement: 10 } as Parameters<typeof viewCard>[0]);
    expect(card.minimum).toBe(110);
  });
});

describe('the server’s verdict', () => {
  const T = 1_000_000;
  const item: ItemFacts = {
    id: 1, state: 'live', startedAt: T - 1000, endsAt: T + 60_000, amount: 100, minIncrement: 10, startPrice: 50,
    leaderId: 2, extendWindowS: 0, maxExtensions: 0, extensions: 0, restricted: false, format: 'english', buyNowPrice: null,
  };
  const facts = (bidder: BidFacts['bidder']): BidFacts => ({ storeOpen: true, item, endMayMove: false, mayBid: true, bidder });
  const bidder = { id: 7, balance: 800, reserved: 300 };

  it('takes exactly the available points and refuses one more', () => {
    expect(judgeBid(facts(bidder), 500, T)).toBeNull();
    expect(judgeBid(facts(bidder), 501, T)).toBe('OUT_OF_BALANCE');
  });
  it('counts the bidder’s own lead on the item as available', () => {
    const leader = { ...bidder, id: 2 };
    expect(judgeBid(facts(leader), 600, T)).toBeNull();
    expect(judgeBid(facts(leader), 601, T)).toBe('OUT_OF_BALANCE');
  });
  it('takes exactly the minimum and refuses one less', () => {
    expect(judgeBid(facts(bidder), 110, T)).toBeNull();
    expect(judgeBid(facts(bidder), 109, T)).toBe('BID_AMOUNT_ERROR');
  });
  it('refuses a bad amount before asking for the unknown bidder, and waits for the bidder otherwise', () => {
    expect(judgeBid(facts(UNKNOWN), 109, T)).toBe('BID_AMOUNT_ERROR');
    expect(judgeBid(facts(UNKNOWN), 10_000, T)).toBe(UNKNOWN);
  });

  it('judges a bid of at least the buy-now price at that price, while the amount is below it', () => {
    const buyNow = { ...item, buyNowPrice: 400 };
    const on = (b: BidFacts['bidder']): BidFacts => ({ ...facts(b), item: buyNow });
    // 450 points free: a bid of 10,000 buys at 400
    expect(judgeBid(on({ ...bidder, balance: 750 }), 10_000, T)).toBeNull();
    expect(judgeBid(on({ ...bidder, balance: 699 }), 10_000, T)).toBe('OUT_OF_BALANCE');
    // below the price it is an ordinary bid
    expect(judgeBid(on(bidder), 399, T)).toBeNull();
    // once the amount reached it, no more buying: an ordinary bid again
    const reached = { ...buyNow, amount: 400 };
    expect(buysNow(reached, 10_000)).toBe(false);
    expect(buysNow(buyNow, 400)).toBe(true);
    expect(buysNow({ ...buyNow, format: 'sealed-first' }, 400)).toBe(false);
  });
  it('judges a sealed bid against the bidder’s own standing bid, never the leader’s', () => {
    const sealed = { ...item, format: 'sealed-first' as const, amount: 300 };
    const on = (own: BidFacts['ownBid']): BidFacts => ({ ...facts(bidder), item: sealed, ownBid: own });
    // first bid: the start price, though another bid of 300 leads
    expect(judgeBid(on(null), 50, T)).toBeNull();
    expect(judgeBid(on(null), 49, T)).toBe('BID_AMOUNT_ERROR');
    // a raise: by at least the increment; its own standing bid counted as free
    expect(judgeBid(on(60), 69, T)).toBe('BID_AMOUNT_ERROR');
    expect(judgeBid(on(60), 560, T)).toBeNull();
    expect(judgeBid(on(60), 561, T)).toBe('OUT_OF_BALANCE');
    // the early picture does not know it: only a malformed amount is refused there
    expect(judgeBid(on(UNKNOWN), 'x', T)).toBe('BID_AMOUNT_ERROR');
    expect(judgeBid(on(UNKNOWN), 49, T)).toBe(UNKNOWN);
  });
});
