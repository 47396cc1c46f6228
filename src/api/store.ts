import ky from 'ky';
import * as z from 'zod/mini';
import { storeItem, type CreateItemBody, type ItemState, type StoreItem } from '../protocol/store';
import { ApiError } from './client';

/** The store's REST calls (items: list, create, cancel), answers checked against the contract. */
const itemsAnswer = z.object({ result: z.literal(true), items: z.array(storeItem) });
const itemAnswer = z.object({ result: z.literal(true), item: storeItem });
const failure = z.object({ result: z.literal(false), error: z.string() });

export interface StoreApi {
  listItems(token: string, state?: ItemState): Promise<StoreItem[]>;
  createItem(token: string, body: CreateItemBody): Promise<StoreItem>;
  cancelItem(token: string, itemId: number): Promise<StoreItem>;
}

async function answer<S extends z.ZodMiniType>(response: Response, schema: S): Promise<z.infer<S>> {
  const body: unknown = await response.json().catch(() => null);
  const ok = schema.safeParse(body);
  if (ok.success) return ok.data;
  const bad = failure.safeParse(body);
  throw new ApiError(bad.success ? bad.data.error : `${response.status} ${response.statusText}`);
}

export function createStoreApi(baseUrl: string): StoreApi {
  const client = ky.create({ prefixUrl: baseUrl, throwHttpErrors: false, timeout: 15_000, retry: 0 });
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  return {
    async listItems(token, state) {
      const response = await client.get('store/items', { headers: auth(token), searchParams: state ? { state } : undefined });
      return (await answer(response, itemsAnswer)).items;
    },
    async createItem(token, body) {
      return (await answer(await client.post('store/items', { headers: auth(token), json: body }), itemAnswer)).item;
    },
    async cancelItem(token, itemId) {
      return (await answer(await client.post(`store/items/${itemId}/cancel`, { headers: auth(token) }), itemAnswer)).item;
    },
  };
}
