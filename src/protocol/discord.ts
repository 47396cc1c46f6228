import * as z from 'zod/mini';
import { endpoint, okAnswer } from './endpoint';
import { pathId } from './http';
import { KVK_ERRORS } from './kvk';
import { LOCALES } from './locales';

/**
 * The Discord bridge's fixed calls: the kingdom's Discord settings (admin; the bot token is
 * write-only), linking a Discord user to an account with a one-time code from `/link`, and the test
 * message. Interactions arrive at `POST discord/interactions`, signed by Discord (Ed25519).
 */

/** Where announcements go: one channel webhook per kind. */
export const DISCORD_WEBHOOK_KINDS = ['auctions', 'sales', 'scans', 'points', 'kvk'] as const;
export type DiscordWebhookKind = (typeof DISCORD_WEBHOOK_KINDS)[number];

/** A `/link` code is good this long, once. */
export const DISCORD_LINK_TTL_MS = 10 * 60_000;
/** A signed interaction older (or newer) than this is refused as a replay. */
export const DISCORD_MAX_SKEW_S = 5 * 60;

export const DISCORD_ERRORS = {
  badApplicationId: 'The application id is the number Discord shows under General Information (17 to 20 digits).',
  badGuildId: 'The server (guild) id is a number of 17 to 20 digits: right-click the server in Discord, Copy Server ID.',
  badPublicKey: 'The public key is the 64 hexadecimal characters Discord shows under General Information.',
  badToken: 'The bot token is the text Discord shows once under Bot, Reset Token (at most 100 characters, no spaces).',
  badWebhook: 'A webhook must be a Discord webhook address: https://discord.com/api/webhooks/… (Channel settings, Integrations, Webhooks).',
  badLanguage: `The announcement language must be one of: ${LOCALES.join(', ')}.`,
  badCode: 'This link code is not valid. Type /link in Discord again for a new one.',
  codeUsed: 'This link code was already used or has expired. Type /link in Discord again for a new one.',
  discordTaken: 'This Discord account is already linked to another Kingdom account. Unlink it there first.',
  notLinked: 'Your account is not linked to Discord.',
  notConfigured: 'Discord is not set up yet: an admin fills in Kingdom Settings, Discord first.',
  badSignature: 'invalid request signature',
  noDelivery: 'There is no such Discord announcement.',
  deliverySent: 'This Discord announcement was already sent.',
  noKvkWebhook: 'No Discord webhook is set for KvK standings: an admin pastes one in Kingdom Settings, Discord.',
  badTop: 'The card shows the top 10 or the top 25.',
} as const;

const snowflake = (error: string) => z.string({ error }).check(z.regex(/^\d{17,20}$/, error));
const webhook = z.string({ error: DISCORD_ERRORS.badWebhook }).check(z.maxLength(300, DISCORD_ERRORS.badWebhook), z.regex(/^https?:\/\/[^\s/]+\/(?:[\w.-]+\/)*webhooks\/\d{17,20}\/[\w-]{20,100}$/, DISCORD_ERRORS.badWebhook));

export const discordWebhooks = z.object({
  auctions: z.optional(z.nullable(webhook)),
  sales: z.optional(z.nullable(webhook)),
  scans: z.optional(z.nullable(webhook)),
  points: z.optional(z.nullable(webhook)),
  kvk: z.optional(z.nullable(webhook)),
});

/** PUT discord/settings: the token only when it changes (absent: kept; null: removed). */
export const discordSettingsBody = z.object({
  applicationId: snowflake(DISCORD_ERRORS.badApplicationId),
  publicKey: z.string({ error: DISCORD_ERRORS.badPublicKey }).check(z.regex(/^[0-9a-fA-F]{64}$/, DISCORD_ERRORS.badPublicKey)),
  botToken: z.optional(z.nullable(z.string({ error: DISCORD_ERRORS.badToken }).check(z.minLength(20, DISCORD_ERRORS.badToken), z.maxLength(100, DISCORD_ERRORS.badToken), z.regex(/^[\w.-]+$/, DISCORD_ERRORS.badToken)))),
  guildId: snowflake(DISCORD_ERRORS.badGuildId),
  language: z.enum(LOCALES, { error: DISCORD_ERRORS.badLanguage }),
  webhooks: discordWebhooks,
});

export const discordSettings = z.object({
  applicationId: z.string(),
  publicKey: z.string(),
  guildId: z.string(),
  language: z.enum(LOCALES),
  webhooks: z.record(z.string(), z.string()),
  botTokenSet: z.boolean(),
});
export type DiscordSettings = z.infer<typeof discordSettings>;
export const discordSettingsAnswer = z.object({ result: z.literal(true), settings: z.nullable(discordSettings) });

/** POST discord/link: the code from `/link`'s answer. */
export const discordLinkBody = z.object({ code: z.string({ error: DISCORD_ERRORS.badCode }).check(z.regex(/^[\w-]{16,64}$/, DISCORD_ERRORS.badCode)) });
export const discordLinkAnswer = z.object({ result: z.literal(true), discordUserId: z.string() });
/** GET discord/link: the signed-in account's Discord user, if linked. */
export const discordLinkState = z.object({ result: z.literal(true), discordUserId: z.nullable(z.string()), linkedAt: z.nullable(z.number()) });

export const discordTestAnswer = z.object({ result: z.literal(true), sent: z.array(z.string()), errors: z.array(z.object({ kind: z.string(), text: z.string() })) });

/** POST discord/commands: the commands installed in the guild. */
export const discordCommandsAnswer = z.object({ result: z.literal(true), installed: z.array(z.string()) });

/** A Discord announcement that failed or is pending too long (GET discord/outbox, admin). */
export const discordOutboxEntry = z.object({
  id: z.number(),
  eventId: z.number(),
  /** The domain event it tells of (item.started, item.sold, item.no-buyer, scan.applied, rule.applied). */
  kind: z.string(),
  channel: z.string(),
  /** The message's title, as Discord would show it (in the announcement language). */
  title: z.string(),
  status: z.enum(['pending', 'failed']),
  attempts: z.number(),
  createdAt: z.number(),
  /** When it is tried next (pending only). */
  nextAt: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
});
export type DiscordOutboxEntry = z.infer<typeof discordOutboxEntry>;
export const discordOutboxAnswer = z.object({ result: z.literal(true), failed: z.number(), stale: z.number(), deliveries: z.array(discordOutboxEntry) });

/** POST discord/kvk/:seasonId: the standings card to post (the dashboard's window and alliance, top 10 or 25). */
export const discordKvkPostBody = z.object({
  window: z.optional(z.string().check(z.maxLength(40))),
  alliance: z.optional(z.string().check(z.maxLength(64))),
  top: z.union([z.literal(10), z.literal(25)], { error: DISCORD_ERRORS.badTop }),
});
export const discordKvkPostAnswer = z.object({ result: z.literal(true), queued: z.boolean() });

/** The Discord bridge's REST endpoints (the interactions endpoint, signed raw bytes, is the server's own). */
export const DISCORD_API = {
  settings: endpoint({
    method: 'GET',
    path: 'discord/settings',
    answer: discordSettingsAnswer,
    errors: [401, 403],
    tag: 'discord',
    summary: "The kingdom's Discord settings (null before they are saved). The bot token is never answered: botTokenSet says whether one is saved.",
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: 'discord/settings',
    body: discordSettingsBody,
    answer: discordSettingsAnswer,
    errors: [400, 401, 403],
    tag: 'discord',
    summary: 'Save the Discord settings. botToken left out keeps the saved one, null removes it; a webhook left out is kept, null removes it. Audited without the token or the webhooks’ addresses.',
  }),
  test: endpoint({
    method: 'POST',
    path: 'discord/test',
    answer: discordTestAnswer,
    errors: [401, 403, 409, 429],
    tag: 'discord',
    summary: 'Send a test message to every announcement webhook that is set, in the announcement language: which kinds were sent, and why each other one failed (a webhook Discord refused, a rate limit, no answer within 5 s).',
  }),
  installCommands: endpoint({
    method: 'POST',
    path: 'discord/commands',
    answer: discordCommandsAnswer,
    errors: [401, 403, 409, 429, 502],
    tag: 'discord',
    summary: "Install Kingdom's slash commands in the guild (/link, /me, /stats, /top, /kvk, /points, /auctions) with the saved bot token; Discord's refusal is a 502 with what to fix.",
  }),
  outbox: endpoint({
    method: 'GET',
    path: 'discord/outbox',
    answer: discordOutboxAnswer,
    errors: [401, 403, 429],
    tag: 'discord',
    summary: 'Discord announcements that failed (Discord refused them or did not take them for a day) or are pending for more than 15 minutes, newest first (at most 50), with how many of each there are.',
  }),
  retry: endpoint({
    method: 'POST',
    path: 'discord/outbox/:id/retry',
    // an outbox message's malformed id names no message: 404
    params: { id: pathId(DISCORD_ERRORS.noDelivery, { notFound: true }) },
    answer: okAnswer,
    errors: [401, 403, 404, 409, 429],
    tag: 'discord',
    summary: 'Send a failed (or long pending) Discord announcement again now, with a new day of tries; one already sent is refused (409).',
  }),
  postKvk: endpoint({
    method: 'POST',
    path: 'discord/kvk/:seasonId',
    params: { seasonId: pathId(KVK_ERRORS.unknownSeason, { notFound: true }) },
    body: discordKvkPostBody,
    answer: discordKvkPostAnswer,
    errors: [400, 401, 403, 404, 409, 429],
    tag: 'discord',
    summary:
      "Post a KvK season's standings card (top 10 or 25, of the season, a window or an alliance) to the kvk webhook, in the announcement language. Queued once and sent within Discord's rate limits, retried for a day; 409 when no kvk webhook is set. Council and admin.",
  }),
  link: endpoint({ method: 'GET', path: 'discord/link', answer: discordLinkState, errors: [401], tag: 'discord', summary: 'The Discord user linked to the signed-in account, if any.' }),
  redeem: endpoint({
    method: 'POST',
    path: 'discord/link',
    body: discordLinkBody,
    answer: discordLinkAnswer,
    errors: [400, 401, 409, 429],
    tag: 'discord',
    summary: "Link the Discord user who typed /link to the signed-in account, with the code of /link's answer (10 minutes, once). One Discord user for one account: an earlier link of this account is replaced.",
  }),
  unlink: endpoint({ method: 'DELETE', path: 'discord/link', answer: okAnswer, errors: [401, 404], tag: 'discord', summary: 'Unlink the signed-in account from its Discord user.' }),
} as const;
