import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { AUTH_ERRORS, changePasswordBody, localeBody, user } from '../../../src/protocol/auth';
import { WS_CLOSE_UNAUTHENTICATED } from '../../../src/protocol/socket';
import { groupsOf } from '../../auction/groups';
import { revokeOtherSessions } from '../../auth/sessions';
import type { AppContext } from '../../context';
import { toWireUser } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors, resultTrue } from '../schemas';
import { Invalid, TooMany } from '../../errors';

/** Password tries per account and minute: a stolen token must not become a password oracle. */
const PASSWORD_TRIES_PER_MINUTE = 10;

/** The signed-in user's own account: password and language. */
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

    app.post(
      '/account/password',
      {
        preValidation: [signedIn, passwordLimit],
        schema: {
          summary: "Change the password; the account's other sessions are signed out",
          tags: ['account'],
          security: BEARER,
          body: changePasswordBody,
          response: { 200: resultTrue({}), ...resultErrors(400, 401, 429) },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const input = request.body;
        if (!(await passwords.verify(auth.user.password_hash, input.oldPassword))) throw new Invalid(AUTH_ERRORS.wrongOldPassword);
        if (input.newPassword === input.oldPassword) throw new Invalid(AUTH_ERRORS.samePassword);
        const hash = await passwords.hash(input.newPassword);
        await db.updateTable('users').set({ password_hash: hash }).where('id', '=', auth.user.id).execute();
        const revoked = await revokeOtherSessions(db, auth.user.id, auth.sessionId);
        hub.closeSessions(revoked, WS_CLOSE_UNAUTHENTICATED, 'Password changed');
        return { result: true as const };
      },
    );

    app.post(
      '/account/locale',
      {
        preValidation: signedIn,
        schema: {
          summary: 'Set the interface language',
          tags: ['account'],
          security: BEARER,
          body: localeBody,
          response: { 200: resultTrue({ user }), ...resultErrors(400, 401) },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { locale } = request.body;
        const row = await db.updateTable('users').set({ locale }).where('id', '=', auth.user.id).returningAll().executeTakeFirstOrThrow();
        return { result: true as const, user: toWireUser(row) };
      },
    );

    app.get(
      '/account/groups',
      {
        preValidation: signedIn,
        schema: {
          summary: 'The names of the eligibility groups the caller belongs to, by name',
          tags: ['account'],
          security: BEARER,
          response: { 200: resultTrue({ groups: z.array(z.string()) }), ...resultErrors(401) },
        },
      },
      async (request) => {
        const groups = await groupsOf(db, authOf(request).user.id);
        return { result: true as const, groups: groups.sort((a, b) => a.localeCompare(b)) };
      },
    );
  };
}
