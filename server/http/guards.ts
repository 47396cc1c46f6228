import type { FastifyRequest } from 'fastify';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import type { AuthContext } from '../auth/authenticate';
import type { AppContext } from '../context';

import './fastify-types';
import { Unauthenticated, Forbidden } from '../errors';

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

/**
 * A hook: 401 without a live session, 403 without the rank; sets request.auth. Routes with zod
 * schemas run it as `preValidation` (before Fastify validates: a caller without the rank learns
 * nothing from the validation), older routes as `preHandler`.
 */
export function requireRank(ctx: AppContext, access: Access): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const auth = await ctx.authenticate(request.headers.authorization);
    if (!auth) throw new Unauthenticated(AUTH_ERRORS.unauthenticated);
    if (!rankAllows(auth.user.rank, access)) throw new Forbidden(AUTH_ERRORS.forbidden);
    request.auth = auth;
  };
}

/** request.auth on a guarded route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Unauthenticated(AUTH_ERRORS.unauthenticated);
  return request.auth;
}
