import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { AUTH_ERRORS, rankBody, user } from '../../../src/protocol/auth';
import type { AppContext } from '../../context';
import { statusMsg } from '../../sockets/user';
import { findUserByUsername, setUserRank, toWireUser } from '../../users/users';
import { parseBody } from '../errors';
import { requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';
import { NotFound } from '../../errors';

/** Site administration (admins only). */
export function adminRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: { username: string } }>(
      '/admin/users/:username/rank',
      {
        preHandler: requireRank(ctx, 'admin'),
        schema: {
          summary: "Set a user's rank",
          tags: ['admin'],
          security: BEARER,
          params: { type: 'object', properties: { username: { type: 'string' } }, required: ['username'] },
          body: jsonSchema(rankBody, 'input'),
          response: {
            200: jsonSchema(z.object({ result: z.literal(true), user })),
            400: jsonSchema(resultError),
            401: jsonSchema(resultError),
            403: jsonSchema(resultError),
            404: jsonSchema(resultError),
          },
        },
      },
      async (request) => {
        const { rank } = parseBody(rankBody, request.body);
        const target = await findUserByUsername(ctx.db, request.params.username);
        if (!target) throw new NotFound(AUTH_ERRORS.unknownUser);
        const updated = await setUserRank(ctx.db, target.id, rank);
        request.log.info({ userId: updated.id, rank, by: request.auth?.user.id }, 'rank changed');
        ctx.hub.refreshUser(updated);
        ctx.hub.sendToUser(updated.id, 'user', statusMsg(updated));
        return { result: true, user: toWireUser(updated) };
      },
    );
  };
}
