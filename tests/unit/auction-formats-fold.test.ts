import { describe, expect, it } from 'vitest';
import { emptyBoardFold, foldBoard, type BoardFoldState } from '../../src/auction/board-fold';
import { fieldsOf, foldItem, phaseAfter, rulesOf } from '../../src/auction/item-fold';
import { MSG, type Item, type ServerMsg } from '../../src/protocol/socket';

const T = 1_800_000_000_000;

const EMPTY: BoardFoldState = emptyBoardFold();

const item = (over: Partial<Item> = {}): Item =>
  ({ itemId: 7, itemName: 'Golden key', type: 'auction', amount: 100, username: 'server', timer: 60, timestamp: T, endsAt: T + 60_000, state: 'live', start_price: 100, minIncrement: 10, ...over }) as Item;

const frames = (...msgs: ServerMsg[]) => msgs.map((msg) => ({ event: { msg } }));

describe('an item\'s format, reserve and buy-now on the board', () => {
  it('reads them from HISTORY and BIDDING_STARTED alike: english and no reserve when the frame says nothing of them', () => {
    expect(rulesOf(item())).toMatchObject({ format: 'english', reserveMet: null, buyNowPrice: null, sealedBids: null });
    expect(rulesOf(item({ format: 'sealed-second', reserveMet: false, bids: 3 }))).toMatchObject({ format: 'sealed-second', reserveMet: false, buyNowPrice: null, sealedBids: 3 });
    expect(rulesOf(item({ buyNowPrice: 900 }))).toMatchObject({ format: 'english', buyNowPrice: 900 });
    // an unknown format from a newer server reads as the one every client knows
    expect(rulesOf(item({ format: 'dutch' as never })).format).toBe('english');
  });

  it('a masked sealed bid counts the bidders, never moves the amount, and is in no list of bids', () => {
    const history: ServerMsg = { type: MSG.HISTORY, data: { bids: [], items: [item({ format: 'sealed-first', bids: 0 })] } };
    const masked = (bids: number): ServerMsg => ({ type: MSG.BID_CREATED, data: { itemId: 7, itemName: 'Golden key', sealed: true, bids, timer: 50, timestamp: T + 10_000, endsAt: T + 60_000 } });
    const fold = foldBoard(EMPTY, frames(history, masked(2), masked(1), masked(3)), T);
    expect(fold.latestBids).toEqual([]);
    const updates = fold.updates.get('7') ?? [];
    const start = fieldsOf(item({ format: 'sealed-first', bids: 0 }));
    const folded = foldItem(start, 'live', updates);
    expect(folded.fields.sealedBids).toBe(3);
    expect(folded.fields.amount).toBe(100);
    expect(folded.fields.username).toBe('server');
    // the same masked frame again, or an older one, changes nothing
    expect(foldItem(folded.fields, 'live', [{ type: 'SEALED', bids: 2, endsAt: T + 60_000 }]).changed).toBe(false);
  });

  it('after a reload, the reader\'s own bid on a sealed item stands on it (the snapshot hides amount and leader)', () => {
    const own = { itemId: 7, itemName: 'Golden key', amount: 450, username: 'boris', timer: 50, timestamp: T, endsAt: T + 60_000 };
    const history: ServerMsg = { type: MSG.HISTORY, data: { bids: [own], items: [item({ format: 'sealed-second', bids: 2 }), item({ itemId: 8 })] } };
    const fold = foldBoard(EMPTY, frames(history), T);
    const folded = foldItem(fieldsOf(item({ format: 'sealed-second', bids: 2 })), 'live', fold.updates.get('7') ?? []);
    expect(folded.fields).toMatchObject({ amount: 450, username: 'boris', sealedBids: 2 });
    // an English item's snapshot already says its amount: nothing is folded again
    expect(fold.updates.get('8')).toBeUndefined();
  });

  it('a bid says when the reserve is met; an end for want of it says so too', () => {
    const start = fieldsOf(item({ reserveMet: false }));
    const bid = { itemId: 7, itemName: 'Golden key', amount: 500, username: 'aria', timer: 40, timestamp: T, endsAt: T + 60_000, reserveMet: true };
    const met = foldItem(start, 'live', [{ type: 'BID', bid }]);
    expect(met.fields.reserveMet).toBe(true);
    const noBuyer = { type: 'NO_BUYER', itemName: 'Golden key', reason: 'reserve-not-met' } as const;
    const unsold = foldItem(start, 'live', [noBuyer]);
    // the phase is the board's word, by the same arrows
    expect(phaseAfter('live', noBuyer)).toBe('finished');
    expect(unsold.fields).toMatchObject({ sold: false, reserveMet: false });
  });
});

describe('the player\'s maximum bids on the board', () => {
  it('come with HISTORY, change with MAX_BID, and a dropped one is remembered until another is set', () => {
    const history: ServerMsg = { type: MSG.HISTORY, data: { bids: [], items: [item(), item({ itemId: 8 })], maxBids: [{ itemId: 7, max: 1200, leading: true }, { itemId: 8, max: 0 }] } };
    let fold = foldBoard({ ...EMPTY, pendingMax: { r1: { itemId: 8, max: 300 } } }, frames(history), T);
    expect(fold.maxBids).toEqual({ '7': { max: 1200 } });
    expect(fold.pendingMax).toEqual({});

    const state = { ...EMPTY, maxBids: fold.maxBids, pendingMax: { r2: { itemId: 8, max: 300 }, r3: { itemId: 7, max: 5 } } };
    fold = foldBoard(state, frames({ type: MSG.MAX_BID, data: { itemId: 8, max: 300, leading: false } }), T);
    expect(fold.maxBids['8']).toEqual({ max: 300 });
    expect(fold.pendingMax).toEqual({ r3: { itemId: 7, max: 5 } });

    // a max the server refused: the request stops waiting, the standing max stays
    fold = foldBoard({ ...state, ...fold }, frames({ type: MSG.ERROR, error_type: 'BID_AMOUNT_ERROR', data: { itemId: 7, requestId: 'r3' } }), T);
    expect(fold.pendingMax).toEqual({});
    expect(fold.maxBids['7']).toEqual({ max: 1200 });

    fold = foldBoard({ ...state, ...fold }, frames({ type: MSG.MAX_BID, data: { itemId: 7, max: 0, reason: 'balance' } }), T);
    expect(fold.maxBids['7']).toBeUndefined();
    expect(fold.maxDropped).toEqual({ '7': true });
    fold = foldBoard({ ...state, ...fold }, frames({ type: MSG.MAX_BID, data: { itemId: 7, max: 900, leading: true } }), T);
    expect(fold.maxDropped).toEqual({});
  });
});
