import type { FastifyRequest } from 'fastify';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { bearerToken } from '../auth/authenticate';
import { BOT_TOKEN_PREFIX, findBotByToken } from '../bots/registry';
import type { AuthContext } from '../auth/authenticate';
import type { AppContext } from '../context';

import './fastify-types';
import { Unauthenticated, Forbidden } from '../errors';

import { rankAllows, type Access } from '../auth/access';

export { rankAllows, type Access };

/**
 * A hook: 401 without a live session, 403 without the rank; sets request.auth. Routes run it as
 * `preValidation` (before Fastify validates: a caller without the rank learns nothing from the
 * validation), with their rate limits after it.
 */
export function requireRank(ctx: AppContext, access: Access): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const auth = await ctx.authenticate(request.headers.authorization);
    if (!auth) throw new Unauthenticated(AUTH_ERRORS.unauthenticated);
    if (!rankAllows(auth.user.rank, access)) throw new Forbidden(AUTH_ERRORS.forbidden);
    request.auth = auth;
  };
}

/** The origin the caller used to reach this server (behind a proxy, as TRUST_PROXY allows): links handed out are built on it. */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** request.auth on a guarded route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Unauthenticated(AUTH_ERRORS.unauthenticated);
  return request.auth;
}

/**
 * preValidation of the two routes a bot may call (scan upload): an admin's token as requireRank, or a
 * bot's token (sets request.bot). Every other route uses requireRank, which knows no bot token.
 */
export function requireAdminOrBot(ctx: AppContext): (request: FastifyRequest) => Promise<void> {
  const admin = requireRank(ctx, 'admin');
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (token?.startsWith(BOT_TOKEN_PREFIX)) {
      const bot = await findBotByToken(ctx.db, token);
      if (!bot) throw new Unauthenticated(AUTH_ERRORS.unauthenticated);
      request.bot = { id: bot.id, name: bot.name };
      return;
    }
    await admin(request);
  };
}

/** Who keeps a scan preview: a user by id, a bot by its id negated (the two never meet). */
export function uploaderOf(request: FastifyRequest): number {
  return request.bot ? -request.bot.id : authOf(request).user.id;
}
