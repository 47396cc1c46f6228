import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NOTICES_API } from '../../../src/protocol/notices-api';
import type { AppContext } from '../../context';
import { listNotices, markRead, readPreferences, savePreferences } from '../../notices/notices';
import { unwatchItem, watchItem, watchlist } from '../../notices/watches';
import { serve } from '../contract';
import { authOf, rankAllows, requireRank } from '../guards';

/** The watchlist and the notices of the signed-in account, and what it chose for them (contracts: src/protocol/notices-api.ts). */
export function noticeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    /** Signed in, with a budget per account and route: `max` calls a minute. */
    const signedIn = (name: string, max: number) => ({
      preValidation: requireRank(ctx, 'signed-in'),
      config: { rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `${name}:${request.auth?.user.id ?? request.ip}` } },
    });

    serve(app, NOTICES_API.watch, signedIn('watch', 120), async (request) => {
      await watchItem(ctx.db, authOf(request).user.id, request.params.itemId, ctx.now());
      return { result: true as const, itemId: request.params.itemId, watching: true };
    });

    serve(app, NOTICES_API.unwatch, signedIn('watch', 120), async (request) => {
      await unwatchItem(ctx.db, authOf(request).user.id, request.params.itemId);
      return { result: true as const, itemId: request.params.itemId, watching: false };
    });

    // (the reserve's number to council and admin only, as GET store/items)
    serve(app, NOTICES_API.watchlist, signedIn('watchlist', 120), async (request) => {
      const { user } = authOf(request);
      return { result: true as const, items: await watchlist(ctx.db, user.id, ctx.now(), { reserve: rankAllows(user.rank, 'council+admin') }) };
    });

    serve(app, NOTICES_API.list, signedIn('notices', 240), async (request) => listNotices(ctx.db, authOf(request).user.id, request.query.page ?? 1));

    serve(app, NOTICES_API.markRead, signedIn('notices-read', 120), async (request) => ({ result: true as const, unread: await markRead(ctx.db, authOf(request).user.id, request.body.upTo) }));

    serve(app, NOTICES_API.preferences, signedIn('notice-preferences', 120), async (request) => ({ result: true as const, preferences: await readPreferences(ctx.db, authOf(request).user.id) }));

    serve(app, NOTICES_API.savePreferences, signedIn('notice-preferences-save', 30), async (request) => ({
      result: true as const,
      preferences: await savePreferences(ctx.db, authOf(request).user.id, request.body, ctx.now()),
    }));
  };
}
