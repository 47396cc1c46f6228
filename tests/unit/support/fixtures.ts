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
