import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { POINTS_ERRORS, transaction, transactionBody, transactionsQuery } from '../../../src/protocol/points';
import type { AppContext } from '../../context';
import { book, listTransactions } from '../../points/ledger';
import { findUserByUsername } from '../../users/users';
import { HttpError, parseBody } from '../errors';
import { authOf, requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';

/** Kingdom points: leadership grants and deducts, with a reason, on the append-only ledger. */
export function pointsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post(
      '/points/transactions',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "Grant (delta > 0) or deduct (delta < 0) a player's kingdom points",
          tags: ['points'],
          security: BEARER,
          body: jsonSchema(transactionBody, 'input'),
          response: {
            200: jsonSchema(z.object({ result: z.literal(true), transaction, balance: z.int() })),
            400: jsonSchema(resultError),
            401: jsonSchema(resultError),
            403: jsonSchema(resultError),
            404: jsonSchema(resultError),
            409: jsonSchema(resultError),
          },
        },
      },
      async (request) => {
        const body = parseBody(transactionBody, request.body);
        const target = await findUserByUsername(ctx.db, body.username);
        if (!target) throw new HttpError(404, POINTS_ERRORS.unknownUser);
        // through the engine's queue, so this balance update keeps its place among the bids' ones
        const { transaction: booked, user } = await ctx.auction.exclusive(async () => {
          const booking = await book(
            ctx.db,
            { userId: target.id, delta: body.delta, kind: body.delta > 0 ? 'grant' : 'deduct', reason: body.reason, actorId: authOf(request).user.id },
            ctx.now(),
          );
          // committed: now the player's open pages hear of it
          ctx.auction.announceBalance(booking.user);
          return booking;
        });
        return { result: true, transaction: booked, balance: user.balance };
      },
    );

    app.get(
      '/points/transactions',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'The ledger, newest first, 50 a page; optionally one player',
          tags: ['points'],
          security: BEARER,
          querystring: jsonSchema(transactionsQuery, 'input'),
          response: {
            200: jsonSchema(z.object({ result: z.literal(true), transactions: z.array(transaction), page: z.int(), pageSize: z.int(), total: z.int() })),
            400: jsonSchema(resultError),
            401: jsonSchema(resultError),
            403: jsonSchema(resultError),
            404: jsonSchema(resultError),
          },
        },
      },
      async (request) => {
        const query = parseBody(transactionsQuery, request.query ?? {});
        let userId: number | undefined;
        if (query.username) {
          const user = await findUserByUsername(ctx.db, query.username);
          if (!user) throw new HttpError(404, POINTS_ERRORS.unknownUser);
          userId = user.id;
        }
        return { result: true, ...(await listTransactions(ctx.db, { userId, page: query.page })) };
      },
    );
  };
}
