import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { AUTH_ERRORS, changePasswordBody, localeBody, user } from '../../../src/protocol/auth';
import { WS_CLOSE_UNAUTHENTICATED } from '../../../src/protocol/socket';
import { groupsOf } from '../../auction/groups';
import { revokeOtherSessions } from '../../auth/sessions';
import type { AppContext } from '../../context';
import { toWireUser } from '../../users/users';
import { parseBody } from '../errors';
import { authOf, requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';
import { Invalid, TooMany } from '../../errors';

/** Password tries per account and minute: a stolen token must not become a password oracle. */
const PASSWORD_TRIES_PER_MINUTE = 10;

/** The signed-in user's own account: password and language. */
export function accountRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const { db, passwords, hub } = ctx;
    const signedIn = requireRank(ctx, 'signed-in');
    const passwordTries = app.createRateLimit({
      max: PASSWORD_TRIES_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `password:${request.auth?.user.id ?? request.ip}`,
    });

    app.post(
      '/account/password',
      {
        preHandler: signedIn,
        schema: {
          summary: "Change the password; the account's other sessions are signed out",
          tags: ['account'],
          security: BEARER,
          body: jsonSchema(changePasswordBody, 'input'),
          response: {
            200: jsonSchema(z.object({ result: z.literal(true) })),
            400: jsonSchema(resultError),
            401: jsonSchema(resultError),
            429: jsonSchema(resultError),
          },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const limit = await passwordTries(request);
        if (!limit.isAllowed && limit.isExceeded) throw new TooMany(AUTH_ERRORS.tooManyAttempts);
        const input = parseBody(changePasswordBody, request.body);
        if (!(await passwords.verify(auth.user.password_hash, input.oldPassword))) throw new Invalid(AUTH_ERRORS.wrongOldPassword);
        if (input.newPassword === input.oldPassword) throw new Invalid(AUTH_ERRORS.samePassword);
        const hash = await passwords.hash(input.newPassword);
        await db.updateTable('users').set({ password_hash: hash }).where('id', '=', auth.user.id).execute();
        const revoked = await revokeOtherSessions(db, auth.user.id, auth.sessionId);
        hub.closeSessions(revoked, WS_CLOSE_UNAUTHENTICATED, 'Password changed');
        return { result: true };
      },
    );

    app.post(
      '/account/locale',
      {
        preHandler: signedIn,
        schema: {
          summary: 'Set the interface language',
          tags: ['account'],
          security: BEARER,
          body: jsonSchema(localeBody, 'input'),
          response: {
            200: jsonSchema(z.object({ result: z.literal(true), user })),
            400: jsonSchema(resultError),
            401: jsonSchema(resultError),
          },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { locale } = parseBody(localeBody, request.body);
        const row = await db.updateTable('users').set({ locale }).where('id', '=', auth.user.id).returningAll().executeTakeFirstOrThrow();
        return { result: true, user: toWireUser(row) };
      },
    );

    app.get(
      '/account/groups',
      {
        preHandler: signedIn,
        schema: {
          summary: 'The names of the eligibility groups the caller belongs to, by name',
          tags: ['account'],
          security: BEARER,
          response: {
            200: jsonSchema(z.object({ result: z.literal(true), groups: z.array(z.string()) })),
            401: jsonSchema(resultError),
          },
        },
      },
      async (request) => {
        const groups = await groupsOf(db, authOf(request).user.id);
        return { result: true, groups: groups.sort((a, b) => a.localeCompare(b)) };
      },
    );
  };
}
