import * as z from 'zod/mini';
import { endpoint, optionalBody, resultTrue } from './endpoint';
import { duplicateItemBody, editItemBody, historyEntry, historyQuery, pageQuery, sale, storeItem } from './store';
import { itemParams } from './store-api';

/**
 * The store's back office and the player's own history, one contract per endpoint: the sales and
 * unsold items, editing a scheduled item, duplicating one, and the caller's won items. Apart from
 * the store's own endpoints (store-api.ts) so the sign-in bundle does not carry them. The history's
 * CSV/XLSX files and the image upload (multipart) are routes of their own (server/http/routes/store.ts).
 */
const paged = { page: z.int(), pageSize: z.int(), total: z.int() };

export const STORE_OFFICE_API = {
  history: endpoint({
    method: 'GET',
    path: 'store/history',
    query: historyQuery,
    answer: resultTrue({ entries: z.array(historyEntry), ...paged, sales: z.array(sale) }),
    errors: [400, 401, 403, 404],
    tag: 'store',
    summary:
      'Every finished or cancelled item (sold, unsold, cancelled), by end newest first, 50 a page; filters: user (the buyer), from/to (the end, epoch ms, inclusive), outcome. ' +
      '`sales` repeats the sold entries of the page in the sale shape of the first wire contract; `total` counts entries, so to page through sales alone ask for outcome=sold (then both lists are the same).',
  }),
  myHistory: endpoint({
    method: 'GET',
    path: 'store/my-history',
    query: pageQuery,
    answer: resultTrue({ sales: z.array(sale), ...paged }),
    errors: [400, 401],
    tag: 'store',
    summary: "The caller's won items, newest first, 50 a page",
  }),
  edit: endpoint({
    method: 'POST',
    path: 'store/items/:itemId',
    params: itemParams,
    body: optionalBody(editItemBody),
    answer: resultTrue({ item: storeItem }),
    errors: [400, 401, 403, 404, 409],
    tag: 'store',
    summary: 'Edit a scheduled item: any of the creation fields (imageUrl null removes the image); 409 once it has started, finished or been cancelled',
  }),
  duplicate: endpoint({
    method: 'POST',
    path: 'store/items/:itemId/duplicate',
    params: itemParams,
    body: optionalBody(duplicateItemBody),
    answer: resultTrue({ item: storeItem }),
    errors: [400, 401, 403, 404],
    tag: 'store',
    summary: "A copy of an item in any state (its name with ' (copy)', shortened to fit; the same texts, prices, timing and eligibility) as a new item, starting now or at startsAt",
  }),
} as const;
