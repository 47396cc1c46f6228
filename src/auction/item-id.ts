import type { ItemId } from '../protocol/socket';

/**
 * Item ids are opaque: this server sends whole numbers, another server that speaks the same
 * contract (or a log recorded from one) may send strings. The board keys items by `String(itemId)`
 * (so 5 and "5" are the same item) and never does arithmetic on an id.
 *
 * Order, wherever items are listed by id: numbers first, in numeric order, then strings in code
 * unit order (the same in every locale and browser, so a board's JSON is the same text anywhere).
 * It is also the order in which JavaScript enumerates an object's keys when the numeric ids are
 * whole numbers, so a board's `items` record reads in this order as JSON.
 */
export function compareItemIds(a: ItemId, b: ItemId): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The key of an item in the board's records. */
export const itemKey = (itemId: ItemId): string => String(itemId);
