import type { Item, ItemId } from '../protocol/socket';
import type { StoreItem } from '../protocol/store';
import { compareItemIds } from './item-id';

/**
 * Which items the board shows where: live ones in id order (numbers, then strings; see
 * item-id.ts), so cards never jump as bids come; finished ones most recently finished first (after
 * a HISTORY, most recent end first); upcoming ones (scheduled, from the store's REST list) soonest
 * first. Each function gives a new list and leaves its argument alone.
 */
export function withLive(live: readonly ItemId[], itemId: ItemId): ItemId[] {
  let at = 0;
  while (at < live.length && compareItemIds(live[at], itemId) < 0) at += 1;
  if (at < live.length && compareItemIds(live[at], itemId) === 0) return live as ItemId[];
  return [...live.slice(0, at), itemId, ...live.slice(at)];
}

export function withoutItem(list: readonly ItemId[], itemId: ItemId): ItemId[] {
  const key = String(itemId);
  return list.some((x) => String(x) === key) ? list.filter((x) => String(x) !== key) : (list as ItemId[]);
}

/** The lists a HISTORY snapshot gives. */
export function listsOf(items: readonly Item[]): { live: ItemId[]; finished: ItemId[] } {
  const live = items.filter((it) => it.state === 'live').map((it) => it.itemId).sort(compareItemIds);
  const finished = items
    .filter((it) => it.state === 'finished')
    .sort((a, b) => b.endsAt - a.endsAt || compareItemIds(a.itemId, b.itemId))
    .map((it) => it.itemId);
  return { live, finished };
}

/**
 * The upcoming list a REST answer gives: its scheduled items, soonest start first (then by id),
 * without those the board already holds as live or finished (`onBoard`, by item key: an item that
 * started is on the board, whatever the fetch said) or heard were cancelled.
 */
export function upcomingOf(items: readonly StoreItem[], onBoard: (key: string) => boolean, cancelled: Readonly<Record<string, unknown>>): StoreItem[] {
  return items
    .filter((it) => it.state === 'scheduled' && !onBoard(String(it.itemId)) && !(String(it.itemId) in cancelled))
    .sort((a, b) => a.startsAt - b.startsAt || compareItemIds(a.itemId, b.itemId));
}

/** The upcoming list without one item (the same list when it was not there). */
export function withoutUpcoming(upcoming: readonly StoreItem[], itemId: ItemId): StoreItem[] {
  const key = String(itemId);
  return upcoming.some((it) => String(it.itemId) === key) ? upcoming.filter((it) => String(it.itemId) !== key) : (upcoming as StoreItem[]);
}
