import type { KyInstance } from 'ky';
import { noticePreferencesAnswer, noticesAnswer, noticesReadAnswer, watchAnswer, type NoticePreferences, type NoticesAnswer } from '../protocol/notices';
import { watchlistAnswer, type StoreItem } from '../protocol/store';
import { answer } from './rest';

/** The signed-in account's notices, what it chose for them, and its watchlist; answers checked against the contract. */
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
    async list(page) {
      return answer(await client.get('notices', { searchParams: { page } }), noticesAnswer);
    },
    async markRead(upTo) {
      const { unread } = await answer(await client.post('notices/read', { json: { upTo } }), noticesReadAnswer);
      return { unread };
    },
    async preferences() {
      return (await answer(await client.get('notices/preferences'), noticePreferencesAnswer)).preferences;
    },
    async savePreferences(preferences) {
      return (await answer(await client.put('notices/preferences', { json: preferences }), noticePreferencesAnswer)).preferences;
    },
    async watchlist() {
      return (await answer(await client.get('store/watchlist'), watchlistAnswer)).items;
    },
    async watch(itemId, watching) {
      const path = `store/items/${itemId}/watch`;
      return (await answer(await (watching ? client.post(path) : client.delete(path)), watchAnswer)).watching;
    },
  };
}
