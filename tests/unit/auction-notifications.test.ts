import { readFileSync } from 'node:fs';
import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, notificationFor } from '../../src/auction/notifications';
import { ERROR_TYPES, type ServerMsg } from '../../src/protocol/socket';
import { T0, auction, bidOf, itemOf } from './support/fixtures';

/** The English messages as shipped (read from disk, so a key added later is seen). */
const en = (): Record<string, string> => JSON.parse(readFileSync('src/locales/en.json', 'utf8'));

/** The error catalogue, row by row and word for word (its spelling included). */
const SPEC_CATALOGUE: { types: string[]; title: string; text: string }[] = [
  { types: ['OUT_OF_BALANCE'], title: 'Insufficient Balance!', text: 'You do not have enough balance to compelte this bid!' },
  {
    types: ['SYSTEM_ERROR', 'DATABASE_ERROR', 'WS_ERROR', 'JSON_ERROR', 'UNAUTHENTICATED', 'UNKNOWN_ITEM'],
    title: 'System Error!',
    text: 'The system has encountered an error!',
  },
  { types: ['BID_OPEN_ERROR'], title: 'Bid Error!', text: 'Bidding is not yet available for this item!' },
  { types: ['BID_AMOUNT_ERROR'], title: 'Bid Error!', text: 'Your bid amount was too low!' },
  { types: ['SALE_ERROR'], title: 'Sale Error!', text: 'Unkown Item Type!' },
  { types: ['BID_NOT_ALLOWED'], title: 'Bid Error', text: 'You are not allowed to bid on this item!' },
];
/** "any other": BID_ERROR is declared with no message of its own, so it is one of them. */
const ANY_OTHER = { types: ['BID_ERROR', 'SOMETHING_NEW', 'bid_open_error', ''], title: 'Unknown Error', text: 'Please contact an administrator!' };

/** The locale ids each row maps to. */
const EXPECTED_IDS: Record<string, { titleId: string; textId: string }> = {
  OUT_OF_BALANCE: { titleId: 'error.outOfBalance.title', textId: 'error.outOfBalance.text' },
  SYSTEM_ERROR: { titleId: 'error.system.title', textId: 'error.system.text' },
  DATABASE_ERROR: { titleId: 'error.system.title', textId: 'error.system.text' },
  WS_ERROR: { titleId: 'error.system.title', textId: 'error.system.text' },
  JSON_ERROR: { titleId: 'error.system.title', textId: 'error.system.text' },
  UNAUTHENTICATED: { titleId: 'error.system.title', textId: 'error.system.text' },
  UNKNOWN_ITEM: { titleId: 'error.system.title', textId: 'error.system.text' },
  BID_OPEN_ERROR: { titleId: 'error.bid.title', textId: 'error.bidOpen.text' },
  BID_AMOUNT_ERROR: { titleId: 'error.bid.title', textId: 'error.bidAmount.text' },
  SALE_ERROR: { titleId: 'error.sale.title', textId: 'error.sale.text' },
  BID_NOT_ALLOWED: { titleId: 'error.bidNotAllowed.title', textId: 'error.bidNotAllowed.text' },
  BID_ERROR: { titleId: 'error.unknown.title', textId: 'error.unknown.text' },
};

/** English as the player reads it: the message formatted with the notification's values. */
function english(id: string, values?: Record<string, string | number>): string {
  const errors: unknown[] = [];
  const intl = createIntl({ locale: 'en', messages: en(), onError: (e) => errors.push(e) });
  const text = intl.formatMessage({ id }, values);
  expect(errors, `formatting ${id}`).toEqual([]);
  return text;
}

describe('errorCatalogue', () => {
  it('maps every error type to its row’s locale ids', () => {
    for (const [type, ids] of Object.entries(EXPECTED_IDS)) expect(errorCatalogue(type), type).toEqual(ids);
  });

  it.each(SPEC_CATALOGUE.flatMap((row) => row.types.map((type) => ({ type, row }))))(
    '$type shows the catalogue’s English title and text',
    ({ type, row }) => {
      const { titleId, textId } = errorCatalogue(type);
      expect(en()[titleId], `${type} title (${titleId})`).toBe(row.title);
      expect(en()[textId], `${type} text (${textId})`).toBe(row.text);
    },
  );

  it.each(ANY_OTHER.types)('any other type (%j) shows "Unknown Error"', (type) => {
    const { titleId, textId } = errorCatalogue(type);
    expect(en()[titleId]).toBe(ANY_OTHER.title);
    expect(en()[textId]).toBe(ANY_OTHER.text);
  });

  it("the catalogue's texts are shown exactly as written: formatting changes nothing", () => {
    for (const row of [...SPEC_CATALOGUE, ANY_OTHER]) {
      const { titleId, textId } = errorCatalogue(row.types[0]);
      expect(english(titleId)).toBe(row.title);
      expect(english(textId)).toBe(row.text);
    }
  });

  it('every error type of the protocol is in the table (or is BID_ERROR, declared without a message)', () => {
    const inTable = new Set(SPEC_CATALOGUE.flatMap((row) => row.types));
    expect(ERROR_TYPES.filter((type) => !inTable.has(type))).toEqual(['BID_ERROR']);
  });
});

describe('notificationFor', () => {
  const bid = bidOf({ itemId: 3, itemName: 'Golden Key', amount: 1500, username: 'Beorn' });

  it("BID_CREATED: 'New Bid!', who bid how much for what", () => {
    const n = notificationFor(auction.bid(bid));
    expect(n).toEqual({
      kind: 'info',
      key: 'new-bid', // one "New Bid!" toast at a time, updated in place
      titleId: 'notify.newBid.title',
      textId: 'notify.newBid.text',
      values: { username: 'Beorn', amount: 1500, itemName: 'Golden Key' },
    });
    expect(english(n!.titleId)).toBe('New Bid!');
    expect(english(n!.textId!, n!.values)).toBe('Beorn has bid 1,500 for Golden Key');
  });

  it("WINNER: 'You won the bid!'", () => {
    const n = notificationFor(auction.winner({ itemId: 3, itemName: 'Golden Key', username: 'Aethelred', amount: 200 }));
    expect(n).toMatchObject({ kind: 'success', titleId: 'notify.won.title', textId: 'notify.won.text', values: { amount: 200, itemName: 'Golden Key' } });
    expect(english(n!.titleId)).toBe('You won the bid!');
    expect(english(n!.textId!, n!.values)).toContain('Golden Key');
  });

  it("SALE_COMPLETED: 'Sale Completed!', the item sold to the user for the amount", () => {
    const n = notificationFor(auction.sold({ itemId: 3, itemName: 'Golden Key', username: 'Cynric', amount: 90 }));
    expect(n).toEqual({
      kind: 'success',
      titleId: 'notify.saleCompleted.title',
      textId: 'notify.saleCompleted.text',
      values: { username: 'Cynric', amount: 90, itemName: 'Golden Key' },
    });
    expect(english(n!.titleId)).toBe('Sale Completed!');
    expect(english(n!.textId!, n!.values)).toBe('Golden Key was sold to Cynric for 90');
  });

  it("NO_BUYER: 'Sale Failed!', the item was not bought by anyone", () => {
    const n = notificationFor(auction.noBuyer({ itemId: 6, itemName: 'Iron Crown' }));
    expect(n).toEqual({ kind: 'warning', titleId: 'notify.saleFailed.title', textId: 'notify.saleFailed.text', values: { itemName: 'Iron Crown' } });
    expect(english(n!.titleId)).toBe('Sale Failed!');
    expect(english(n!.textId!, n!.values)).toBe('Iron Crown was not bought by anyone');
  });

  it('ITEM_CANCELLED: its own notice, not “Sale Failed!”: the council cancelled it and held points are free', () => {
    const n = notificationFor({ type: 'ITEM_CANCELLED', data: { itemId: 6, itemName: 'Iron Crown' } });
    expect(n).toEqual({ kind: 'warning', titleId: 'notify.itemCancelled.title', textId: 'notify.itemCancelled.text', values: { itemName: 'Iron Crown' } });
    expect(english(n!.titleId)).toBe('Auction Cancelled');
    expect(english(n!.textId!, n!.values)).toBe('Iron Crown was cancelled by the council: nobody buys it, and points held by its bids are free again.');
  });

  it('STORE_STATE: closed and open again, one notice at a time', () => {
    const closed = notificationFor({ type: 'STORE_STATE', data: { state: 'closed', timestamp: T0, items: [] } });
    expect(closed).toMatchObject({ kind: 'warning', key: 'store-state', titleId: 'store.closed.title' });
    expect(english(closed!.titleId)).toBe('The store is closed');
    const open = notificationFor({ type: 'STORE_STATE', data: { state: 'open', timestamp: T0, items: [] } });
    expect(open).toMatchObject({ kind: 'info', key: 'store-state' });
    expect(english(open!.titleId)).toBe('The store is open');
  });

  it("BIDDING_STARTED: 'Bidding Started!', the item is now available", () => {
    const n = notificationFor(auction.started({ itemId: 5, itemName: 'Dragon Banner', start_price: 200, timestamp: T0, endsAt: T0 + 60_000 }));
    expect(n).toEqual({ kind: 'info', titleId: 'notify.biddingStarted.title', textId: 'notify.biddingStarted.text', values: { itemName: 'Dragon Banner' } });
    expect(english(n!.titleId)).toBe('Bidding Started!');
    expect(english(n!.textId!, n!.values)).toBe('Dragon Banner is now available');
  });

  it('OUTBID: a warning naming who took the lead, on what, for how much', () => {
    const n = notificationFor(auction.outbid(bid));
    expect(n).toEqual({
      kind: 'warning',
      titleId: 'notify.outbid.title',
      textId: 'notify.outbid.text',
      values: { username: 'Beorn', amount: 1500, itemName: 'Golden Key' },
    });
    const text = english(n!.textId!, n!.values);
    for (const part of ['Beorn', '1,500', 'Golden Key']) expect(text).toContain(part);
  });

  it('ERROR: an error notification from the catalogue, with no server text', () => {
    expect(notificationFor(auction.error('OUT_OF_BALANCE', { itemId: 3, requestId: 'req-1' }))).toEqual({
      kind: 'error',
      titleId: 'error.outOfBalance.title',
      textId: 'error.outOfBalance.text',
    });
    expect(notificationFor(auction.error('NEVER_HEARD_OF_IT'))).toEqual({ kind: 'error', titleId: 'error.unknown.title', textId: 'error.unknown.text' });
  });

  it('HISTORY, STATUS and VIRTUAL_BALANCE_UPDATE tell the player nothing', () => {
    const quiet: ServerMsg[] = [
      auction.history([bid], [itemOf()]),
      { type: 'STATUS', data: { username: 'Beorn', rank: 'user', balance: 10, reserved: 0, available: 10 } },
      { type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 10, reserved: 5, available: 5 } },
    ];
    for (const msg of quiet) expect(notificationFor(msg), msg.type).toBeNull();
  });
});
