import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ERRORS } from '../../../src/protocol/admin';
import { AUTH_ERRORS } from '../../../src/protocol/auth';
import { AUTH_API } from '../../../src/protocol/auth-api';
import { WS_CLOSE_UNAUTHENTICATED } from '../../../src/protocol/socket';
import { createSession, revokeSession } from '../../auth/sessions';
import { signAccessToken } from '../../auth/tokens';
import type { AppContext } from '../../context';
import { noteSeen } from '../../admin/accounts';
import { registerUser } from '../../users/register';
import { findUserByEmail, toWireUser } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { serve } from '../contract';
import { Conflict, Forbidden, Invalid, TooMany, Unauthenticated } from '../../errors';

function emailKey(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() ? `email:${email.trim().toLowerCase()}` : `no-email:${request.ip}`;
}

/**
 * POST auth/register, POST auth/login, POST auth/me, GET auth/logout, from their contracts
 * (AUTH_API): their refusals keep each route's own envelope (`refusal`: register and logout
 * `{status, error}`, login `{result:false, token:null, error}`, me `{result:false, user:null, error}`).
 */
export function authRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const { db, passwords, hub } = ctx;
    const limits = ctx.config.loginRateLimit;
    const byEmail = app.createRateLimit({ max: limits.perEmail, timeWindow: limits.windowMs, keyGenerator: emailKey });
    const byAddress = app.createRateLimit({
      max: limits.perAddress,
      timeWindow: limits.windowMs,
      keyGenerator: (request) => `address:${request.ip}`,
    });
    const loginLimit = async (request: FastifyRequest) => {
      const [address, email] = await Promise.all([byAddress(request), byEmail(request)]);
      if ((!address.isAllowed && address.isExceeded) || (!email.isAllowed && email.isExceeded)) {
        throw new TooMany(AUTH_ERRORS.tooManyAttempts);
      }
    };

    // the sign-up limit per address is applied before the request reaches here (server/http/gate.ts)
    serve(app, AUTH_API.register, {}, async (request) => {
        const input = request.body;
        const result = await registerUser(db, passwords, input);
        if (!result.ok) throw result.reason.endsWith('Taken') ? new Conflict(AUTH_ERRORS[result.reason]) : new Invalid(AUTH_ERRORS[result.reason]);
        request.log.info({ userId: result.user.id, rank: result.user.rank }, 'account created');
        return { status: 'success' as const };
    });

    serve(app, AUTH_API.login, { preValidation: loginLimit }, async (request) => {
        const input = request.body;
        const user = await findUserByEmail(db, input.email);
        if (!user) {
          await passwords.verifyNothing(input.password);
          throw new Unauthenticated(AUTH_ERRORS.wrongCredentials);
        }
        if (!(await passwords.verify(user.password_hash, input.password))) throw new Unauthenticated(AUTH_ERRORS.wrongCredentials);
        // said only to whoever knows the password: an admin disabled the account
        if (user.disabled_at !== null) throw new Forbidden(ADMIN_ERRORS.disabled);
        // a language picked on the sign-in page becomes the account's, so signing in does not undo it
        if (input.locale !== undefined && input.locale !== user.locale) await db.updateTable('users').set({ locale: input.locale }).where('id', '=', user.id).execute();
        const session = await createSession(db, user.id);
        noteSeen(db, user, Date.now());
        const token = await signAccessToken(ctx.jwtSecret, { userId: user.id, sessionId: session.id }, session.expires_at);
        return { result: true as const, token: { access_token: token }, error: null };
    });

    serve(app, AUTH_API.me, { preValidation: requireRank(ctx, 'signed-in') }, async (request) => ({ result: true as const, user: toWireUser(authOf(request).user), error: null }));

    // a HEAD request must not sign anyone out
    serve(app, AUTH_API.logout, { exposeHeadRoute: false, preValidation: requireRank(ctx, 'signed-in') }, async (request) => {
        const { sessionId } = authOf(request);
        await revokeSession(db, sessionId);
        hub.closeSessions([sessionId], WS_CLOSE_UNAUTHENTICATED, 'Signed out');
        return { status: 'success', error: null };
    });
  };
}
