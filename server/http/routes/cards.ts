import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { CARD_ERRORS, CARDS_API, governorCardQuery, itemCardQuery, kvkCardQuery } from '../../../src/protocol/cards';
import { AUTH_ERRORS } from '../../../src/protocol/auth';
import type { AppContext } from '../../context';
import { cardRequestOf, parseCardPath, type Viewer } from '../../cards/data';
import { etagMatches, type CardService, type PreparedCard } from '../../cards/service';
import { createShareLink, listShareLinks, liveShareLink, revokeShareLink } from '../../cards/shares';
import { Forbidden, Invalid } from '../../errors';
import { authOf, originOf, rankAllows, requireRank } from '../guards';
import { serve } from '../contract';
import { BEARER } from '../openapi';
import { resultErrors } from '../schemas';

const png = { description: 'image/png, 1200 × 675', type: 'string', format: 'binary' };
/** A link answers the image the same to anyone: a reader's cache may keep it a few minutes. */
const SHARED_MAX_AGE_S = 300;

const viewerOf = (request: FastifyRequest): Viewer => {
  const { user } = authOf(request);
  return { id: user.id, rank: user.rank };
};

async function send(request: FastifyRequest, reply: FastifyReply, cards: CardService, card: PreparedCard, cacheControl: string) {
  reply.header('etag', card.etag).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
  if (etagMatches(request.headers['if-none-match'], card.etag)) return reply.code(304).send();
  const bytes = await cards.png(card);
  return reply.type('image/png').send(bytes);
}

/**
 * Stat cards and share links. A card is read by whoever may
 * read its data (the governor, KvK and store routes' own rank checks), drawn off the event loop by a
 * bounded worker pool (503 with a sentence over it) and answered by content (ETag, 304).
 */
export function cardRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const cards = ctx.cards;
    const privateCache = 'private, no-cache';

    app.get(
      '/cards/governor/:governorId.png',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "A governor's card (PNG, 1200 × 675): power, kill points, deads, T4/T5 kills with their change since the governor's scan before, ranks, and KvK progress while a season runs. A player may read their own governors, council and admin any. ETag; 304 on If-None-Match.",
          tags: ['cards'],
          security: BEARER,
          params: z.object({ governorId: z.string() }),
          querystring: governorCardQuery,
          response: { 200: png, ...resultErrors(400, 401, 403, 404, 503) },
        },
      },
      async (request, reply) => send(request, reply, cards, await cards.prepare(cardRequestOf('governor', request.params.governorId, request.query), viewerOf(request)), privateCache),
    );

    app.get(
      '/cards/kvk/:seasonId.png',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "A KvK season's standings card (PNG, 1200 × 675): the top 10 or 25 by DKP of the season, a window or one alliance, with progress, status and the totals. Council and admin. ETag; 304 on If-None-Match.",
          tags: ['cards'],
          security: BEARER,
          params: z.object({ seasonId: z.string() }),
          querystring: kvkCardQuery,
          response: { 200: png, ...resultErrors(400, 401, 403, 404, 503) },
        },
      },
      async (request, reply) => send(request, reply, cards, await cards.prepare(cardRequestOf('kvk', request.params.seasonId, request.query), viewerOf(request)), privateCache),
    );

    app.get(
      '/cards/items/:itemId.png',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "A sale's card (PNG, 1200 × 675): the item, its image, the winner and the price. Council and admin any sale, a player their own wins. ETag; 304 on If-None-Match.",
          tags: ['cards'],
          security: BEARER,
          params: z.object({ itemId: z.string() }),
          querystring: itemCardQuery,
          response: { 200: png, ...resultErrors(400, 401, 403, 404, 503) },
        },
      },
      async (request, reply) => send(request, reply, cards, await cards.prepare(cardRequestOf('items', request.params.itemId, request.query), viewerOf(request)), privateCache),
    );

    const signedIn = { preValidation: requireRank(ctx, 'signed-in') };
    serve(
      app,
      CARDS_API.share,
      { ...signedIn, config: { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `share:${request.auth?.user.id ?? request.ip}` } } },
      async (request) => {
        const request_ = parseCardPath(request.body.path);
        const viewer = viewerOf(request);
        // the card must exist and be the caller's to read, as when it is shown
        await cards.prepare(request_, viewer);
        const link = await createShareLink(ctx.db, viewer.id, request.body.path, ctx.now(), originOf(request));
        return { result: true as const, url: link.url, link };
      },
    );

    serve(app, CARDS_API.links, signedIn, async (request) => {
      const viewer = viewerOf(request);
      const all = request.query.all === 'true';
      if (all && !rankAllows(viewer.rank, 'admin')) throw new Forbidden(AUTH_ERRORS.forbidden);
      return { result: true as const, links: await listShareLinks(ctx.db, originOf(request), all ? null : viewer.id) };
    });

    serve(app, CARDS_API.revoke, signedIn, async (request) => {
      if (!/^[1-9]\d{0,14}$/.test(request.params.id)) throw new Invalid(CARD_ERRORS.unknownLink);
      await revokeShareLink(ctx.db, Number(request.params.id), viewerOf(request), ctx.now());
      return { result: true as const };
    });

    app.get(
      '/cards/shared/:token.png',
      {
        config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
        schema: {
          summary: "A share link's image, for anyone holding the link (no sign-in): only that card, drawn with what the link's creator may read now. 404 once it expired or was revoked.",
          tags: ['cards'],
          params: z.object({ token: z.string() }),
          response: { 200: png, ...resultErrors(404, 429, 503) },
        },
      },
      async (request, reply) => {
        const link = await liveShareLink(ctx.db, request.params.token, ctx.now());
        const card = await cards.prepare(parseCardPath(link.path), link.creator);
        return send(request, reply, cards, card, `public, max-age=${SHARED_MAX_AGE_S}`);
      },
    );
  };
}
