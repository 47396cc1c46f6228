import * as z from 'zod/mini';
import { HISTORY_OUTCOMES, UPLOAD_MAX_BYTES, UPLOAD_TYPES, historyEntry, sale, uploadAnswer, type EditItemBody, type HistoryEntry, type HistoryOutcome, type StoreItem } from '../protocol/store';
import { STORE_OFFICE_API } from '../protocol/store-office-api';
import { resultTrue, type AnswerOf } from '../protocol/endpoint';
import type { KyInstance } from 'ky';
import { call, keyOf, withAnswer } from './contract';
import { answer, csvBlob, params, type ExportFile } from './rest';
import { tolerantList } from './store';

/**
 * The store's back office and the player's own history: sales and unsold items, editing a
 * scheduled item, duplicating one, image uploads and the caller's won items. Apart from
 * src/api/store.ts so the sign-in bundle does not carry it.
 */
export { HISTORY_OUTCOMES, UPLOAD_MAX_BYTES, UPLOAD_TYPES, type HistoryEntry, type HistoryOutcome };

// the lists are read item by item (tolerantList)
const history = withAnswer(
  STORE_OFFICE_API.history,
  z.extend(STORE_OFFICE_API.history.answer, { entries: tolerantList(historyEntry, 'history entr(y/ies)'), sales: tolerantList(sale, 'sale(s)') }),
);
const myHistory = withAnswer(STORE_OFFICE_API.myHistory, z.extend(STORE_OFFICE_API.myHistory.answer, { sales: tolerantList(sale, 'sale(s)') }));
// the image upload is multipart, not a JSON contract: its answer read here
const uploadAnswerOk = resultTrue(uploadAnswer.shape);

export interface HistoryFilters {
  user?: string;
  outcome?: HistoryOutcome;
  from?: number;
  to?: number;
}

export interface StoreOfficeApi {
  history(filters: HistoryFilters, page?: number): Promise<AnswerOf<typeof history>>;
  historyFile(filters: HistoryFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  myHistory(page?: number): Promise<AnswerOf<typeof myHistory>>;
  editItem(itemId: number, body: EditItemBody): Promise<StoreItem>;
  duplicateItem(itemId: number, startsAt?: number): Promise<StoreItem>;
  upload(file: File): Promise<string>;
}

const filterParams = (f: HistoryFilters) => params({ user: f.user?.trim(), outcome: f.outcome, from: f.from, to: f.to });

export function createStoreOfficeApi(client: KyInstance): StoreOfficeApi {
  return {
    history: (filters, page = 1) => call(client, history, { query: { ...filterParams(filters), page } }),
    async historyFile(filters, file) {
      return csvBlob(await client.get(`store/history.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    myHistory: (page = 1) => call(client, myHistory, { query: { page } }),
    editItem: async (itemId, body) => (await call(client, STORE_OFFICE_API.edit, { params: { itemId }, body })).item,
    duplicateItem: async (itemId, startsAt) => (await call(client, STORE_OFFICE_API.duplicate, { params: { itemId }, body: startsAt === undefined ? {} : { startsAt } })).item,
    async upload(file) {
      const body = new FormData();
      body.append('file', file, file.name);
      return (await answer(await client.post('store/uploads', { body, timeout: 60_000 }), uploadAnswerOk)).url;
    },
  };
}

/** The back office's query keys: a page reads and invalidates these, never a key of its own. */
export const storeOfficeKeys = {
  history: (filters: HistoryFilters, page: number) => keyOf(STORE_OFFICE_API.history, { query: { ...filterParams(filters), page } }),
  myHistory: (page: number) => keyOf(STORE_OFFICE_API.myHistory, { query: { page } }),
} as const;
