import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { APIInteraction } from 'discord-api-types/v10';
import { DISCORD_API, DISCORD_ERRORS, DISCORD_MAX_SKEW_S } from '../../../src/protocol/discord';
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
import { serve } from '../contract';
import { resultErrors } from '../schemas';

/** An interaction is small (a command and its options): anything bigger is not Discord's. */
const INTERACTION_BODY_MAX = 64 * 1024;

/**
 * The Discord bridge: its settings (admin; the bot token is never answered), linking a Discord user
 * to the signed-in account with a `/link` code, the test message, and the interactions endpoint
 * Discord calls (every request's Ed25519 signature checked against the raw body; a stale or
 * replayed one refused with 401, as Discord requires).
 */
export function discordRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root;
    /** A budget per account (or address) and route: `max` calls a minute. */
    const budget = (name: string, max: number) => ({ rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `discord-${name}:${request.auth?.user.id ?? request.ip}` } });
    const admin = { preValidation: requireRank(ctx, 'admin') };

    serve(app, DISCORD_API.settings, admin, async () => ({ result: true as const, settings: publicSettings(await readDiscordConfig(ctx.db)) }));

    serve(app, DISCORD_API.saveSettings, admin, async (request) => {
      const saved = await saveDiscordSettings(ctx.db, request.body, authOf(request).user.id, ctx.now(), ctx.config.discordApiUrl);
      return { result: true as const, settings: publicSettings(saved) };
    });

    serve(app, DISCORD_API.test, { ...admin, config: budget('test', 6) }, async () => {
      const config = await readDiscordConfig(ctx.db);
      if (!config) throw new Conflict(DISCORD_ERRORS.notConfigured);
      return { result: true as const, ...(await sendTestMessages(config)) };
    });

    serve(app, DISCORD_API.installCommands, { ...admin, config: budget('commands', 6) }, async () => {
      const config = await readDiscordConfig(ctx.db);
      if (!config) throw new Conflict(DISCORD_ERRORS.notConfigured);
      const refused = await installCommands(config, ctx.config.discordApiUrl);
      if (refused) throw new Upstream(refused);
      return { result: true as const, installed: COMMAND_DEFINITIONS.map((c) => c.name) };
    });

    serve(app, DISCORD_API.outbox, { ...admin, config: budget('outbox', 60) }, async () => ({ result: true as const, ...(await troubledDeliveries(ctx.db, ctx.now())) }));

    serve(app, DISCORD_API.retry, { ...admin, config: budget('retry', 30) }, async (request) => {
      await retryDelivery(ctx.db, request.params.id, ctx.now());
      ctx.discord.wake();
      return { result: true as const };
    });

    serve(app, DISCORD_API.postKvk, { preValidation: requireRank(ctx, 'council+admin'), config: budget('kvk', 6) }, async (request) => {
      const { user } = authOf(request);
      await postKvkStandings(ctx.db, ctx.cards, { id: user.id, rank: user.rank }, { seasonId: request.params.seasonId, ...request.body }, ctx.now());
      return { result: true as const, queued: true };
    });

    const signedIn = { preValidation: requireRank(ctx, 'signed-in') };
    serve(app, DISCORD_API.link, signedIn, async (request) => {
      const link = await discordLinkOf(ctx.db, authOf(request).user.id);
      return { result: true as const, discordUserId: link?.discordUserId ?? null, linkedAt: link?.linkedAt ?? null };
    });

    serve(app, DISCORD_API.redeem, { ...signedIn, config: budget('link', 10) }, async (request) => ({
      result: true as const,
      discordUserId: await redeemLinkCode(ctx.db, authOf(request).user.id, request.body.code, ctx.now()),
    }));

    serve(app, DISCORD_API.unlink, signedIn, async (request) => {
      await unlinkDiscord(ctx.db, authOf(request).user.id, ctx.now());
      return { result: true as const };
    });

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
