import { endpoint } from './endpoint';
import { pathId } from './http';
import { MAX_WATCHES, noticePreferences, noticePreferencesAnswer, noticesAnswer, noticesQuery, noticesReadAnswer, noticesReadBody, watchAnswer } from './notices';
import { STORE_ERRORS, watchlistAnswer } from './store';

/** `:itemId` in a path: anything but an item's id names no item (404). */
const itemParams = { itemId: pathId(STORE_ERRORS.unknownItem, { notFound: true }) };

/**
 * The watchlist's and the notices' REST endpoints (signed-in accounts, each its own). Apart from
 * notices.ts, which socket.ts reads: these need the store's Item, and store.ts reads socket.ts.
 */
export const NOTICES_API = {
  watch: endpoint({
    method: 'POST',
    path: 'store/items/:itemId/watch',
    params: itemParams,
    answer: watchAnswer,
    errors: [401, 404, 409, 429],
    tag: 'notices',
    summary: `Watch an item: its start and "ending soon" become notices. Watching it again changes nothing; at most ${MAX_WATCHES} items that have not ended (409).`,
  }),
  unwatch: endpoint({
    method: 'DELETE',
    path: 'store/items/:itemId/watch',
    params: itemParams,
    answer: watchAnswer,
    errors: [401, 404, 429],
    tag: 'notices',
    summary: 'Stop watching an item (not watched: nothing changes).',
  }),
  watchlist: endpoint({
    method: 'GET',
    path: 'store/watchlist',
    answer: watchlistAnswer,
    errors: [401, 429],
    tag: 'notices',
    summary: 'The live items the reader watches (by end), then the scheduled ones (by start), as GET store/items shapes them for the reader.',
  }),
  list: endpoint({
    method: 'GET',
    path: 'notices',
    query: noticesQuery,
    answer: noticesAnswer,
    errors: [400, 401, 429],
    tag: 'notices',
    summary: "The account's notices of the last 30 days, newest first, 30 a page, with how many are unread.",
  }),
  markRead: endpoint({
    method: 'POST',
    path: 'notices/read',
    body: noticesReadBody,
    answer: noticesReadAnswer,
    errors: [400, 401, 429],
    tag: 'notices',
    summary: "Mark every notice of the account up to upTo (a notice's id) read; answers how many are still unread.",
  }),
  preferences: endpoint({
    method: 'GET',
    path: 'notices/preferences',
    answer: noticePreferencesAnswer,
    errors: [401, 429],
    tag: 'notices',
    summary: 'Where each kind of notice goes (app, discord, both or none) and the "ending soon" lead time; the defaults until the player chooses.',
  }),
  savePreferences: endpoint({
    method: 'PUT',
    path: 'notices/preferences',
    body: noticePreferences,
    answer: noticePreferencesAnswer,
    errors: [400, 401, 429],
    tag: 'notices',
    summary: 'Choose where each kind of notice goes and the "ending soon" lead time (15, 5 or 1 minutes); later notices follow it.',
  }),
} as const;
