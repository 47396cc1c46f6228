import type { User } from '../../../src/protocol/auth';
import type { Bid, Item, ServerMsg } from '../../../src/protocol/socket';

export const USER: User = {
  id: 7,
  username: 'Aethelred',
  rank: 'user',
  balance: 1200,
  reserved: 200,
  available: 1000,
  playerid: '123456789',
  email: 'aethelred@example.com',
  locale: 'en',
};

export const BID: Bid = {
  itemId: 3,
  itemName: 'Golden Key',
  amount: 150,
  username: 'Aethelred',
  timer: 30,
  timestamp: 1_700_000_000_000,
  endsAt: 1_700_000_030_000,
};

export const ITEM: Item = {
  itemId: 3,
  itemName: 'Golden Key',
  type: 'auction',
  amount: 150,
  username: 'Aethelred',
  timer: 30,
  timestamp: 1_700_000_000_000,
  endsAt: 1_700_000_030_000,
  state: 'live',
  start_price: 100,
  minIncrement: 10,
};

export const HISTORY: ServerMsg = { type: 'HISTORY', data: { bids: [BID], items: [ITEM] } };
export const STATUS: ServerMsg = {
  type: 'STATUS',
  data: { username: 'Aethelred', rank: 'user', balance: 900, reserved: 100, available: 800 },
};
export const BID_CREATED: ServerMsg = { type: 'BID_CREATED', data: BID };
export const UNAUTHENTICATED: ServerMsg = { type: 'ERROR', error_type: 'UNAUTHENTICATED' };

/** A promise and the hands that settle it, so a test decides when a fake API call answers. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

// ── the live auction ────────────────────────────────────────────────────────────────────────
/** Server time (epoch ms) at which the auction fixtures start. */
export const T0 = 1_700_000_000_000;

/** A bid on item 3 at T0 with 30 s left, with any field replaced (`timer` follows `timestamp` and `endsAt`). */
export function bidOf(overrides: Partial<Bid> = {}): Bid {
  const b = { ...BID, timestamp: T0, endsAt: T0 + 30_000, ...overrides };
  return { ...b, timer: overrides.timer ?? Math.max(0, Math.round((b.endsAt - b.timestamp) / 1000)) };
}

/** A live item 3 (no bid yet) as HISTORY gives it, with any field replaced. */
export function itemOf(overrides: Partial<Item> = {}): Item {
  return { ...ITEM, amount: 100, username: 'server', timestamp: T0, endsAt: T0 + 30_000, ...overrides };
}

/** Builders of the auction socket's server frames. */
export const auction = {
  history: (bids: Bid[], items: Item[]): ServerMsg => ({ type: 'HISTORY', data: { bids, items } }),
  started: (d: { itemId: number | string; itemName: string; start_price: number; timestamp: number; endsAt: number }): ServerMsg => ({
    type: 'BIDDING_STARTED',
    data: { ...d, timer: Math.round((d.endsAt - d.timestamp) / 1000) },
  }),
  bid: (overrides: Partial<Bid> = {}): ServerMsg => ({ type: 'BID_CREATED', data: bidOf(overrides) }),
  sold: (d: { itemId: number | string; itemName: string; username: string; amount: number }): ServerMsg => ({ type: 'SALE_COMPLETED', data: d }),
  noBuyer: (d: { itemId: number | string; itemName: string }): ServerMsg => ({ type: 'NO_BUYER', data: d }),
  winner: (d: { itemId: number; itemName: string; username: string; amount: number }): ServerMsg => ({ type: 'WINNER', data: d }),
  outbid: (overrides: Partial<Bid> = {}): ServerMsg => ({ type: 'OUTBID', data: bidOf(overrides) }),
  error: (error_type: string, data?: { itemId?: number; requestId?: string }): ServerMsg =>
    data === undefined ? { type: 'ERROR', error_type } : { type: 'ERROR', error_type, data },
};
