import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createGroupBody, group, groupMemberBody, kingdomSettings, SETTINGS_ERRORS, settingsBody } from '../../../src/protocol/settings';
import { addToGroup, createGroup, deleteGroup, findGroup, listGroups, removeFromGroup } from '../../auction/groups';
import type { AppContext } from '../../context';
import { readSettings } from '../../kingdom/settings';
import { findUserByUsername } from '../../users/users';
import { HttpError, parseBody } from '../errors';
import { authOf, requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, jsonSchema(resultError)]));
const settingsAnswer = jsonSchema(z.object({ result: z.literal(true), settings: kingdomSettings }));
const groupAnswer = jsonSchema(z.object({ result: z.literal(true), group }));
const nameParams = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/** Kingdom settings (name, number, auction defaults, store open or closed) and the eligibility groups. */
export function kingdomRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get(
      '/kingdom/settings',
      {
        preHandler: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "The kingdom's settings: name, number, whether the store is open, and the defaults of a new auction",
          tags: ['kingdom'],
          security: BEARER,
          response: { 200: settingsAnswer, ...errors(401) },
        },
      },
      async () => ({ result: true, settings: await readSettings(ctx.db) }),
    );

    app.post(
      '/kingdom/settings',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Change any of the settings (the rest stays). storeOpen false: every bid gets ERROR BID_OPEN_ERROR and every live item keeps the time it has left (none ends) until the store opens again; then each ends that long after the opening. Everyone hears STORE_STATE',
          tags: ['kingdom'],
          security: BEARER,
          body: jsonSchema(settingsBody, 'input'),
          response: { 200: settingsAnswer, ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const body = parseBody(settingsBody, request.body);
        const changes = [body.kingdomName, body.kingdomNumber, body.storeOpen, ...Object.values(body.defaults ?? {})];
        if (changes.every((v) => v === undefined)) throw new HttpError(400, SETTINGS_ERRORS.nothingToChange);
        const actorId = authOf(request).user.id;
        // through the engine's queue: a bid queued before the store closed is still taken, none after it
        const settings = await ctx.auction.updateSettings(body, actorId);
        request.log.info({ by: actorId, changes: body }, 'kingdom settings changed');
        return { result: true, settings };
      },
    );

    app.get(
      '/kingdom/groups',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Every eligibility group with its members, by name',
          tags: ['kingdom'],
          security: BEARER,
          response: { 200: jsonSchema(z.object({ result: z.literal(true), groups: z.array(group) })), ...errors(401, 403) },
        },
      },
      async () => ({ result: true, groups: await listGroups(ctx.db) }),
    );

    app.post(
      '/kingdom/groups',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Create an empty group; names are unique without regard to case (409 otherwise)',
          tags: ['kingdom'],
          security: BEARER,
          body: jsonSchema(createGroupBody, 'input'),
          response: { 200: groupAnswer, ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const { name } = parseBody(createGroupBody, request.body);
        if (!(await createGroup(ctx.db, name, ctx.now(), authOf(request).user.id))) throw new HttpError(409, SETTINGS_ERRORS.groupExists);
        return { result: true, group: { name, members: [] } };
      },
    );

    app.post<{ Params: { name: string } }>(
      '/kingdom/groups/:name/delete',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Delete a group and its memberships (items that name it keep the name; nobody is in it any more)',
          tags: ['kingdom'],
          security: BEARER,
          params: nameParams,
          response: { 200: jsonSchema(z.object({ result: z.literal(true) })), ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        if (!(await deleteGroup(ctx.db, request.params.name.trim(), authOf(request).user.id, ctx.now()))) throw new HttpError(404, SETTINGS_ERRORS.unknownGroup);
        return { result: true };
      },
    );

    app.post<{ Params: { name: string } }>(
      '/kingdom/groups/:name/members',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Add (member true) or remove (member false) a player; answers the group with its members',
          tags: ['kingdom'],
          security: BEARER,
          params: nameParams,
          body: jsonSchema(groupMemberBody, 'input'),
          response: { 200: groupAnswer, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const body = parseBody(groupMemberBody, request.body);
        const found = await findGroup(ctx.db, request.params.name.trim());
        if (!found) throw new HttpError(404, SETTINGS_ERRORS.unknownGroup);
        const user = await findUserByUsername(ctx.db, body.username);
        if (!user) throw new HttpError(404, SETTINGS_ERRORS.unknownUser);
        if (body.member) await addToGroup(ctx.db, user.id, found.name, ctx.now(), authOf(request).user.id);
        else await removeFromGroup(ctx.db, user.id, found.name, authOf(request).user.id, ctx.now());
        const updated = await findGroup(ctx.db, found.name);
        if (!updated) throw new HttpError(404, SETTINGS_ERRORS.unknownGroup);
        return { result: true, group: { name: updated.name, members: updated.members } };
      },
    );
  };
}
