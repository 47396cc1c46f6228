import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { noticePreferences, noticePreferencesAnswer, noticesAnswer, noticesQuery, noticesReadAnswer, noticesReadBody, watchAnswer } from '../../../src/protocol/notices';
import { STORE_ERRORS, watchlistAnswer } from '../../../src/protocol/store';
import type { AppContext } from '../../context';
import { listNotices, markRead, readPreferences, savePreferences } from '../../notices/notices';
import { unwatchItem, watchItem, watchlist } from '../../notices/watches';
import { authOf, rankAllows, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { pathId, resultErrors } from '../schemas';

/** `:itemId` in a path: anything but an item's id names no item (404). */
const itemParams = z.object({ itemId: pathId(STORE_ERRORS.unknownItem, { notFound: true }) });

/** A budget per account and route: `max` calls a minute. */
function budget(name: string, max: number) {
  return { rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `${name}:${request.auth?.user.id ?? request.ip}` } };
}

/** The watchlist and the notices of the signed-in account, and what it chose for them. */
export function noticeRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/store/items/:itemId/watch',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('watch', 120),
        schema: {
          summary: `Watch an item: its start and "ending soon" become notices. Watching it again changes nothing; at most 200 items that have not ended (409).`,
          tags: ['notices'],
          security: BEARER,
          params: itemParams,
          response: { 200: watchAnswer, ...resultErrors(401, 404, 409, 429) },
        },
      },
      async (request) => {
        await watchItem(ctx.db, authOf(request).user.id, request.params.itemId, ctx.now());
        return { result: true as const, itemId: request.params.itemId, watching: true };
      },
    );

    app.delete(
      '/store/items/:itemId/watch',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('watch', 120),
        schema: {
          summary: 'Stop watching an item (not watched: nothing changes).',
          tags: ['notices'],
          security: BEARER,
          params: itemParams,
          response: { 200: watchAnswer, ...resultErrors(401, 404, 429) },
        },
      },
      async (request) => {
        await unwatchItem(ctx.db, authOf(request).user.id, request.params.itemId);
        return { result: true as const, itemId: request.params.itemId, watching: false };
      },
    );

    app.get(
      '/store/watchlist',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('watchlist', 120),
        schema: {
          summary: 'The live items the reader watches (by end), then the scheduled ones (by start), as GET store/items shapes them for the reader.',
          tags: ['notices'],
          security: BEARER,
          response: { 200: watchlistAnswer, ...resultErrors(401, 429) },
        },
      },
      async (request) => {
        const { user } = authOf(request);
        return { result: true as const, items: await watchlist(ctx.db, user.id, ctx.now(), { reserve: rankAllows(user.rank, 'council+admin') }) };
      },
    );

    app.get(
      '/notices',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('notices', 240),
        schema: {
          summary: "The account's notices of the last 30 days, newest first, 30 a page, with how many are unread.",
          tags: ['notices'],
          security: BEARER,
          querystring: noticesQuery,
          response: { 200: noticesAnswer, ...resultErrors(400, 401, 429) },
        },
      },
      async (request) => listNotices(ctx.db, authOf(request).user.id, request.query.page ?? 1),
    );

    app.post(
      '/notices/read',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('notices-read', 120),
        schema: {
          summary: "Mark every notice of the account up to upTo (a notice's id) read; answers how many are still unread.",
          tags: ['notices'],
          security: BEARER,
          body: noticesReadBody,
          response: { 200: noticesReadAnswer, ...resultErrors(400, 401, 429) },
        },
      },
      async (request) => ({ result: true as const, unread: await markRead(ctx.db, authOf(request).user.id, request.body.upTo) }),
    );

    app.get(
      '/notices/preferences',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('notice-preferences', 120),
        schema: {
          summary: 'Where each kind of notice goes (app, discord, both or none) and the "ending soon" lead time; the defaults until the player chooses.',
          tags: ['notices'],
          security: BEARER,
          response: { 200: noticePreferencesAnswer, ...resultErrors(401, 429) },
        },
      },
      async (request) => ({ result: true as const, preferences: await readPreferences(ctx.db, authOf(request).user.id) }),
    );

    app.put(
      '/notices/preferences',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: budget('notice-preferences-save', 30),
        schema: {
          summary: 'Choose where each kind of notice goes and the "ending soon" lead time (15, 5 or 1 minutes); later notices follow it.',
          tags: ['notices'],
          security: BEARER,
          body: noticePreferences,
          response: { 200: noticePreferencesAnswer, ...resultErrors(400, 401, 429) },
        },
      },
      async (request) => ({ result: true as const, preferences: await savePreferences(ctx.db, authOf(request).user.id, request.body, ctx.now()) }),
    );
  };
}
