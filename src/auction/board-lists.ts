import type { ItemId } from '../protocol/socket';
import { compareItemIds } from './item-id';

/**
 * Which items the board shows where: live ones in id order (numbers, then strings; see
 * item-id.ts), so cards never jump as bids come; finished ones most recent end first. Each
 * function gives a new list and leaves its argument alone.
 */
export interface FinishedEntry {
  itemId: ItemId;
  endsAt: number;
}

export function withLive(live: readonly ItemId[], itemId: ItemId): ItemId[] {
  let at = 0;
  while (at < live.length && compareItemIds(live[at], itemId) < 0) at += 1;
  if (at < live.length && compareItemIds(live[at], itemId) === 0) return live as ItemId[];
  return [...live.slice(0, at), itemId, ...live.slice(at)];
}

export function withFinished(finished: readonly FinishedEntry[], entry: FinishedEntry): FinishedEntry[] {
  const rest = finished.filter((f) => String(f.itemId) !== String(entry.itemId));
  let at = 0;
  while (at < rest.length && (rest[at].endsAt > entry.endsAt || (rest[at].endsAt === entry.endsAt && compareItemIds(rest[at].itemId, entry.itemId) < 0))) at += 1;
  return [...rest.slice(0, at), entry, ...rest.slice(at)];
}

export function withoutItem<T extends ItemId | FinishedEntry>(list: readonly T[], itemId: ItemId): T[] {
  const key = String(itemId);
  const idOf = (x: T) => String(typeof x === 'object' ? x.itemId : x);
  return list.some((x) => idOf(x) === key) ? list.filter((x) => idOf(x) !== key) : (list as T[]);
}
