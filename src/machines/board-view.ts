import type { Bid } from '../protocol/socket';
import type { BoardActor } from './board.machine';

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
}

export interface BoardView {
  connected: boolean;
  latestBids: Bid[];
  items: Record<string, BoardItemView>;
}

export function viewBoard(board: BoardActor): BoardView {
  const { connected, latestBids, items } = board.getSnapshot().context;
  const keys = Object.keys(items).sort((a, b) => Number(a) - Number(b));
  const view: Record<string, BoardItemView> = {};
  for (const key of keys) {
    const snapshot = items[key].getSnapshot();
    const { itemId, itemName, amount, username, endsAt } = snapshot.context;
    view[key] = { itemId, itemName, amount, username, state: snapshot.matches('finished') ? 'finished' : 'live', endsAt };
  }
  return {
    connected,
    latestBids: latestBids.map(({ itemId, itemName, amount, username, timer, timestamp, endsAt }) => ({ itemId, itemName, amount, username, timer, timestamp, endsAt })),
    items: view,
  };
}
