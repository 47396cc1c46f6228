import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_API } from '../../../src/protocol/account';
import { AUTH_ERRORS } from '../../../src/protocol/auth';
import { WS_CLOSE_UNAUTHENTICATED } from '../../../src/protocol/socket';
import { groupsOf } from '../../auction/groups';
import { revokeOtherSessions } from '../../auth/sessions';
import type { AppContext } from '../../context';
import { toWireUser } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { serve } from '../contract';
import { Invalid, TooMany } from '../../errors';

/** Password tries per account and minute: a stolen token must not become a password oracle. */
const PASSWORD_TRIES_PER_MINUTE = 10;

/** The signed-in user's own account: password, language and the groups it belongs to. */
export function accountRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const { db, passwords, hub } = ctx;
    const signedIn = requireRank(ctx, 'signed-in');
    const passwordTries = app.createRateLimit({
      max: PASSWORD_TRIES_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `password:${request.auth?.user.id ?? request.ip}`,
    });

    // a stolen token must not become a password oracle: every try counts, well formed or not
    const passwordLimit = async (request: FastifyRequest) => {
      const limit = await passwordTries(request);
      if (!limit.isAllowed && limit.isExceeded) throw new TooMany(AUTH_ERRORS.tooManyAttempts);
    };

    serve(app, ACCOUNT_API.password, { preValidation: [signedIn, passwordLimit] }, async (request) => {
      const auth = authOf(request);
      const input = request.body;
      if (!(await passwords.verify(auth.user.password_hash, input.oldPassword))) throw new Invalid(AUTH_ERRORS.wrongOldPassword);
      if (input.newPassword === input.oldPassword) throw new Invalid(AUTH_ERRORS.samePassword);
      const hash = await passwords.hash(input.newPassword);
      await db.updateTable('users').set({ password_hash: hash }).where('id', '=', auth.user.id).execute();
      const revoked = await revokeOtherSessions(db, auth.user.id, auth.sessionId);
      hub.closeSessions(revoked, WS_CLOSE_UNAUTHENTICATED, 'Password changed');
      return { result: true as const };
    });

    serve(app, ACCOUNT_API.locale, { preValidation: signedIn }, async (request) => {
      const auth = authOf(request);
      const { locale } = request.body;
      const row = await db.updateTable('users').set({ locale }).where('id', '=', auth.user.id).returningAll().executeTakeFirstOrThrow();
      return { result: true as const, user: toWireUser(row) };
    });

    serve(app, ACCOUNT_API.groups, { preValidation: signedIn }, async (request) => {
      const groups = await groupsOf(db, authOf(request).user.id);
      return { result: true as const, groups: groups.sort((a, b) => a.localeCompare(b)) };
    });
  };
}
