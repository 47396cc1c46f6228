import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { bearerToken } from '../auth/authenticate';
import { BOT_TOKEN_PREFIX, findBotByToken } from '../bots/registry';
import type { AuthContext } from '../auth/authenticate';
import type { AppContext } from '../context';
import { HttpError } from './errors';
import './fastify-types';

/** Who may call a route. Unknown ranks count as plain users on the server. */
export type Access = 'signed-in' | 'council+admin' | 'admin';

export function rankAllows(rank: string, access: Access): boolean {
  switch (access) {
    case 'signed-in':
      return true;
    case 'council+admin':
      return rank === 'council' || rank === 'admin';
    case 'admin':
      return rank === 'admin';
  }
}

/** preHandler: 401 without a live session, 403 without the rank; sets request.auth. */
export function requireRank(ctx: AppContext, access: Access): preHandlerAsyncHookHandler {
  return async (request) => {
    const auth = await ctx.authenticate(request.headers.authorization);
    if (!auth) throw new HttpError(401, AUTH_ERRORS.unauthenticated);
    if (!rankAllows(auth.user.rank, access)) throw new HttpError(403, AUTH_ERRORS.forbidden);
    request.auth = auth;
  };
}

/** request.auth on a guarded route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new HttpError(401, AUTH_ERRORS.unauthenticated);
  return request.auth;
}

/**
 * preHandler of the two routes a bot may call (scan upload): an admin's token as requireRank, or a
 * bot's token (sets request.bot). Every other route uses requireRank, which knows no bot token.
 */
export function requireAdminOrBot(ctx: AppContext): preHandlerAsyncHookHandler {
  const admin = requireRank(ctx, 'admin');
  return async function (this: unknown, request, reply) {
    const token = bearerToken(request.headers.authorization);
    if (token?.startsWith(BOT_TOKEN_PREFIX)) {
      const bot = await findBotByToken(ctx.db, token);
      if (!bot) throw new HttpError(401, AUTH_ERRORS.unauthenticated);
      request.bot = { id: bot.id, name: bot.name };
      return;
    }
    await admin.call(this as never, request, reply);
  };
}

/** Who keeps a scan preview: a user by id, a bot by its id negated (the two never meet). */
export function uploaderOf(request: FastifyRequest): number {
  return request.bot ? -request.bot.id : authOf(request).user.id;
}
