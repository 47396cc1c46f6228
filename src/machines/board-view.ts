import type { Bid, StoreState } from '../protocol/socket';
import { nextMinimum } from '../protocol/store';
import type { BoardActor, ItemRef } from './board.machine';
import type { ItemContext } from './item.machine';

/**
 * The board a player sees, as plain data: what a replay prints and what two folds of one log must
 * agree on. Items are keyed by id in numeric order, so the JSON of equal boards is equal text.
 */
export interface BoardItemView {
  itemId: number;
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

/**
 * The next minimum a card shows and its bid box starts from: the start price before the first
 * bid, then the amount plus the increment. An increment or start price the board does not know
 * (a log from before BIDDING_STARTED carried them) counts as 1 and the current amount.
 */
export function minimumOf(item: Pick<ItemContext, 'amount' | 'username' | 'start_price' | 'minIncrement'>): number {
  return nextMinimum({ username: item.username, amount: item.amount, start_price: item.start_price ?? item.amount, minIncrement: item.minIncrement ?? 1 });
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

export function viewCard(item: ItemRef): CardView {
  const c = item.getSnapshot().context;
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

export function viewBoard(board: BoardActor): BoardView {
  const { connected, latestBids, items, store } = board.getSnapshot().context;
  const keys = Object.keys(items).sort((a, b) => Number(a) - Number(b));
  const view: Record<string, BoardItemView> = {};
  for (const key of keys) {
    const snapshot = items[key].getSnapshot();
    const { itemId, itemName, amount, username, endsAt } = snapshot.context;
    view[key] = { itemId, itemName, amount, username, state: snapshot.matches('finished') ? 'finished' : 'live', endsAt, minimum: minimumOf(snapshot.context) };
  }
  return {
    connected,
    store,
    latestBids: latestBids.map(({ itemId, itemName, amount, username, timer, timestamp, endsAt }) => ({ itemId, itemName, amount, username, timer, timestamp, endsAt })),
    items: view,
  };
}
