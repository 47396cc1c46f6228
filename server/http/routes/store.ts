import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { POINTS_ERRORS } from '../../../src/protocol/points';
import {
  createItemBody,
  duplicateItemBody,
  editItemBody,
  historyEntry,
  historyQuery,
  pageQuery,
  sale,
  STORE_ERRORS,
  storeItem,
  storeItemsQuery,
  UPLOAD_MAX_BYTES,
  uploadAnswer,
} from '../../../src/protocol/store';
import type { HistoryFilter } from '../../auction/engine';
import type { AppContext } from '../../context';
import { csvTime, sendCsv } from '../csv';
import { acceptMultipart, detectImage, readUploadedFile, registerUploadsStatic, saveUpload } from '../uploads';
import { findUserByUsername } from '../../users/users';
import { HttpError, parseBody } from '../errors';
import { authOf, requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, jsonSchema(resultError)]));
const itemAnswer = jsonSchema(z.object({ result: z.literal(true), item: storeItem }));
const salesAnswer = jsonSchema(z.object({ result: z.literal(true), sales: z.array(sale), page: z.int(), pageSize: z.int(), total: z.int() }));

/** The kingdom store: items auctioned for kingdom points (bids are on the auction socket), and its sales. */
export function storeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get(
      '/store/items',
      {
        preHandler: requireRank(ctx, 'signed-in'),
        schema: {
          summary: 'Items, optionally of one state: scheduled by start, live by end, finished and cancelled newest first; 500 a page',
          tags: ['store'],
          security: BEARER,
          querystring: jsonSchema(storeItemsQuery, 'input'),
          response: {
            200: jsonSchema(z.object({ result: z.literal(true), items: z.array(storeItem), page: z.int(), pageSize: z.int(), total: z.int() })),
            ...errors(400, 401),
          },
        },
      },
      async (request) => {
        const query = parseBody(storeItemsQuery, request.query ?? {});
        return { result: true, ...(await ctx.auction.listItems(query.state, query.page)) };
      },
    );

    app.post(
      '/store/items',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Create an auction item: live at once without startsAt, else scheduled; BIDDING_STARTED goes out on the auction socket when it starts',
          tags: ['store'],
          security: BEARER,
          body: jsonSchema(createItemBody, 'input'),
          response: { 200: itemAnswer, ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const body = parseBody(createItemBody, request.body);
        const item = await ctx.auction.createItem(body, authOf(request).user.id);
        request.log.info({ itemId: item.itemId, by: authOf(request).user.id }, 'item created');
        return { result: true, item };
      },
    );

    app.post<{ Params: { itemId: string } }>(
      '/store/items/:itemId/cancel',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "Cancel a scheduled or live item: the leader's reserved points are released; a live item's boards get NO_BUYER",
          tags: ['store'],
          security: BEARER,
          params: itemParams,
          response: { 200: itemAnswer, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const itemId = parseItemId(request.params.itemId);
        const item = await ctx.auction.cancelItem(itemId, authOf(request).user.id);
        request.log.info({ itemId, by: authOf(request).user.id }, 'item cancelled');
        return { result: true, item };
      },
    );

    const historyAnswer = jsonSchema(
      z.object({ result: z.literal(true), entries: z.array(historyEntry), sales: z.array(sale), page: z.int(), pageSize: z.int(), total: z.int() }),
    );

    app.get(
      '/store/history',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Every finished item, sold or unsold, by end newest first, 50 a page; filters: user (the buyer), from/to (the end, epoch ms, inclusive), outcome. ' +
            '`sales` repeats the sold entries of the page in the sale shape of the first wire contract.',
          tags: ['store'],
          security: BEARER,
          querystring: jsonSchema(historyQuery, 'input'),
          response: { 200: historyAnswer, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { page, ...filter } = await historyFilter(request.query);
        const answer = await ctx.auction.historyEntries(filter, page ?? 1);
        const sales = answer.entries.flatMap((e) =>
          e.outcome === 'sold' && e.username !== null && e.amount !== null ? [{ itemId: e.itemId, itemName: e.itemName, username: e.username, amount: e.amount, at: e.at }] : [],
        );
        return { result: true, ...answer, sales };
      },
    );

    app.get(
      '/store/history.csv',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "The store history's matching entries as CSV (RFC 4180, UTF-8 with BOM; text that starts with = + - @, tab or CR is prefixed with '). Same filters as GET /store/history.",
          tags: ['store'],
          security: BEARER,
          querystring: jsonSchema(historyQuery, 'input'),
          response: { 200: { description: 'text/csv', type: 'string' }, ...errors(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { page: _page, ...filter } = await historyFilter(request.query);
        return sendCsv(
          reply,
          'store-history.csv',
          ['item id', 'item', 'outcome', 'buyer', 'amount', 'time'],
          ctx.auction.allHistoryEntries(filter),
          (e) => [e.itemId, e.itemName, e.outcome, e.username, e.amount, csvTime(e.at)],
        );
      },
    );

    app.post<{ Params: { itemId: string } }>(
      '/store/items/:itemId',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Edit a scheduled item: any of the creation fields (imageUrl null removes the image); 409 once it has started, finished or been cancelled',
          tags: ['store'],
          security: BEARER,
          params: itemParams,
          body: jsonSchema(editItemBody, 'input'),
          response: { 200: itemAnswer, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const itemId = parseItemId(request.params.itemId);
        const body = parseBody(editItemBody, request.body ?? {});
        const item = await ctx.auction.editItem(itemId, body, authOf(request).user.id);
        request.log.info({ itemId, by: authOf(request).user.id }, 'item edited');
        return { result: true, item };
      },
    );

    app.post<{ Params: { itemId: string } }>(
      '/store/items/:itemId/duplicate',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "A copy of an item in any state (its name with ' (copy)', shortened to fit; the same texts, prices, timing and eligibility) as a new item, starting now or at startsAt",
          tags: ['store'],
          security: BEARER,
          params: itemParams,
          body: jsonSchema(duplicateItemBody, 'input'),
          response: { 200: itemAnswer, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const itemId = parseItemId(request.params.itemId);
        const body = parseBody(duplicateItemBody, request.body ?? {});
        const item = await ctx.auction.duplicateItem(itemId, body.startsAt, authOf(request).user.id);
        request.log.info({ itemId: item.itemId, from: itemId, by: authOf(request).user.id }, 'item duplicated');
        return { result: true, item };
      },
    );

    // Item images: multipart/form-data only for this route (an encapsulated instance).
    await app.register(async (multipartApp) => {
      await acceptMultipart(multipartApp);
      multipartApp.post(
        '/store/uploads',
        {
          preHandler: requireRank(ctx, 'council+admin'),
          schema: {
            summary: 'Upload an item image: multipart/form-data with `file` (PNG, JPEG, WebP or GIF by its content, at most 2 MB); answers the URL it is served at (/uploads/…)',
            tags: ['store'],
            security: BEARER,
            consumes: ['multipart/form-data'],
            response: { 200: jsonSchema(z.object({ result: z.literal(true), ...uploadAnswer.shape })), ...errors(400, 401, 403) },
          },
        },
        async (request) => {
          const { bytes } = await readUploadedFile(request, UPLOAD_MAX_BYTES, { missing: STORE_ERRORS.uploadMissing, tooLarge: STORE_ERRORS.uploadTooLarge });
          const type = detectImage(bytes);
          if (!type) throw new HttpError(400, STORE_ERRORS.uploadType);
          const url = await saveUpload(ctx.config.dataDir, bytes, type);
          request.log.info({ url, bytes: bytes.length, by: authOf(request).user.id }, 'image uploaded');
          return { result: true, url };
        },
      );
    });
    await registerUploadsStatic(app, ctx);

    app.get(
      '/store/my-history',
      {
        preHandler: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "The caller's won items, newest first, 50 a page",
          tags: ['store'],
          security: BEARER,
          querystring: jsonSchema(pageQuery, 'input'),
          response: { 200: salesAnswer, ...errors(400, 401) },
        },
      },
      async (request) => {
        const query = parseBody(pageQuery, request.query ?? {});
        return { result: true, ...(await ctx.auction.sales({ userId: authOf(request).user.id, page: query.page })) };
      },
    );
  };

  /** The store history filters of a query string, with the buyer's username resolved (404 for an unknown one). */
  async function historyFilter(raw: unknown): Promise<HistoryFilter & { page?: number }> {
    const query = parseBody(historyQuery, raw ?? {});
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw new HttpError(400, STORE_ERRORS.fromAfterTo);
    const filter: HistoryFilter & { page?: number } = { from: query.from, to: query.to, outcome: query.outcome, page: query.page };
    if (query.user) {
      const user = await findUserByUsername(ctx.db, query.user);
      if (!user) throw new HttpError(404, POINTS_ERRORS.unknownUser);
      filter.userId = user.id;
    }
    return filter;
  }
}

const itemParams = { type: 'object', properties: { itemId: { type: 'integer' } }, required: ['itemId'] };

/** An item id from the path; anything but a positive whole number is an unknown item. */
function parseItemId(raw: string): number {
  const itemId = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(itemId) || itemId < 1) throw new HttpError(404, STORE_ERRORS.unknownItem);
  return itemId;
}
