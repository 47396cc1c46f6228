import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { POINTS_ERRORS } from '../../../src/protocol/points';
import { createItemBody, pageQuery, sale, salesQuery, STORE_ERRORS, storeItem, storeItemsQuery } from '../../../src/protocol/store';
import type { AppContext } from '../../context';
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
          params: { type: 'object', properties: { itemId: { type: 'integer' } }, required: ['itemId'] },
          response: { 200: itemAnswer, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const itemId = Number(request.params.itemId);
        if (!/^\d{1,15}$/.test(request.params.itemId) || !Number.isSafeInteger(itemId) || itemId < 1) throw new HttpError(404, STORE_ERRORS.unknownItem);
        const item = await ctx.auction.cancelItem(itemId);
        request.log.info({ itemId, by: authOf(request).user.id }, 'item cancelled');
        return { result: true, item };
      },
    );

    app.get(
      '/store/history',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Every sale, newest first, 50 a page; optionally one buyer (user = username)',
          tags: ['store'],
          security: BEARER,
          querystring: jsonSchema(salesQuery, 'input'),
          response: { 200: salesAnswer, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const query = parseBody(salesQuery, request.query ?? {});
        let userId: number | undefined;
        if (query.user) {
          const user = await findUserByUsername(ctx.db, query.user);
          if (!user) throw new HttpError(404, POINTS_ERRORS.unknownUser);
          userId = user.id;
        }
        return { result: true, ...(await ctx.auction.sales({ userId, page: query.page })) };
      },
    );

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
}
