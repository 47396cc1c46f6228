import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { APIInteraction } from 'discord-api-types/v10';
import { DISCORD_ERRORS, discordLinkAnswer, discordLinkBody, discordLinkState, discordSettingsAnswer, discordSettingsBody, discordTestAnswer, discordCommandsAnswer, discordOutboxAnswer, DISCORD_MAX_SKEW_S, discordKvkPostBody, discordKvkPostAnswer } from '../../../src/protocol/discord';
import { KVK_ERRORS } from '../../../src/protocol/kvk';
import type { AppContext } from '../../context';
import { COMMAND_DEFINITIONS, installCommands } from '../../discord/commands';
import { answerInteraction, interactionBudgets } from '../../discord/interactions';
import { discordLinkOf, redeemLinkCode, unlinkDiscord } from '../../discord/links';
import { publicSettings, readDiscordConfig, saveDiscordSettings } from '../../discord/settings';
import { verifyInteraction } from '../../discord/verify';
import { sendTestMessages } from '../../discord/webhooks';
import { retryDelivery, troubledDeliveries } from '../../discord/outbox';
import { postKvkStandings } from '../../discord/kvk-post';
import { writeTransaction } from '../../db/write';
import { Conflict, Unauthenticated, Unavailable, Upstream } from '../../errors';
import { authOf, originOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { pathId, resultErrors, resultTrue } from '../schemas';

/** An interaction is small (a command and its options): anything bigger is not Discord's. */
const INTERACTION_BODY_MAX = 64 * 1024;
/** An outbox message's id in a path (a malformed one names no message: 404). */
const outboxParams = z.object({ id: pathId(DISCORD_ERRORS.noDelivery, { notFound: true }) });

/**
 * The Discord bridge: its settings (admin; the bot token is never answered), linking a Discord user
 * to the signed-in account with a `/link` code, the test message, and the interactions endpoint
 * Discord calls (every request's Ed25519 signature checked against the raw body; a stale or
 * replayed one refused with 401, as Discord requires).
 */
export function discordRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/discord/settings',
      {
        preValidation: requireRank(ctx, 'admin'),
        schema: {
          summary: "The kingdom's Discord settings (null before they are saved). The bot token is never answered: botTokenSet says whether one is saved.",
          tags: ['discord'],
          security: BEARER,
          response: { 200: discordSettingsAnswer, ...resultErrors(401, 403) },
        },
      },
      async () => ({ result: true as const, settings: publicSettings(await readDiscordConfig(ctx.db)) }),
    );

    app.put(
      '/discord/settings',
      {
        preValidation: requireRank(ctx, 'admin'),
        schema: {
          summary: 'Save the Discord settings. botToken left out keeps the saved one, null removes it; a webhook left out is kept, null removes it. Audited without the token or the webhooks’ addresses.',
          tags: ['discord'],
          security: BEARER,
          body: discordSettingsBody,
          response: { 200: discordSettingsAnswer, ...resultErrors(400, 401, 403) },
        },
      },
      async (request) => {
        const saved = await saveDiscordSettings(ctx.db, request.body, authOf(request).user.id, ctx.now(), ctx.config.discordApiUrl);
        return { result: true as const, settings: publicSettings(saved) };
      },
    );

    app.post(
      '/discord/test',
      {
        preValidation: requireRank(ctx, 'admin'),
        config: { rateLimit: { max: 6, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-test:${request.auth?.user.id ?? request.ip}` } },
        schema: {
          summary: 'Send a test message to every announcement webhook that is set, in the announcement language: which kinds were sent, and why each other one failed (a webhook Discord refused, a rate limit, no answer within 5 s).',
          tags: ['discord'],
          security: BEARER,
          response: { 200: discordTestAnswer, ...resultErrors(401, 403, 409, 429) },
        },
      },
      async () => {
        const config = await readDiscordConfig(ctx.db);
        if (!config) throw new Conflict(DISCORD_ERRORS.notConfigured);
        return { result: true as const, ...(await sendTestMessages(config)) };
      },
    );

    app.post(
      '/discord/commands',
      {
        preValidation: requireRank(ctx, 'admin'),
        config: { rateLimit: { max: 6, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-commands:${request.auth?.user.id ?? request.ip}` } },
        schema: {
          summary: "Install Kingdom's slash commands in the guild (/link, /me, /stats, /top, /kvk, /points, /auctions) with the saved bot token; Discord's refusal is a 502 with what to fix.",
          tags: ['discord'],
          security: BEARER,
          response: { 200: discordCommandsAnswer, ...resultErrors(401, 403, 409, 429, 502) },
        },
      },
      async () => {
        const config = await readDiscordConfig(ctx.db);
        if (!config) throw new Conflict(DISCORD_ERRORS.notConfigured);
        const refused = await installCommands(config, ctx.config.discordApiUrl);
        if (refused) throw new Upstream(refused);
        return { result: true as const, installed: COMMAND_DEFINITIONS.map((c) => c.name) };
      },
    );

    app.get(
      '/discord/outbox',
      {
        preValidation: requireRank(ctx, 'admin'),
        config: { rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-outbox:${request.auth?.user.id ?? request.ip}` } },
        schema: {
          summary: 'Discord announcements that failed (Discord refused them or did not take them for a day) or are pending for more than 15 minutes, newest first (at most 50), with how many of each there are.',
          tags: ['discord'],
          security: BEARER,
          response: { 200: discordOutboxAnswer, ...resultErrors(401, 403, 429) },
        },
      },
      async () => ({ result: true as const, ...(await troubledDeliveries(ctx.db, ctx.now())) }),
    );

    app.post(
      '/discord/outbox/:id/retry',
      {
        preValidation: requireRank(ctx, 'admin'),
        config: { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-retry:${request.auth?.user.id ?? request.ip}` } },
        schema: {
          summary: 'Send a failed (or long pending) Discord announcement again now, with a new day of tries; one already sent is refused (409).',
          tags: ['discord'],
          security: BEARER,
          params: outboxParams,
          response: { 200: resultTrue({}), ...resultErrors(401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        await retryDelivery(ctx.db, request.params.id, ctx.now());
        ctx.discord.wake();
        return { result: true as const };
      },
    );

    app.post(
      '/discord/kvk/:seasonId',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        config: { rateLimit: { max: 6, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-kvk:${request.auth?.user.id ?? request.ip}` } },
        schema: {
          summary:
            "Post a KvK season's standings card (top 10 or 25, of the season, a window or an alliance) to the kvk webhook, in the announcement language. Queued once and sent within Discord's rate limits, retried for a day; 409 when no kvk webhook is set. Council and admin.",
          tags: ['discord'],
          security: BEARER,
          params: z.object({ seasonId: pathId(KVK_ERRORS.unknownSeason, { notFound: true }) }),
          body: discordKvkPostBody,
          response: { 200: discordKvkPostAnswer, ...resultErrors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { user } = authOf(request);
        await postKvkStandings(ctx.db, ctx.cards, { id: user.id, rank: user.rank }, { seasonId: request.params.seasonId, ...request.body }, ctx.now());
        return { result: true as const, queued: true };
      },
    );

    app.get(
      '/discord/link',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: { summary: "The Discord user linked to the signed-in account, if any.", tags: ['discord'], security: BEARER, response: { 200: discordLinkState, ...resultErrors(401) } },
      },
      async (request) => {
        const link = await discordLinkOf(ctx.db, authOf(request).user.id);
        return { result: true as const, discordUserId: link?.discordUserId ?? null, linkedAt: link?.linkedAt ?? null };
      },
    );

    app.post(
      '/discord/link',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        config: { rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-link:${request.auth?.user.id ?? request.ip}` } },
        schema: {
          summary: "Link the Discord user who typed /link to the signed-in account, with the code of /link's answer (10 minutes, once). One Discord user for one account: an earlier link of this account is replaced.",
          tags: ['discord'],
          security: BEARER,
          body: discordLinkBody,
          response: { 200: discordLinkAnswer, ...resultErrors(400, 401, 409, 429) },
        },
      },
      async (request) => ({ result: true as const, discordUserId: await redeemLinkCode(ctx.db, authOf(request).user.id, request.body.code, ctx.now()) }),
    );

    app.delete(
      '/discord/link',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: { summary: 'Unlink the signed-in account from its Discord user.', tags: ['discord'], security: BEARER, response: { 200: resultTrue({}), ...resultErrors(401, 404) } },
      },
      async (request) => {
        await unlinkDiscord(ctx.db, authOf(request).user.id, ctx.now());
        return { result: true as const };
      },
    );

    // the interactions endpoint reads its body raw: the signature is over the bytes Discord sent
    const withinBudget = interactionBudgets(ctx.now);
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INTERACTION_BODY_MAX }, (_request, body, done) => done(null, body));
      raw.post(
        '/discord/interactions',
        {
          schema: {
            summary: "Discord's interactions (its URL in the Developer Portal): PING, the slash commands and their autocomplete. Signed by Discord with Ed25519 (X-Signature-Ed25519 over X-Signature-Timestamp and the body); a bad, stale (over 5 minutes) or replayed request is 401.",
            tags: ['discord'],
            response: { 200: { description: 'An interaction response (discord-api-types APIInteractionResponse)', type: 'object' }, ...resultErrors(401, 503) },
          },
        },
        async (request, reply) => {
          const config = await readDiscordConfig(ctx.db);
          if (!config) throw new Unavailable(DISCORD_ERRORS.notConfigured);
          const body = request.body as Buffer;
          const now = ctx.now();
          const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
          if (!Buffer.isBuffer(body) || !verifyInteraction(config.publicKey, header('x-signature-ed25519'), header('x-signature-timestamp'), body, now)) throw new Unauthenticated(DISCORD_ERRORS.badSignature);
          let interaction: APIInteraction;
          try {
            interaction = JSON.parse(body.toString('utf8')) as APIInteraction;
          } catch {
            throw new Unauthenticated(DISCORD_ERRORS.badSignature); // signed but not JSON: not Discord
          }
          if (typeof interaction?.id !== 'string' || !/^\d{1,20}$/.test(interaction.id) || typeof interaction.type !== 'number') throw new Unauthenticated(DISCORD_ERRORS.badSignature);
          // each interaction once: a replay within the signature's window finds its id taken
          const first = await writeTransaction(ctx.db, async (trx) => {
            await trx.deleteFrom('discord_interactions').where('at', '<', now - 2 * DISCORD_MAX_SKEW_S * 1000).execute();
            const inserted = await trx.insertInto('discord_interactions').values({ id: interaction.id, at: now }).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
            return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
          });
          if (!first) throw new Unauthenticated(DISCORD_ERRORS.badSignature);
          return answerInteraction(
            {
              db: ctx.db,
              now: ctx.now,
              origin: originOf(request),
              withinBudget,
              cards: ctx.cards,
              apiUrl: ctx.config.discordApiUrl,
              log: request.log,
              // a follow-up edits the first answer: it starts once that answer has gone out
              afterAnswer: (task) =>
                reply.raw.once('finish', () => void task().catch((error: unknown) => request.log.error({ err: error }, 'a deferred Discord answer failed'))),
            },
            interaction,
          );
        },
      );
    });
  };
}
