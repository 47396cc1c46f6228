import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { storeItem, type CreateItemBody, type ItemState, type StoreItem } from '../protocol/store';
import { STORE_API } from '../protocol/store-api';
import { call, keyOf, withAnswer } from './contract';

/**
 * The items of a list answer one by one: an item the contract does not match is left out and
 * reported (on the console, with its id when it has one and the first problem), so one bad item
 * is one missing row, never a page that cannot load.
 */
export function keepValid<S extends z.ZodMiniType>(schema: S, values: readonly unknown[], what: string): z.infer<S>[] {
  const kept: z.infer<S>[] = [];
  const dropped: string[] = [];
  for (const value of values) {
    const parsed = schema.safeParse(value);
    if (parsed.success) kept.push(parsed.data);
    else {
      const id = typeof value === 'object' && value !== null ? ((value as { itemId?: unknown; id?: unknown }).itemId ?? (value as { id?: unknown }).id) : undefined;
      const issue = parsed.error.issues[0];
      dropped.push(`${id === undefined ? '?' : String(id)} (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
    }
  }
  if (dropped.length > 0) reportDropped(what, dropped);
  return kept;
}

/** Where left-out items are told; tests replace it to see them. */
export let reportDropped = (what: string, dropped: string[]): void => {
  console.warn(`Kingdom: ${dropped.length} ${what} left out, not as the contract says: ${dropped.join('; ')}`);
};
export function setReportDropped(report: (what: string, dropped: string[]) => void): void {
  reportDropped = report;
}

/** A list in an answer, read item by item (see keepValid). */
export const tolerantList = <S extends z.ZodMiniType>(schema: S, what: string) =>
  z.pipe(
    z.array(z.unknown()),
    z.transform((values: unknown[]) => keepValid(schema, values, what)),
  );

/** The store's REST calls (items: list, create, cancel) from their contracts; the list read item by item. */
const items = withAnswer(STORE_API.items, z.extend(STORE_API.items.answer, { items: tolerantList(storeItem, 'store item(s)') }));

export interface StoreApi {
  listItems(state?: ItemState): Promise<StoreItem[]>;
  createItem(body: CreateItemBody): Promise<StoreItem>;
  cancelItem(itemId: number): Promise<StoreItem>;
}

export function createStoreApi(client: KyInstance): StoreApi {
  return {
    listItems: async (state) => (await call(client, items, { query: { state } })).items,
    createItem: async (body) => (await call(client, STORE_API.create, { body })).item,
    cancelItem: async (itemId) => (await call(client, STORE_API.cancel, { params: { itemId } })).item,
  };
}

/** The store's query keys: a page reads and invalidates these, never a key of its own. */
export const storeKeys = {
  /** Every list of items (any state) and every item's details: what a change of an item refreshes. */
  items: keyOf(STORE_API.items),
  /** The items of one state, or all. */
  list: (state?: ItemState) => keyOf(STORE_API.items, { query: { state } }),
  /** One item's store record, found in the list of its state. */
  details: (state: ItemState, itemId: number | string) => [...keyOf(STORE_API.items, { query: { state } }), itemId] as const,
} as const;
