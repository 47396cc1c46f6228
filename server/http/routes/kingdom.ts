import type { FastifyInstance } from 'fastify';
import { KINGDOM_API, SETTINGS_ERRORS } from '../../../src/protocol/settings';
import { addToGroup, createGroup, deleteGroup, findGroup, listGroups, removeFromGroup } from '../../auction/groups';
import type { AppContext } from '../../context';
import { readSettings } from '../../kingdom/settings';
import { KINGDOM_NAME_API } from '../../../src/protocol/kingdom-name';
import { findUserByUsername } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { serve } from '../contract';
import { Invalid, NotFound, Conflict } from '../../errors';

/** Kingdom settings (name, number, auction defaults, store open or closed) and the eligibility groups. */
export function kingdomRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const leadership = { preValidation: requireRank(ctx, 'council+admin') };
    serve(app, KINGDOM_API.settings, { preValidation: requireRank(ctx, 'signed-in') }, async () => ({ result: true as const, settings: await readSettings(ctx.db) }));

    serve(app, KINGDOM_NAME_API.name, {}, async () => {
      // one row by its key: as cheap as the sign-in page's own files
      const { kingdomName, kingdomNumber } = await readSettings(ctx.db);
      return { result: true as const, kingdomName, kingdomNumber };
    });

    serve(app, KINGDOM_API.saveSettings, leadership, async (request) => {
      const { body } = request;
      const changes = [body.kingdomName, body.kingdomNumber, body.storeOpen, ...Object.values(body.defaults ?? {})];
      if (changes.every((v) => v === undefined)) throw new Invalid(SETTINGS_ERRORS.nothingToChange);
      const actorId = authOf(request).user.id;
      // through the engine's queue: a bid queued before the store closed is still taken, none after it
      const settings = await ctx.auction.updateSettings(body, actorId);
      request.log.info({ by: actorId, changes: body }, 'kingdom settings changed');
      return { result: true as const, settings };
    });

    serve(app, KINGDOM_API.groups, leadership, async () => ({ result: true as const, groups: await listGroups(ctx.db) }));

    serve(app, KINGDOM_API.createGroup, leadership, async (request) => {
      const { name } = request.body;
      if (!(await createGroup(ctx.db, name, ctx.now(), authOf(request).user.id))) throw new Conflict(SETTINGS_ERRORS.groupExists);
      return { result: true as const, group: { name, members: [] } };
    });

    serve(app, KINGDOM_API.deleteGroup, leadership, async (request) => {
      if (!(await deleteGroup(ctx.db, request.params.name.trim(), authOf(request).user.id, ctx.now()))) throw new NotFound(SETTINGS_ERRORS.unknownGroup);
      return { result: true as const };
    });

    serve(app, KINGDOM_API.setMember, leadership, async (request) => {
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
    });
  };
}
