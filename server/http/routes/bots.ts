import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFound, TooMany } from '../../errors';
import { BOT_ERRORS, BOTS_API } from '../../../src/protocol/bots';
import { recordAudit } from '../../audit/audit';
import { registerBot, revokeBot, rotateBotToken } from '../../bots/registry';
import type { AppContext } from '../../context';
import { authOf, requireRank } from '../guards';
import { serve } from '../contract';

/** Scan bots, admins only: register, rotate, revoke, list, command. */
export function botRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const admin = requireRank(ctx, 'admin');
    const actorOf = (request: Parameters<typeof authOf>[0]) => {
      const { user } = authOf(request);
      return { id: user.id, name: user.username };
    };
    // a command costs a frame to a bot and an audit row: 600 a minute per admin is far above a person at a console
    const commandLimit = app.createRateLimit({ max: 600, timeWindow: 60_000, keyGenerator: (request) => `bot-command:${request.auth?.user.id ?? request.ip}` });
    const commandBudget = async (request: FastifyRequest) => {
      const limit = await commandLimit(request);
      if (!limit.isAllowed && limit.isExceeded) throw new TooMany(BOT_ERRORS.tooManyCommandsSent);
    };

    serve(app, BOTS_API.list, { preValidation: admin }, async () => ({ result: true as const, bots: ctx.bots.list() }));

    serve(app, BOTS_API.register, { preValidation: admin }, async (request) => {
      const { name } = request.body;
      const { bot: row, token } = await registerBot(ctx.db, name, actorOf(request), ctx.now());
      ctx.bots.registered(row);
      return { result: true as const, bot: { id: row.id, name: row.name }, token };
    });

    serve(app, BOTS_API.rotate, { preValidation: admin }, async (request) => {
      const id = request.params.id;
      const { bot: row, token } = await rotateBotToken(ctx.db, id, actorOf(request), ctx.now());
      ctx.bots.disconnect(id, false);
      return { result: true as const, bot: { id: row.id, name: row.name }, token };
    });

    serve(app, BOTS_API.revoke, { preValidation: admin }, async (request) => {
      const id = request.params.id;
      await revokeBot(ctx.db, id, actorOf(request), ctx.now());
      ctx.bots.disconnect(id, true);
      return { result: true as const };
    });

    serve(app, BOTS_API.command, { preValidation: [admin, commandBudget] }, async (request) => {
      const id = request.params.id;
      const body = request.body;
      const actor = actorOf(request);
      const name = ctx.bots.nameOf(id);
      if (name === null) throw new NotFound(BOT_ERRORS.unknownBot);
      const sent = ctx.bots.command(id, body.command, body.args, actor.name);
      await recordAudit(ctx.db, { actor, action: 'bot.command', target: name, detail: { botId: id, command: body.command, ...(body.args?.length ? { args: body.args } : {}), commandId: sent.id } }, ctx.now());
      return { result: true as const, command: { id: sent.id } };
    });
  };
}
