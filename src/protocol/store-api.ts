import * as z from 'zod/mini';
import { endpoint, resultTrue } from './endpoint';
import { pathId } from './http';
import { createItemBody, STORE_ERRORS, storeItem, storeItemsQuery } from './store';

/**
 * The store's own endpoints, one contract each: its items (list, create, cancel). The back office's
 * are store-office-api.ts; bids are on the auction socket.
 */

/** `:itemId` in a path: anything but an item's id names no item (404). */
export const itemParams = { itemId: pathId(STORE_ERRORS.unknownItem, { notFound: true }) };

export const STORE_API = {
  items: endpoint({
    method: 'GET',
    path: 'store/items',
    query: storeItemsQuery,
    answer: resultTrue({ items: z.array(storeItem), page: z.int(), pageSize: z.int(), total: z.int() }),
    errors: [400, 401],
    tag: 'store',
    summary: 'Items, optionally of one state: scheduled by start, live by end, finished and cancelled newest first; 500 a page',
  }),
  create: endpoint({
    method: 'POST',
    path: 'store/items',
    body: createItemBody,
    answer: resultTrue({ item: storeItem }),
    errors: [400, 401, 403],
    tag: 'store',
    summary: 'Create an auction item: live at once without startsAt, else scheduled; BIDDING_STARTED goes out on the auction socket when it starts',
  }),
  cancel: endpoint({
    method: 'POST',
    path: 'store/items/:itemId/cancel',
    params: itemParams,
    answer: resultTrue({ item: storeItem }),
    errors: [401, 403, 404, 409],
    tag: 'store',
    summary: "Cancel a scheduled or live item: the leader's reserved points are released; a live item's boards get NO_BUYER",
  }),
} as const;
