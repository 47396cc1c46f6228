import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { ADMIN_ERRORS } from '../../../src/protocol/admin';
import { AUTH_ERRORS, loginAnswer, loginBody, meAnswer, registerBody, statusAnswer } from '../../../src/protocol/auth';
import { WS_CLOSE_UNAUTHENTICATED } from '../../../src/protocol/socket';
import { createSession, revokeSession } from '../../auth/sessions';
import { signAccessToken } from '../../auth/tokens';
import type { AppContext } from '../../context';
import { noteSeen } from '../../admin/accounts';
import { registerUser } from '../../users/register';
import { findUserByEmail, toWireUser } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { statusError } from '../schemas';
import { Conflict, Forbidden, Invalid, TooMany, Unauthenticated } from '../../errors';

function emailKey(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() ? `email:${email.trim().toLowerCase()}` : `no-email:${request.ip}`;
}

/**
 * POST auth/register, POST auth/login, POST auth/me, GET auth/logout (the wire contract). Not
 * endpoint contracts (serve()): their refusals are the specification's own envelopes, not
 * `{result:false, error}` (register and logout `{status, error}`, login `{result:false, token:null,
 * error}`, me `{result:false, user:null, error}`, chosen by `config.answer`), and the client reads
 * them apart (a refused token on me is the session's end, src/api/client.ts).
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

    app.post(
      '/auth/register',
      {
        config: { answer: 'status' },
        // the sign-up limit per address is applied before the request reaches here (server/http/gate.ts)
        schema: {
          summary:
            'Create an account; the first account on an empty database is the admin. A governor id belongs to one account (409 when another has it); usernames are stored in NFKC and may not hold invisible, control or direction characters, be digits only, or look like server, system or admin.',
          description: 'Limited per client address (60 an hour by default); over the limit answers 429.',
          tags: ['auth'],
          body: registerBody,
          response: { 200: z.object({ status: z.literal('success') }), 400: statusError, 409: statusError, 429: statusError, 503: statusError },
        },
      },
      async (request) => {
        const input = request.body;
        const result = await registerUser(db, passwords, input);
        if (!result.ok) throw result.reason.endsWith('Taken') ? new Conflict(AUTH_ERRORS[result.reason]) : new Invalid(AUTH_ERRORS[result.reason]);
        request.log.info({ userId: result.user.id, rank: result.user.rank }, 'account created');
        return { status: 'success' as const };
      },
    );

    app.post(
      '/auth/login',
      {
        config: { answer: 'login' },
        preValidation: loginLimit,
        schema: {
          summary: 'Sign in; answers an access token (30 days) for the Authorization header and the sockets. A disabled account gets 403. An optional locale (the language picked on the sign-in page) becomes the account\'s.',
          description: 'Limited per email and per client address; over the limit answers 429.',
          tags: ['auth'],
          body: loginBody,
          response: { 200: loginAnswer, 400: loginAnswer, 401: loginAnswer, 403: loginAnswer, 429: loginAnswer, 503: loginAnswer },
        },
      },
      async (request) => {
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
      },
    );

    app.post(
      '/auth/me',
      {
        config: { answer: 'me' },
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: 'The signed-in account',
          tags: ['auth'],
          security: BEARER,
          response: { 200: meAnswer, 401: meAnswer },
        },
      },
      async (request) => ({ result: true as const, user: toWireUser(authOf(request).user), error: null }),
    );

    app.get(
      '/auth/logout',
      {
        config: { answer: 'status' },
        // a HEAD request must not sign anyone out
        exposeHeadRoute: false,
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: 'Sign out: the token stops working everywhere and its sockets close (code 4401)',
          tags: ['auth'],
          security: BEARER,
          response: { 200: statusAnswer, 401: statusError },
        },
      },
      async (request) => {
        const { sessionId } = authOf(request);
        await revokeSession(db, sessionId);
        hub.closeSessions([sessionId], WS_CLOSE_UNAUTHENTICATED, 'Signed out');
        return { status: 'success', error: null };
      },
    );
  };
}
