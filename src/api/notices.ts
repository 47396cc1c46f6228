import type { KyInstance } from 'ky';
import type { NoticePreferences, NoticesAnswer } from '../protocol/notices';
import { NOTICES_API } from '../protocol/notices-api';
import type { StoreItem } from '../protocol/store';
import { call, keyOf } from './contract';

/** The signed-in account's notices, what it chose for them, and its watchlist (calls from their contracts). */
export interface NoticesApi {
  /** One page of notices, newest first, with the unread count. */
  list(page: number): Promise<NoticesAnswer>;
  /** Every notice up to `upTo` (an id) is read; how many are still unread. */
  markRead(upTo: number): Promise<{ unread: number }>;
  preferences(): Promise<NoticePreferences>;
  savePreferences(preferences: NoticePreferences): Promise<NoticePreferences>;
  /** The live and scheduled items the account watches. */
  watchlist(): Promise<StoreItem[]>;
  /** Watch an item (`true`) or stop watching it; whether it is watched now. */
  watch(itemId: number, watching: boolean): Promise<boolean>;
}

export function createNoticesApi(client: KyInstance): NoticesApi {
  return {
    list: (page) => call(client, NOTICES_API.list, { query: { page } }),
    markRead: async (upTo) => ({ unread: (await call(client, NOTICES_API.markRead, { body: { upTo } })).unread }),
    preferences: async () => (await call(client, NOTICES_API.preferences)).preferences,
    savePreferences: async (preferences) => (await call(client, NOTICES_API.savePreferences, { body: preferences })).preferences,
    watchlist: async () => (await call(client, NOTICES_API.watchlist)).items,
    watch: async (itemId, watching) => (await call(client, watching ? NOTICES_API.watch : NOTICES_API.unwatch, { params: { itemId } })).watching,
  };
}

/** The notices' and the watchlist's query keys: a page reads and invalidates these, never a key of its own. */
export const noticesKeys = {
  list: (page: number) => keyOf(NOTICES_API.list, { query: { page } }),
  preferences: keyOf(NOTICES_API.preferences),
  watchlist: keyOf(NOTICES_API.watchlist),
} as const;
