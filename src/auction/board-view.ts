import type { Bid, ItemId, StoreState } from '../protocol/socket';
import { minimumOf } from './bid-rule';
import type { ItemData, ItemFields } from './item-fold';
import { compareItemIds } from './item-id';

/**
 * The board a player sees, as plain data: what a replay prints and what two folds of one log must
 * agree on. Items are keyed by id in id order (numbers numerically, then strings; item-id.ts), so
 * the JSON of equal boards is equal text.
 */
export interface BoardItemView {
  itemId: ItemId;
  itemName: string;
  amount: number;
  username: string;
  state: 'live' | 'finished';
  endsAt: number;
  /** The smallest bid the item takes now (what the card shows as the next minimum). */
  minimum: number;
  /** Only when sealed. */
  format?: 'sealed-first' | 'sealed-second';
  /** Only for an item with a reserve. */
  reserveMet?: boolean;
  /** Only for an item with a buy-now price. */
  buyNowPrice?: number;
  /** Only for a sealed item: how many have bid. */
  sealedBids?: number;
}

export interface BoardView {
  connected: boolean;
  store: StoreState;
  latestBids: Bid[];
  items: Record<string, BoardItemView>;
  /** The player's own standing maximum bids, by item key (only when there is one). */
  maxBids?: Record<string, number>;
}

/** What a live item's card shows besides the price: its rules, eligibility, soft close and pause. */
export interface CardView {
  minimum: number;
  minIncrement: number | null;
  ranks: string[];
  groups: string[];
  imageUrl: string | null;
  description: string | null;
  extendWindow: number | null;
  maxExtensions: number | null;
  extensions: number;
  heldMs: number | null;
}

export function viewCard(c: ItemFields): CardView {
  return {
    minimum: minimumOf(c),
    minIncrement: c.minIncrement,
    ranks: c.ranks,
    groups: c.groups,
    imageUrl: c.imageUrl,
    description: c.description,
    extendWindow: c.extendWindow,
    maxExtensions: c.maxExtensions,
    extensions: c.extensions,
    heldMs: c.heldMs,
  };
}

/** What viewBoard reads: the board's own data and each item's data and whether it finished. */
export interface BoardData {
  connected: boolean;
  store: StoreState;
  latestBids: readonly Bid[];
  items: Readonly<Record<string, { data: ItemData; finished: boolean }>>;
  maxBids?: Readonly<Record<string, { max: number }>>;
}

export function viewBoard({ connected, latestBids, items, store, maxBids }: BoardData): BoardView {
  const entries = Object.entries(items).sort(([, a], [, b]) => compareItemIds(a.data.itemId, b.data.itemId));
  const view: Record<string, BoardItemView> = {};
  for (const [key, { data, finished }] of entries) {
    const { itemId, itemName, amount, username, endsAt } = data;
    view[key] = { itemId, itemName, amount, username, state: finished ? 'finished' : 'live', endsAt, minimum: minimumOf(data) };
    // the terms beyond the English auction, only where an item has them (older boards read as before)
    if (data.format !== 'english') view[key].format = data.format;
    if (data.reserveMet !== null) view[key].reserveMet = data.reserveMet;
    if (data.buyNowPrice !== null) view[key].buyNowPrice = data.buyNowPrice;
    if (data.sealedBids !== null) view[key].sealedBids = data.sealedBids;
  }
  const maxes = Object.entries(maxBids ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    connected,
    store,
    latestBids: latestBids.map(({ itemId, itemName, amount, username, timer, timestamp, endsAt, auto }) => ({ itemId, itemName, amount, username, timer, timestamp, endsAt, ...(auto ? { auto } : {}) })),
    items: view,
    ...(maxes.length > 0 ? { maxBids: Object.fromEntries(maxes.map(([key, m]) => [key, m.max])) } : {}),
  };
}
