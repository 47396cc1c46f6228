import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { createGroupBody, group, groupMemberBody, kingdomSettings, SETTINGS_ERRORS, settingsBody } from '../../../src/protocol/settings';
import { addToGroup, createGroup, deleteGroup, findGroup, listGroups, removeFromGroup } from '../../auction/groups';
import type { AppContext } from '../../context';
import { readSettings } from '../../kingdom/settings';
import { KINGDOM_NAME_API } from '../../../src/protocol/kingdom-name';
import { findUserByUsername } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { serve } from '../contract';
import { BEARER } from '../openapi';
import { resultErrors, resultTrue } from '../schemas';
import { Invalid, NotFound, Conflict } from '../../errors';

const settingsAnswer = resultTrue({ settings: kingdomSettings });
const groupAnswer = resultTrue({ group });
const nameParams = z.object({ name: z.string() });

/** Kingdom settings (name, number, auction defaults, store open or closed) and the eligibility groups. */
export function kingdomRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/kingdom/settings',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "The kingdom's settings: name, number, whether the store is open, and the defaults of a new auction",
          tags: ['kingdom'],
          security: BEARER,
          response: { 200: settingsAnswer, ...resultErrors(401) },
        },
      },
      async () => ({ result: true as const, settings: await readSettings(ctx.db) }),
    );

    serve(app, KINGDOM_NAME_API.name, {}, async () => {
      // one row by its key: as cheap as the sign-in page's own files
      const { kingdomName, kingdomNumber } = await readSettings(ctx.db);
      return { result: true as const, kingdomName, kingdomNumber };
    });

    app.post(
      '/kingdom/settings',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Change any of the settings (the rest stays). storeOpen false: every bid gets ERROR BID_OPEN_ERROR and every live item keeps the time it has left (none ends) until the store opens again; then each ends that long after the opening. Everyone hears STORE_STATE',
          tags: ['kingdom'],
          security: BEARER,
          body: settingsBody,
          response: { 200: settingsAnswer, ...resultErrors(400, 401, 403) },
        },
      },
      async (request) => {
        const { body } = request;
        const changes = [body.kingdomName, body.kingdomNumber, body.storeOpen, ...Object.values(body.defaults ?? {})];
        if (changes.every((v) => v === undefined)) throw new Invalid(SETTINGS_ERRORS.nothingToChange);
        const actorId = authOf(request).user.id;
        // through the engine's queue: a bid queued before the store closed is still taken, none after it
        const settings = await ctx.auction.updateSettings(body, actorId);
        request.log.info({ by: actorId, changes: body }, 'kingdom settings changed');
        return { result: true as const, settings };
      },
    );

    app.get(
      '/kingdom/groups',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Every eligibility group with its members, by name',
          tags: ['kingdom'],
          security: BEARER,
          response: { 200: resultTrue({ groups: z.array(group) }), ...resultErrors(401, 403) },
        },
      },
      async () => ({ result: true as const, groups: await listGroups(ctx.db) }),
    );

    app.post(
      '/kingdom/groups',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Create an empty group; names are unique without regard to case (409 otherwise)',
          tags: ['kingdom'],
          security: BEARER,
          body: createGroupBody,
          response: { 200: groupAnswer, ...resultErrors(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const { name } = request.body;
        if (!(await createGroup(ctx.db, name, ctx.now(), authOf(request).user.id))) throw new Conflict(SETTINGS_ERRORS.groupExists);
        return { result: true as const, group: { name, members: [] } };
      },
    );

    app.post(
      '/kingdom/groups/:name/delete',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Delete a group and its memberships (items that name it keep the name; nobody is in it any more)',
          tags: ['kingdom'],
          security: BEARER,
          params: nameParams,
          response: { 200: resultTrue({}), ...resultErrors(401, 403, 404) },
        },
      },
      async (request) => {
        if (!(await deleteGroup(ctx.db, request.params.name.trim(), authOf(request).user.id, ctx.now()))) throw new NotFound(SETTINGS_ERRORS.unknownGroup);
        return { result: true as const };
      },
    );

    app.post(
      '/kingdom/groups/:name/members',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Add (member true) or remove (member false) a player; answers the group with its members',
          tags: ['kingdom'],
          security: BEARER,
          params: nameParams,
          body: groupMemberBody,
          response: { 200: groupAnswer, ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { body } = request;
        const found = await findGroup(ctx.db, request.params.name.trim());
        if (!found) throw new NotFound(SETTINGS_ERRORS.unknownGroup);
        const user = await findUserByUsername(ctx.db, body.username);
        if (!user) throw new NotFound(SETTINGS_ERRORS.unknownUser);
        if (body.member) await addToGroup(ctx.db, user.id, found.name, ctx.now(), authOf(request).user.id);
        else await removeFromGroup(ctx.db, user.id, found.name, authOf(request).user.id, ctx.now());
        const updated = await findGroup(ctx.db, found.name);
        if (!updated) throw new NotFound(SETTINGS_ERRORS.unknownGroup);
        return { result: true as const, group: { name: updated.name, members: updated.members } };
      },
    );
  };
}
