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
}

export interface BoardView {
  connected: boolean;
  store: StoreState;
  latestBids: Bid[];
  items: Record<string, BoardItemView>;
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
}

export function viewBoard({ connected, latestBids, items, store }: BoardData): BoardView {
  const entries = Object.entries(items).sort(([, a], [, b]) => compareItemIds(a.data.itemId, b.data.itemId));
  const view: Record<string, BoardItemView> = {};
  for (const [key, { data, finished }] of entries) {
    const { itemId, itemName, amount, username, endsAt } = data;
    view[key] = { itemId, itemName, amount, username, state: finished ? 'finished' : 'live', endsAt, minimum: minimumOf(data) };
  }
  return {
    connected,
    store,
    latestBids: latestBids.map(({ itemId, itemName, amount, username, timer, timestamp, endsAt }) => ({ itemId, itemName, amount, username, timer, timestamp, endsAt })),
    items: view,
  };
}
