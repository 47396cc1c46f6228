import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NotFound, TooMany } from '../../errors';
import * as z from 'zod/mini';
import { BOT_ERRORS, botBody, botsAnswer, commandAnswer, commandBody, registeredAnswer } from '../../../src/protocol/bots';
import { recordAudit } from '../../audit/audit';
import { registerBot, revokeBot, rotateBotToken } from '../../bots/registry';
import type { AppContext } from '../../context';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { pathId, resultErrors, resultTrue } from '../schemas';

/** A malformed bot id is a 400 with its text. */
const idParams = z.object({ id: pathId(BOT_ERRORS.badBotId, { digits: 9 }) });


/** Scan bots, admins only: register, rotate, revoke, list, command. */
export function botRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
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

    app.get(
      '/bots',
      {
        preValidation: admin,
        schema: {
          summary: 'Every bot: online or not (a status within 45 s), its state, progress, last scan and version',
          tags: ['bots'],
          security: BEARER,
          response: { 200: botsAnswer, ...resultErrors(401, 403) },
        },
      },
      async () => ({ result: true as const, bots: ctx.bots.list() }),
    );

    app.post(
      '/bots',
      {
        preValidation: admin,
        schema: {
          summary: 'Register a bot: the answer holds its token, shown this once (only its hash is kept)',
          tags: ['bots'],
          security: BEARER,
          body: botBody,
          response: { 200: registeredAnswer, ...resultErrors(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const { name } = request.body;
        const { bot: row, token } = await registerBot(ctx.db, name, actorOf(request), ctx.now());
        ctx.bots.registered(row);
        return { result: true as const, bot: { id: row.id, name: row.name }, token };
      },
    );

    app.post(
      '/bots/:id/token',
      {
        preValidation: admin,
        schema: {
          summary: "Rotate a bot's token: the old one stops working at once (a connected bot is disconnected); the new one is shown this once",
          tags: ['bots'],
          security: BEARER,
          params: idParams,
          response: { 200: registeredAnswer, ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const id = request.params.id;
        const { bot: row, token } = await rotateBotToken(ctx.db, id, actorOf(request), ctx.now());
        ctx.bots.disconnect(id, false);
        return { result: true as const, bot: { id: row.id, name: row.name }, token };
      },
    );

    app.delete(
      '/bots/:id',
      {
        preValidation: admin,
        schema: {
          summary: 'Revoke a bot: its token stops working at once and a connected bot is disconnected',
          tags: ['bots'],
          security: BEARER,
          params: idParams,
          response: { 200: resultTrue({}), ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const id = request.params.id;
        await revokeBot(ctx.db, id, actorOf(request), ctx.now());
        ctx.bots.disconnect(id, true);
        return { result: true as const };
      },
    );

    app.post(
      '/bots/:id/commands',
      {
        preValidation: [admin, commandBudget],
        schema: {
          summary: 'Send a command to an online bot (ping, start-scan, stop, pause, resume, or one it announced); its answer arrives on the watch socket (/bots/watch) as COMMAND_ANSWER',
          tags: ['bots'],
          security: BEARER,
          params: idParams,
          body: commandBody,
          response: { 200: commandAnswer, ...resultErrors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const id = request.params.id;
        const body = request.body;
        const actor = actorOf(request);
        const name = ctx.bots.nameOf(id);
        if (name === null) throw new NotFound(BOT_ERRORS.unknownBot);
        const sent = ctx.bots.command(id, body.command, body.args, actor.name);
        await recordAudit(ctx.db, { actor, action: 'bot.command', target: name, detail: { botId: id, command: body.command, ...(body.args?.length ? { args: body.args } : {}), commandId: sent.id } }, ctx.now());
        return { result: true as const, command: { id: sent.id } };
      },
    );
  };
}
