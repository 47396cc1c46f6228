import * as z from 'zod/mini';
import {
  HISTORY_OUTCOMES,
  UPLOAD_MAX_BYTES,
  UPLOAD_TYPES,
  historyEntry,
  sale,
  storeItem,
  uploadAnswer,
  type EditItemBody,
  type HistoryEntry,
  type HistoryOutcome,
  type StoreItem,
} from '../protocol/store';
import type { KyInstance } from 'ky';
import { answer, csvBlob, params, type ExportFile } from './rest';
import { tolerantList } from './store';

/**
 * The store's back office and the player's own history: sales and unsold items, editing a
 * scheduled item, duplicating one, image uploads and the caller's won items. Apart from
 * src/api/store.ts so the sign-in bundle does not carry it.
 */
const paged = { page: z.int(), pageSize: z.int(), total: z.int() };

export { HISTORY_OUTCOMES, UPLOAD_MAX_BYTES, UPLOAD_TYPES, type HistoryEntry, type HistoryOutcome };

const historyAnswer = z.object({ result: z.literal(true), entries: tolerantList(historyEntry, 'history entr(y/ies)'), ...paged });
const salesAnswer = z.object({ result: z.literal(true), sales: tolerantList(sale, 'sale(s)'), ...paged });
const itemAnswer = z.object({ result: z.literal(true), item: storeItem });
const uploadAnswerOk = z.object({ result: z.literal(true), ...uploadAnswer.shape });


export interface HistoryFilters {
  user?: string;
  outcome?: HistoryOutcome;
  from?: number;
  to?: number;
}

export interface StoreOfficeApi {
  history(filters: HistoryFilters, page?: number): Promise<z.infer<typeof historyAnswer>>;
  historyFile(filters: HistoryFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  myHistory(page?: number): Promise<z.infer<typeof salesAnswer>>;
  editItem(itemId: number, body: EditItemBody): Promise<StoreItem>;
  duplicateItem(itemId: number, startsAt?: number): Promise<StoreItem>;
  upload(file: File): Promise<string>;
}

const filterParams = (f: HistoryFilters) => params({ user: f.user?.trim(), outcome: f.outcome, from: f.from, to: f.to });

export function createStoreOfficeApi(client: KyInstance): StoreOfficeApi {
  return {
    async history(filters, page = 1) {
      return answer(await client.get('store/history', { searchParams: { ...filterParams(filters), page: String(page) } }), historyAnswer);
    },
    async historyFile(filters, file) {
      return csvBlob(await client.get(`store/history.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    async myHistory(page = 1) {
      return answer(await client.get('store/my-history', { searchParams: { page: String(page) } }), salesAnswer);
    },
    async editItem(itemId, body) {
      return (await answer(await client.post(`store/items/${itemId}`, { json: body }), itemAnswer)).item;
    },
    async duplicateItem(itemId, startsAt) {
      return (await answer(await client.post(`store/items/${itemId}/duplicate`, { json: startsAt === undefined ? {} : { startsAt } }), itemAnswer)).item;
    },
    async upload(file) {
      const body = new FormData();
      body.append('file', file, file.name);
      return (await answer(await client.post('store/uploads', { body, timeout: 60_000 }), uploadAnswerOk)).url;
    },
  };
}
