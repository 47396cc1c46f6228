import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { storeItem, type CreateItemBody, type ItemState, type StoreItem } from '../protocol/store';
import { answer } from './rest';

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

/** The store's REST calls (items: list, create, cancel), answers checked against the contract. */
const itemsAnswer = z.object({ result: z.literal(true), items: tolerantList(storeItem, 'store item(s)') });
const itemAnswer = z.object({ result: z.literal(true), item: storeItem });
export interface StoreApi {
  listItems(state?: ItemState): Promise<StoreItem[]>;
  createItem(body: CreateItemBody): Promise<StoreItem>;
  cancelItem(itemId: number): Promise<StoreItem>;
}

export function createStoreApi(client: KyInstance): StoreApi {
  return {
    async listItems(state) {
      const response = await client.get('store/items', { searchParams: state ? { state } : undefined });
      return (await answer(response, itemsAnswer)).items;
    },
    async createItem(body) {
      return (await answer(await client.post('store/items', { json: body }), itemAnswer)).item;
    },
    async cancelItem(itemId) {
      return (await answer(await client.post(`store/items/${itemId}/cancel`), itemAnswer)).item;
    },
  };
}
