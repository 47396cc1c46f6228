import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { AUTH_ERRORS, rankBody, user } from '../../../src/protocol/auth';
import type { AppContext } from '../../context';
import { statusMsg } from '../../sockets/user';
import { findUserByUsername, setUserRank, toWireUser } from '../../users/users';
import { requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors, resultTrue } from '../schemas';
import { NotFound } from '../../errors';

/** Site administration (admins only). */
export function adminRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/admin/users/:username/rank',
      {
        preValidation: requireRank(ctx, 'admin'),
        schema: {
          summary: "Set a user's rank",
          tags: ['admin'],
          security: BEARER,
          params: z.object({ username: z.string() }),
          body: rankBody,
          response: { 200: resultTrue({ user }), ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { rank } = request.body;
        const target = await findUserByUsername(ctx.db, request.params.username);
        if (!target) throw new NotFound(AUTH_ERRORS.unknownUser);
        const updated = await setUserRank(ctx.db, target.id, rank);
        request.log.info({ userId: updated.id, rank, by: request.auth?.user.id }, 'rank changed');
        ctx.hub.refreshUser(updated);
        ctx.hub.sendToUser(updated.id, 'user', statusMsg(updated));
        return { result: true as const, user: toWireUser(updated) };
      },
    );
  };
}
